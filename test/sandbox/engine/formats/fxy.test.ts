import { UnreadableSourceError } from '../../../../sandbox/engine/errors';
import { dszFormat } from '../../../../sandbox/engine/formats/dsz';
import { fxyFormat } from '../../../../sandbox/engine/formats/fxy';
import { detectFormat } from '../../../../sandbox/engine/registry';
import { fixture } from '../../../support/embroideryFiles';
import { fxyFile } from '../support/builtFiles';
import { patternEvents } from '../support/referenceDecoding';
import { otherStarSamples } from '../support/starSamples';

const read = fxyFormat.read!;
const dsz = new Uint8Array(fixture('Star.DSZ'));

describe('FXY reader', () => {
	it("reads ZSK's records after its 256-byte header as DSZ reads them after its 512", () => {
		const bytes = fxyFile();
		expect(patternEvents(read(bytes))).toEqual(patternEvents(dszFormat.read!(dsz)));
		expect(detectFormat(bytes, 'star.fxy')).toBe('fxy');
	});

	it('refuses records without their end record, bytes after it, or a control ZSK does not use', () => {
		const records = dsz.subarray(512, dsz.length - 1);
		const unknown = fxyFile().slice();
		unknown[256 + 3 * 10 + 2] = 0x22;
		for (const bytes of [
			fxyFile(records.subarray(0, records.length - 3)),
			fxyFile(new Uint8Array([...records, 0, 0, 0x80])),
			unknown,
		])
			expect(() => read(bytes)).toThrow(UnreadableSourceError);
	});

	it.each(otherStarSamples('Star.FXY'))('refuses $name', ({ bytes }) => {
		expect(() => read(bytes)).toThrow(UnreadableSourceError);
	});
});
