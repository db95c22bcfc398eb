import { traceContours, walkLoop } from '../../../sandbox/digitiser/contour';
import { findRegions } from '../../../sandbox/digitiser/regions';

/** A 40x40 label image: label 1 inside a square ring from 5 to 34, hole from 15 to 24, background 255 elsewhere. */
function ring(): ReturnType<typeof findRegions> {
	const size = 40;
	const labels = new Uint8Array(size * size).fill(255);
	for (let y = 5; y < 35; y++) {
		for (let x = 5; x < 35; x++) {
			const inHole = x >= 15 && x < 25 && y >= 15 && y < 25;
			if (!inHole) labels[y * size + x] = 1;
		}
	}
	return findRegions(labels, size, size);
}

function perimeter(loop: Array<[number, number]>): number {
	let length = 0;
	for (let k = 0; k < loop.length; k++) {
		const [ax, ay] = loop[k];
		const [bx, by] = loop[(k + 1) % loop.length];
		length += Math.hypot(bx - ax, by - ay);
	}
	return length;
}

describe('contour tracing', () => {
	it('finds the outer edge and the hole of a ring', () => {
		const map = ring();
		const id = map.ids[5 * 40 + 5];
		const loops = traceContours(map, id, 0);
		expect(loops).toHaveLength(2);
		const lengths = loops.map(perimeter).sort((a, b) => a - b);
		// Outlines run through pixel edges' midpoints: 4 x 10 around the hole, 4 x 30 outside, less the cut corners.
		expect(lengths[0]).toBeGreaterThan(36);
		expect(lengths[0]).toBeLessThanOrEqual(42);
		expect(lengths[1]).toBeGreaterThan(116);
		expect(lengths[1]).toBeLessThanOrEqual(120);
	});

	it('traces an inset outline inside the shape only', () => {
		const map = ring();
		const id = map.ids[5 * 40 + 5];
		for (const loop of traceContours(map, id, 3)) {
			for (const [x, y] of loop) expect(map.ids[Math.floor(y) * 40 + Math.floor(x)]).toBe(id);
		}
	});

	it('walks a loop in even steps and closes it', () => {
		const square: Array<[number, number]> = [
			[0, 0],
			[10, 0],
			[10, 10],
			[0, 10],
		];
		const walk = walkLoop(square, 0, 2.5);
		expect(walk[0]).toEqual([0, 0]);
		expect(walk[walk.length - 1]).toEqual([0, 0]);
		expect(walk).toHaveLength(17);
		for (let k = 1; k < walk.length; k++) {
			expect(
				Math.hypot(walk[k][0] - walk[k - 1][0], walk[k][1] - walk[k - 1][1]),
			).toBeLessThanOrEqual(2.5 + 1e-9);
		}
	});

	it("measures each step as the thread runs, straight across a pixel outline's stairs", () => {
		// A diamond traced on pixels: unit stairs, so 4 px along the outline is only 2.8 px straight.
		const stairs: Array<[number, number]> = [];
		for (let k = 0; k < 20; k++) stairs.push([k, -k], [k + 1, -k]);
		for (let k = 0; k < 20; k++) stairs.push([20 - k, -20 + k], [20 - k, -19 + k]);
		for (let k = 0; k < 20; k++) stairs.push([-k, k], [-k - 1, k]);
		for (let k = 0; k < 20; k++) stairs.push([-20 + k, 20 - k], [-20 + k, 19 - k]);
		const walk = walkLoop(stairs, 0, 4);
		const lengths = walk.slice(1).map(([x, y], k) => Math.hypot(x - walk[k][0], y - walk[k][1]));
		for (const length of lengths.slice(0, -1)) expect(length).toBeCloseTo(4, 6);
		expect(lengths[lengths.length - 1]).toBeGreaterThanOrEqual(2);
		expect(lengths[lengths.length - 1]).toBeLessThanOrEqual(6);
	});

	it('ends a stitch at a bend a straight stitch would cut across', () => {
		// A 10 px square walked in 25 px steps: straight from hole to hole the walk would cut across it
		// and sew nothing of its outline; each corner bends away by more than 1 px, so each is a hole.
		const square: Array<[number, number]> = [
			[0, 0],
			[10, 0],
			[10, 10],
			[0, 10],
		];
		expect(walkLoop(square, 0, 25, 1)).toEqual([...square, [0, 0]]);
		expect(walkLoop(square, 0, 25).length).toBeLessThanOrEqual(2);
	});
});
