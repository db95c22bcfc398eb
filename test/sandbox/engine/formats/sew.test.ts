import { sewFormat } from '../../../../sandbox/engine/formats/sew';
import { countCommands } from '../../../../sandbox/engine/normalise';
import { Command } from '../../../../sandbox/engine/pattern';
import { detectFormat } from '../../../../sandbox/engine/registry';
import { fixture } from '../../../support/embroideryFiles';
import { alignedTo, needlePath, pointsMatched } from '../support/needlePath';
import { loadFixture, patternEvents, referenceEvents } from '../support/referenceDecoding';

const read = sewFormat.read!;
/** Star.SEW's end code 0x80 0x10, followed by 16 zero bytes of padding. */
const endCode = 0x3162;

describe('SEW reader', () => {
	it("sews Star.DST's needle path, placed elsewhere in the hoop, and ends at the end code", () => {
		const pattern = read(fixture('Star.SEW'));
		const dst = referenceEvents(loadFixture('Star.DST').commands);
		const expected = needlePath(dst);
		expect(pointsMatched(expected, needlePath(alignedTo(patternEvents(pattern), dst)), 1)).toBe(
			expected.length,
		);
		expect(countCommands(pattern, Command.Stitch)).toBe(2541);
		expect(detectFormat(fixture('Star.SEW'))).toBe('sew');
	});

	it("refuses chart codes past Janome's 78 and more colour changes than colours", () => {
		const badCode = fixture('Star.SEW');
		badCode.writeUInt16LE(79, 2);
		expect(sewFormat.detect!(badCode)).toBe(false);
		expect(() => read(badCode)).toThrow(/colour 1 has code 79, which Janome's chart lacks/);
		const oneColour = fixture('Star.SEW');
		oneColour.writeUInt16LE(1, 0);
		expect(() => read(oneColour)).toThrow(/it has 2 colour blocks, but its header names 1 colours/);
	});

	it('refuses an unknown control, a missing end code and data after it', () => {
		const unknown = fixture('Star.SEW');
		unknown[0x1d79] = 0x20;
		expect(() => read(unknown)).toThrow(/control code 0x20 at byte 7544/);
		expect(() => read(fixture('Star.SEW').subarray(0, endCode))).toThrow(/without the end code/);
		const trailing = fixture('Star.SEW');
		trailing[trailing.length - 1] = 7;
		expect(() => read(trailing)).toThrow(/data follows the end code/);
		const padded = Buffer.concat([fixture('Star.SEW'), Buffer.alloc(300)]);
		expect(() => read(padded)).toThrow(/316 bytes follow the end code/);
		expect(read(Buffer.concat([fixture('Star.SEW'), Buffer.alloc(64)])).length).toBe(2544);
	});
});
