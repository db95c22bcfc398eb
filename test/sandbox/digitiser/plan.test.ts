import { Command } from '../../../sandbox/engine/pattern';
import { segmentsByBlock, trimsInsideBlocks, sew, shapePng } from './support/shapes';

/**
 * Three blue squares in a row (at 50 mm, 1/6 mm a pixel: 8.3 mm squares). The first and third are
 * joined by a red bar beneath them, sewn after the blue, so a travel run under the bar connects
 * them; the middle one stands 3.3 mm apart on bare fabric, nearer to the first than the third is.
 */
const pieces =
	'<rect x="10" y="10" width="50" height="50" fill="#0064c8"/>' +
	'<rect x="80" y="10" width="30" height="30" fill="#0064c8"/>' +
	'<rect x="200" y="10" width="50" height="50" fill="#0064c8"/>' +
	'<rect x="30" y="60" width="200" height="20" fill="#e60000"/>';

describe('the order of the pieces of one colour', () => {
	it('sews the pieces a hidden run reaches before jumping away: one trim, for the piece apart', async () => {
		// Nearest first would go to the middle square (a trim) and from there to the third (another).
		const pattern = await sew(await shapePng(pieces, 300, 100), 50, 2);
		expect(pattern.threads[0].name).toBe('Blue');
		expect(trimsInsideBlocks(pattern)[0]).toBe(1);
	});

	it('chains pieces joined under a later colour with no trim at all', async () => {
		const chained = pieces + '<rect x="90" y="40" width="10" height="20" fill="#e60000"/>';
		const pattern = await sew(await shapePng(chained, 300, 100), 50, 2);
		expect(pattern.threads[0].name).toBe('Blue');
		expect(trimsInsideBlocks(pattern)[0]).toBe(0);
	});

	it('crosses a line sewn before it in one short hop, with no hole in it and no run along it', async () => {
		// A 0.4 mm red line cut in two by a 0.6 mm green one (sewn first: broader), which spans -0.3 to
		// +0.3 mm. No hidden way leads from one red half to the other: red crosses in one straight
		// stitch over the green, as an untrimmed jump would float, and never sews into or along it. A
		// professional would sew the red first and the green over it; the order by breadth does not
		// yet ask which of two colours the artwork shows on top.
		const crossed = await shapePng(
			'<rect x="50" y="60" width="200" height="2" fill="#e60000"/>' +
				'<rect x="148.5" y="20" width="3" height="80" fill="#00963c"/>',
			300,
			120,
		);
		const pattern = await sew(crossed, 40, 2);
		expect(pattern.threads.map((thread) => thread.name)).toEqual(['Green', 'Red']);
		const red = segmentsByBlock(pattern)[1];
		const across = red.filter((s) => Math.min(s.ax, s.bx) <= -0.3 && Math.max(s.ax, s.bx) >= 0.3);
		expect(across).toHaveLength(1);
		expect(across[0].length).toBeLessThanOrEqual(1);
		const holesInGreen = red.filter((s) => Math.abs(s.ax) < 0.3 || Math.abs(s.bx) < 0.3);
		expect(holesInGreen).toEqual([]);
	});

	it('writes no trim where a colour change or the end cuts the thread, and ties off there', async () => {
		// Two colours, one piece each: nothing to trim between pieces; the colour change and the
		// design's end cut the thread on the machine, as in a professional's file.
		const pattern = await sew(
			await shapePng(
				'<rect x="10" y="10" width="80" height="80" fill="#0064c8"/>' +
					'<rect x="95" y="10" width="80" height="80" fill="#e60000"/>',
				190,
				100,
			),
			50,
			2,
		);
		const commands = [...pattern.commands.subarray(0, pattern.length)];
		expect(commands.filter((command) => command === Command.Trim)).toEqual([]);
		const change = commands.indexOf(Command.ColorChange);
		expect(change).toBeGreaterThan(0);
		// The tie-off: the two stitches before the change go back along the last stitch and return.
		const at = (i: number) => [pattern.xs[i], pattern.ys[i]];
		expect(at(change - 1)).toEqual(at(change - 3));
		expect(commands.slice(change - 3, change)).toEqual([
			Command.Stitch,
			Command.Stitch,
			Command.Stitch,
		]);
	});
});
