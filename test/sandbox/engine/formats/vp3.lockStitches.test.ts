/**
 * Lock stitches survive every conversion (issue 40): a real VP3 lost the short tie-in stitches that hold
 * each run. Star.DST's star with seeded lock stitches at the start and end of every run goes through VP3,
 * as this engine writes it and as a writer that does not close a long move with 80 02 writes it, then to
 * every writable format and back: every needle point must be where it was.
 */
import { listFormats, readPattern, writePattern } from '../../../../sandbox/engine';
import { vp3Format } from '../../../../sandbox/engine/formats/vp3';
import { Command, Pattern } from '../../../../sandbox/engine/pattern';
import { needlePath, pointsMatched, type NeedlePoint } from '../support/needlePath';
import { patternEvents } from '../support/referenceDecoding';
import { seededRandom, sharedSample } from '../support/starSamples';
import { fixBlockLengths } from '../support/vp3Blocks';

/** Four stitches 0.1 to 0.4 mm out and back from where the needle is, in a seeded direction. */
function addLock(pattern: Pattern, x: number, y: number, random: () => number): void {
	const directions = [
		[1, 0],
		[0, 1],
		[-1, 0],
		[0, -1],
		[1, 1],
		[-1, 1],
	];
	const [dx, dy] = directions[Math.floor(random() * directions.length)];
	const length = 1 + Math.floor(random() * 4);
	for (let i = 0; i < 2; i++) {
		pattern.add(x + dx * length, y + dy * length, Command.Stitch);
		pattern.add(x, y, Command.Stitch);
	}
}

/**
 * Star.DST's design with a lock after the first stitch and before the last of every run and every 100
 * stitches (as a design of many short runs has them), and a last locked run after a 40 mm move.
 */
function lockStitchedStar(): Pattern {
	const star = readPattern(sharedSample('Star.DST'), 'dst');
	const random = seededRandom(40);
	const out = new Pattern();
	let sewing = false;
	let stitches = 0;
	let [lastX, lastY] = [0, 0];
	for (let i = 0; i < star.length; i++) {
		const [x, y, command] = [star.xs[i], star.ys[i], star.commands[i] as Command];
		if (command === Command.End) break;
		if (command !== Command.Stitch && sewing) addLock(out, lastX, lastY, random);
		out.add(x, y, command);
		if (command === Command.Stitch) {
			if (!sewing || ++stitches % 100 === 0) addLock(out, x, y, random);
			[lastX, lastY] = [x, y];
		}
		sewing = command === Command.Stitch;
	}
	if (sewing) addLock(out, lastX, lastY, random);
	out.add(lastX, lastY, Command.Trim);
	out.add(lastX + 400, lastY, Command.Jump);
	// The run starts with its lock: the first stitch after the move is a short one away from where it lands.
	addLock(out, lastX + 400, lastY, random);
	out.add(lastX + 430, lastY + 20, Command.Stitch);
	out.add(lastX + 430, lastY + 20, Command.End);
	out.threads = star.threads;
	return out;
}

/** Where the needle goes, without the moves between. */
const points = (pattern: Pattern): NeedlePoint[] => needlePath(patternEvents(pattern));

describe('lock stitches through VP3 and every writable format', () => {
	const design = lockStitchedStar();
	const expected = points(design);
	const vp3 = vp3Format.write!(design).bytes;

	it('VP3 keeps every lock stitch, also without the 80 02 after a long move', () => {
		// About 25 locks of four stitches each on the star's 2,557 entries.
		expect(expected.length).toBeGreaterThan(2600);
		expect(pointsMatched(expected, points(vp3Format.read!(vp3)), 0)).toBe(expected.length);
		// The last long move (the 40 mm one before the last run) as a writer that goes straight on writes it.
		let at = -1;
		for (let i = 0; i + 8 <= vp3.length; i++)
			if (vp3[i] === 0x80 && vp3[i + 1] === 0x01 && vp3[i + 6] === 0x80 && vp3[i + 7] === 0x02)
				at = i;
		expect(at).toBeGreaterThan(0);
		const unclosed = fixBlockLengths(
			new Uint8Array([...vp3.subarray(0, at + 6), ...vp3.subarray(at + 8)]),
			vp3,
		);
		expect(pointsMatched(expected, points(vp3Format.read!(unclosed)), 0)).toBe(expected.length);
	});

	it.each(listFormats().filter((format) => format.writable))(
		'$label keeps every needle point of the VP3',
		({ format }) => {
			const fromVp3 = vp3Format.read!(vp3);
			const back = readPattern(writePattern(fromVp3, format).bytes, format);
			const kept = pointsMatched(expected, points(back), 0);
			expect(`${kept} of ${expected.length}`).toBe(`${expected.length} of ${expected.length}`);
		},
	);
});
