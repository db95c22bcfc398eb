import { UnreadableSourceError } from '../../../../sandbox/engine/errors';
import { emdFormat } from '../../../../sandbox/engine/formats/emd';
import { expFormat } from '../../../../sandbox/engine/formats/exp';
import { Command } from '../../../../sandbox/engine/pattern';
import { detectFormat } from '../../../../sandbox/engine/registry';
import { fixture } from '../../../support/embroideryFiles';
import { emdStar } from '../support/builtFiles';
import { entriesOf, patternEvents } from '../support/referenceDecoding';
import { otherStarSamples } from '../support/starSamples';

const read = emdFormat.read!;
const exp = new Uint8Array(fixture('Star.EXP'));

describe('EMD reader', () => {
	it('reads the same stitches, moves and colour change as the EXP records they were built from', () => {
		const bytes = emdStar();
		expect(patternEvents(read(bytes))).toEqual(patternEvents(expFormat.read!(exp)));
		expect(detectFormat(bytes, 'star.emd')).toBe('emd');
	});

	it('reads each command of the layout, y pointing up', () => {
		const header = new Array(0x30).fill(0);
		const records = [
			0x80, 0x7d, 5, 0xfe, 0x80, 0x80, 0x10, 0x10, 0x80, 0x90, 0x80, 0x2a, 0xff, 1, 0x80, 0xfd,
		];
		const pattern = read(new Uint8Array([...header, ...records]));
		expect(entriesOf(pattern)).toEqual([
			[5, 2, Command.Stitch],
			[21, -14, Command.Jump],
			[21, -14, Command.Trim],
			[21, -14, Command.ColorChange],
			[20, -15, Command.Stitch],
			[20, -15, Command.End],
		]);
	});

	it('refuses an unknown command, an end command before the last record, or a cut move', () => {
		const bytes = emdStar();
		const unknown = bytes.slice();
		unknown.set([0x80, 0x11], 0x30 + 20);
		const early = bytes.slice();
		early.set([0x80, 0xfd], 0x30 + 20);
		const cut = new Uint8Array([...new Array(0x30).fill(0), 1, 1, 0x80, 0x80, 0x80, 0xfd]);
		for (const damaged of [unknown, early, cut, bytes.subarray(0, bytes.length - 2)])
			expect(() => read(damaged)).toThrow(UnreadableSourceError);
	});

	it.each(otherStarSamples('Star.EMD'))('refuses $name', ({ bytes }) => {
		expect(() => read(bytes)).toThrow(UnreadableSourceError);
	});
});
