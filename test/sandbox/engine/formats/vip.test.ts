/**
 * VIP, which pyembroidery cannot read: Star.VIP must give Star.DST's needle path, with its own colours.
 */
import { UnreadableSourceError } from '../../../../sandbox/engine/errors';
import { looksLikeHus } from '../../../../sandbox/engine/formats/husReader';
import { looksLikeVip, readVip } from '../../../../sandbox/engine/formats/vipReader';
import { countCommands } from '../../../../sandbox/engine/normalise';
import { Command } from '../../../../sandbox/engine/pattern';
import { detectFormat } from '../../../../sandbox/engine/registry';
import { fixture } from '../../../support/embroideryFiles';
import { needlePath, pointsMatched } from '../support/needlePath';
import { loadFixture, patternEvents, referenceEvents } from '../support/referenceDecoding';

describe('VIP reader on Star.VIP', () => {
	const bytes = fixture('Star.VIP');
	const pattern = readVip(bytes);
	const dst = loadFixture('Star.DST');

	it('is recognised by its magic, and HUS and VIP never take each other', () => {
		expect(detectFormat(bytes)).toBe('vip');
		expect(looksLikeHus(bytes)).toBe(false);
		expect(looksLikeVip(loadFixture('Star.HUS').bytes)).toBe(false);
	});

	it('puts the needle everywhere Star.DST does, in the same order, with the same colour change', () => {
		const expected = needlePath(referenceEvents(dst.commands));
		const actual = needlePath(patternEvents(pattern));
		expect(expected.length).toBeGreaterThan(2500);
		expect(pointsMatched(expected, actual, 0)).toBe(expected.length);
		// Star.VIP lands its first jump and the one after the colour change in two steps where DST takes one.
		expect(actual.length - expected.length).toBe(2);
		expect(countCommands(pattern, Command.ColorChange)).toBe(dst.expected.colorChanges);
		expect(pattern.commands[pattern.length - 1]).toBe(Command.End);
	});

	it("decodes the file's own RGB colours: Star's orange and white, as Star.XXX holds them", () => {
		expect(pattern.threads).toEqual([{ color: 0xe3311f }, { color: 0xf7f3f7 }]);
	});

	it('reads a copy cut short as far as its compressed streams decode, and refuses a changed stream', () => {
		const cut = readVip(bytes.subarray(0, bytes.length - 200));
		expect(cut.warnings[0]).toMatch(
			/^The file ends early .*: read [\d,]+ of 2,544 declared stitches/,
		);
		// The x stream lies wholly inside the file: with its last 100 bytes gone, the file is damaged, not cut short.
		const x = new DataView(bytes.buffer, bytes.byteOffset).getUint32(24, true);
		const y = new DataView(bytes.buffer, bytes.byteOffset).getUint32(28, true);
		const xCut = Uint8Array.from([...bytes.subarray(0, y - 100), ...bytes.subarray(y - 100 + 100)]);
		expect(x).toBeLessThan(y - 100);
		expect(() => readVip(xCut)).toThrow(UnreadableSourceError);
	});

	it('refuses a changed byte whose garbled bits run to the end: its block declares too many tokens', () => {
		// Byte 2581 of the y stream changed: decoding runs out of bits at 2,543 of 2,544 bytes, inside a block
		// read from garbled bits that declares 65,532 more tokens, each of which would give a byte.
		for (const change of [1, 100, 216, 255]) {
			const changed = bytes.slice();
			changed[2581] ^= change;
			expect(() => readVip(changed)).toThrow(UnreadableSourceError);
		}
	});
});
