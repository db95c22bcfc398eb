import { UnreadableSourceError } from '../../../../sandbox/engine/errors';
import { toyota100Format } from '../../../../sandbox/engine/formats/toyota100';
import { Command } from '../../../../sandbox/engine/pattern';
import { fixture } from '../../../support/embroideryFiles';
import { entriesOf } from '../support/referenceDecoding';
import { otherStarSamples } from '../support/starSamples';

const read = toyota100Format.read!;
const star = new Uint8Array(fixture('Star.100'));

describe('Toyota 100 reader', () => {
	it('reads moves in sign and magnitude with y up: 0x92 is 1.8 mm down the design', () => {
		const bytes = new Uint8Array([
			0x03, 0, 0, 0x92, 0x61, 0, 0x85, 0x02, 0x04, 0, 0, 0, 0x61, 0, 1, 1, 0x1f, 0, 0, 0,
		]);
		const pattern = read(bytes);
		expect(entriesOf(pattern)).toEqual([
			[0, 18, Command.Jump],
			[-5, 16, Command.Stitch],
			[-5, 16, Command.ColorChange],
			[-4, 15, Command.Stitch],
			[-4, 15, Command.End],
		]);
	});

	it('refuses an unknown code, a second byte other than 0, an end record before the last, or a cut record', () => {
		const code = star.slice();
		code[4 * 50] = 0x62;
		const second = star.slice();
		second[4 * 50 + 1] = 1;
		const early = star.slice();
		early[4 * 50] = 0x1f;
		for (const bytes of [
			code,
			second,
			early,
			star.subarray(0, star.length - 2),
			star.subarray(0, star.length - 4),
		])
			expect(() => read(bytes)).toThrow(UnreadableSourceError);
	});

	it.each(otherStarSamples('Star.100'))('refuses $name', ({ bytes }) => {
		expect(() => read(bytes)).toThrow(UnreadableSourceError);
	});
});
