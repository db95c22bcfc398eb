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

	it('refuses a copy whose compressed streams are cut off', () => {
		const cut = bytes.subarray(0, bytes.length - 200);
		expect(() => readVip(cut)).toThrow(UnreadableSourceError);
		expect(() => readVip(cut)).toThrow(/VIP file's y stream is damaged/);
	});
});
