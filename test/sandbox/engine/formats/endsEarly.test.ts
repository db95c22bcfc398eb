/**
 * Files cut short are read to the cut (issue 40): a file with a header that ends early, without its end
 * record or in the middle of a record, is read up to what it holds and the job warns; one cut so short that
 * no stitch is left is refused as empty. Each format is cut at 25, 50 and 90% and at seeded places.
 */
import { identifyFormat, readPattern, writePattern } from '../../../../sandbox/engine';
import { countCommands } from '../../../../sandbox/engine/normalise';
import { Command } from '../../../../sandbox/engine/pattern';
import { builtStars } from '../support/builtFiles';
import { shareOf, stepsOf } from '../support/needlePath';
import { seededRandom, sharedSample } from '../support/starSamples';

interface CutCase {
	name: string;
	bytes: Uint8Array;
	/** The count the header declares, as the warning gives it ("read N of M declared stitches"), if any. */
	declared?: RegExp;
}

/** Star.pes written as `format` by the engine, for formats without a shared sample. */
const written = (format: string): Uint8Array => {
	const star = sharedSample('Star.pes');
	return writePattern(readPattern(star, identifyFormat(star, 'Star.pes').format!), format).bytes;
};

const cases: CutCase[] = [
	{
		name: 'Star.HUS',
		bytes: sharedSample('Star.HUS'),
		declared: /read [\d,]+ of 2,557 declared stitches/,
	},
	{
		name: 'Star.VIP',
		bytes: sharedSample('Star.VIP'),
		declared: /read [\d,]+ of 2,544 declared stitches/,
	},
	{ name: 'Star.pes', bytes: sharedSample('Star.pes') },
	{ name: 'Star.pec', bytes: written('pec') },
	{ name: 'Star.phb', bytes: sharedSample('Star.phb') },
	{ name: 'Star.phc', bytes: sharedSample('Star.phc') },
	{ name: 'Star.tbf', bytes: written('tbf') },
	{
		name: 'Star.JEF',
		bytes: sharedSample('Star.JEF'),
		declared: /[\d,]+ of the [\d,]+ record units \(2 bytes each\) its header declares/,
	},
	{
		name: 'Star.SHV',
		bytes: sharedSample('Star.SHV'),
		declared: /read [\d,]+ of 2,543 declared stitches/,
	},
	{
		name: 'Star.stc',
		bytes: builtStars().find((file) => file.name === 'Star.stc')!.bytes,
		declared: /read [\d,]+ of [\d,]+ declared stitches/,
	},
	{
		name: 'Star.vp3',
		bytes: written('vp3'),
		declared: /read [\d,]+ of [\d,]+ declared stitches/,
	},
];

/** 25, 50 and 90% of the file, and five seeded places between 20 and 98% (seed 40). */
function cutPlaces(length: number, seed: number): number[] {
	const random = seededRandom(seed);
	const seeded = Array.from({ length: 5 }, () => 0.2 + 0.78 * random());
	return [0.25, 0.5, 0.9, ...seeded].map((share) => Math.floor(length * share));
}

describe('A file cut short is read to the cut, with a warning', () => {
	it.each(cases.map((entry) => [entry.name, entry] as const))(
		'%s: what it holds, the start of the whole design',
		(name, { bytes, declared }) => {
			const format = identifyFormat(bytes, name).format!;
			const whole = readPattern(bytes, format);
			expect(whole.warnings).toEqual([]);
			const wholeSteps = stepsOf(whole);
			let read = 0;
			for (const length of cutPlaces(bytes.length, 40)) {
				const cut = bytes.slice(0, length);
				expect([length, identifyFormat(cut, name).format]).toEqual([length, format]);
				let pattern;
				try {
					pattern = readPattern(cut, format);
				} catch (error) {
					// Cut before its first stitch: refused as a design with nothing to sew, and nothing else.
					expect([length, (error as Error).message]).toEqual([
						length,
						expect.stringMatching(/holds no stitches/),
					]);
					continue;
				}
				read++;
				if (countCommands(pattern, Command.Stitch) === countCommands(whole, Command.Stitch)) {
					// Cut after the end-of-design marker (in PEC's icons): every stitch is there.
					expect([length, pattern.warnings]).toEqual([length, []]);
					continue;
				}
				expect(pattern.warnings).toHaveLength(1);
				expect(pattern.warnings[0]).toMatch(/^The file ends early \(/);
				if (declared) expect(pattern.warnings[0]).toMatch(declared);
				expect([length, shareOf(wholeSteps, stepsOf(pattern), true)]).toEqual([length, 1]);
			}
			expect(read).toBeGreaterThanOrEqual(4);
		},
	);

	it('HUS and VIP cut before their y stream hold no stitches: refused as empty', () => {
		for (const name of ['Star.HUS', 'Star.VIP']) {
			const bytes = sharedSample(name);
			const yOffset = new DataView(bytes.buffer).getUint32(28, true);
			const cut = bytes.slice(0, yOffset - 10);
			expect(identifyFormat(cut, name).format).toBe(name.slice(5).toLowerCase());
			expect(() => readPattern(cut, name.slice(5).toLowerCase())).toThrow(/holds no stitches/);
		}
	});

	it('a record that cannot be a stitch is still refused, cut or not', () => {
		const shv = sharedSample('Star.SHV');
		const cut = shv.slice(0, Math.floor(shv.length * 0.6));
		// The last whole record before the cut becomes 0x80 0x07, a code SHV does not have.
		const last = cut.length - (cut.length % 2 === 0 ? 2 : 3);
		cut.set([0x80, 0x07], last);
		expect(() => readPattern(cut, 'shv')).toThrow(/unknown code 0x80 0x7/);
		const jef = sharedSample('Star.JEF');
		const cutJef = jef.slice(0, 3000);
		cutJef.set([0x80, 0x05, 0, 0], 2990);
		expect(() => readPattern(cutJef, 'jef')).toThrow(/control code 0x5/);
	});
});
