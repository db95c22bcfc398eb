import type { FineRaster } from '../../../sandbox/digitiser/artwork';
import { FineLabels } from '../../../sandbox/digitiser/fine';
import { background } from '../../../sandbox/digitiser/regions';

const red = [230, 0, 0, 255];
const white = [255, 255, 255, 255];
const clear = [255, 255, 255, 0];
const blue = [0, 100, 200, 255];

function pixels(...colours: number[][]): Uint8Array {
	return Uint8Array.from(colours.flat());
}

describe('a flat artwork read at its own pixels', () => {
	// A source 6 x 2 pixels whose design is its middle 4 x 2, on a working grid of 2 x 1 (each
	// working pixel spans 2 x 2 source pixels). Row 0: clear | red white red blue | clear; row 1:
	// clear | white white red red | clear.
	const source = pixels(clear, red, white, red, blue, clear, clear, white, white, red, red, clear);
	const raster: FineRaster = {
		rgba: source,
		stride: 6,
		x0: 1,
		y0: 0,
		width: 4,
		height: 2,
		scaleX: 2,
		scaleY: 2,
	};

	it('gives each exact colour the thread its working pixels were given', () => {
		// The working grid sampled red (thread 0) and white (thread 1); blue was never sampled.
		const fine = FineLabels.fromGrid(raster, pixels(red, white), Uint8Array.from([0, 1]));
		// Working pixel 0 spans source columns 1-2, working pixel 1 columns 3-4, each a quarter.
		expect(fine.at(0.25, 0.25)).toBe(0);
		expect(fine.at(0.75, 0.25)).toBe(1);
		expect(fine.at(1.25, 0.25)).toBe(0);
		expect(fine.at(0.25, 0.75)).toBe(1);
		expect(fine.at(1.75, 0.75)).toBe(0);
		// A colour the grid never sampled, and places outside the design, are no thread's.
		expect(fine.at(1.75, 0.25)).toBe(background);
		expect(fine.at(-0.1, 0.25)).toBe(background);
		expect(fine.at(2.1, 0.25)).toBe(background);
	});

	it('keeps opaque white apart from transparent pixels', () => {
		// White is thread 1 on the grid; the transparent backdrop, whose RGB is white too, is not.
		const outside: FineRaster = { ...raster, x0: 0, width: 6, scaleX: 3 };
		const fine = FineLabels.fromGrid(
			outside,
			pixels(clear, white),
			Uint8Array.from([background, 1]),
		);
		expect(fine.at(0.1, 0.25)).toBe(background);
		expect(fine.at(0.8, 0.25)).toBe(1);
	});

	it("takes the thread most of a colour's working pixels were given", () => {
		// Cleanup gave one red working pixel to white's thread; red's majority is thread 0.
		const fine = FineLabels.fromGrid(
			raster,
			pixels(red, red, red, white),
			Uint8Array.from([0, 1, 0, 1]),
		);
		expect(fine.at(0.25, 0.25)).toBe(0);
	});
});
