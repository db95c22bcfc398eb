import { UnreadableSourceError } from '../../../../sandbox/engine/errors';
import { datFormat } from '../../../../sandbox/engine/formats/dat';
import { dstFormat } from '../../../../sandbox/engine/formats/dst';
import { Command, type Pattern } from '../../../../sandbox/engine/pattern';
import { detectFormat } from '../../../../sandbox/engine/registry';
import { fixture } from '../../../support/embroideryFiles';
import { otherStarSamples } from '../support/starSamples';

const read = datFormat.read!;
const star = new Uint8Array(fixture('Star.dat'));

/** Where the needle sews and changes colour, in order, a stitch repeated in place counted once. */
function sewnPath(pattern: Pattern): string[] {
	const path: string[] = [];
	for (let i = 0; i < pattern.length; i++) {
		const command = pattern.commands[i];
		if (command !== Command.Stitch && command !== Command.ColorChange) continue;
		const entry =
			command === Command.Stitch ? `${pattern.xs[i]},${pattern.ys[i]}` : 'colour change';
		if (entry !== path[path.length - 1]) path.push(entry);
	}
	return path;
}

describe('DAT reader', () => {
	it("sews Star.DST's needle path from Star.dat, every stitch and the colour change in order", () => {
		const dst = sewnPath(dstFormat.read!(new Uint8Array(fixture('Star.DST'))));
		const dat = sewnPath(read(star));
		// Star.DST sews each of the star's five tips three times in place; Star.dat once.
		expect(dat).toEqual(dst);
		expect(dat.filter((entry) => entry === 'colour change')).toHaveLength(1);
	});

	it('is recognised by its records, not read as EXP whatever its name', () => {
		expect(detectFormat(star)).toBe('dat');
		expect(detectFormat(star, 'Star.dat')).toBe('dat');
	});

	it('refuses an unknown control, an end record before the last, a cut record', () => {
		const control = star.slice();
		control[3 * 50 + 2] = 0x02;
		const early = star.slice();
		early[3 * 50 + 2] = 0x10;
		for (const bytes of [
			control,
			early,
			star.subarray(0, star.length - 1),
			star.subarray(0, star.length - 3),
		])
			expect(() => read(bytes)).toThrow(UnreadableSourceError);
	});

	it("refuses another file's zero padding over its start: more than 16 records in a row that do not move", () => {
		// Star.ksm's zero header, 128 bytes of it, over Star.dat's first records: 42 moves of nothing.
		const padded = star.slice();
		padded.fill(0, 0, 128);
		expect(() => read(padded)).toThrow(
			/not a DAT file: more than 16 records in a row up to record 17 do not move/,
		);
	});

	it.each(otherStarSamples('Star.dat'))('refuses $name', ({ bytes }) => {
		expect(() => read(bytes)).toThrow(UnreadableSourceError);
	});
});
