import { UnreadableSourceError } from '../../sandbox/engine/errors';
import { emdFormat } from '../../sandbox/engine/formats/emd';
import { expFormat } from '../../sandbox/engine/formats/exp';
import { Command } from '../../sandbox/engine/pattern';
import { detectFormat } from '../../sandbox/engine/registry';
import { fixture } from '../support/embroideryFiles';
import { entriesOf, patternEvents } from './support/referenceDecoding';
import { otherStarSamples } from './support/starSamples';

const read = emdFormat.read!;
const exp = new Uint8Array(fixture('Star.EXP'));

/**
 * Star.EXP rewritten record by record as EMD lays records out: the same 2-byte stitches, EXP's
 * colour change as 0x80 0x2A plus a move, its jumps as 0x80 0x80 moves, its trims as 0x80 0xAD,
 * after a 48-byte header and before the end command.
 */
function starAsEmd(): Uint8Array {
	const out: number[] = new Array(0x30).fill(0);
	for (let offset = 0; offset + 2 <= exp.length; ) {
		const [b0, b1, b2, b3] = exp.subarray(offset, offset + 4);
		if (b0 !== 0x80) {
			out.push(b0, b1);
			offset += 2;
			continue;
		}
		if (b1 === 0x01) out.push(0x80, 0x2a, 0x80, 0x80, b2, b3);
		else if (b1 === 0x80) out.push(0x80, 0xad);
		else out.push(0x80, 0x80, b2, b3);
		offset += 4;
	}
	out.push(0x80, 0xfd);
	return new Uint8Array(out);
}

describe('EMD reader', () => {
	it('reads the same stitches, moves and colour change as the EXP records they were built from', () => {
		const bytes = starAsEmd();
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
		const bytes = starAsEmd();
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
