import { closeCombs } from '../../../sandbox/digitiser/comb';
import { background } from '../../../sandbox/digitiser/regions';

// A working grid of 0.1 mm a pixel; thread drawn 0.4 mm wide, as the stitches of a design's render.
const pixelMm = 0.1;
const threadPx = 4;
const satinMaxWidthMm = 8;

/** Labels of a picture of thread lines (pixel coordinates of polylines) drawn on bare fabric. */
function drawn(width: number, height: number, lines: Array<Array<[number, number]>>): Uint8Array {
	const labels = new Uint8Array(width * height).fill(background);
	for (const line of lines) {
		for (let k = 1; k < line.length; k++) {
			const [ax, ay] = line[k - 1];
			const [bx, by] = line[k];
			const length2 = (bx - ax) ** 2 + (by - ay) ** 2;
			for (let y = 0; y < height; y++) {
				for (let x = 0; x < width; x++) {
					const px = x + 0.5;
					const py = y + 0.5;
					const t = Math.max(
						0,
						Math.min(1, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / length2),
					);
					const d = Math.hypot(px - ax - t * (bx - ax), py - ay - t * (by - ay));
					if (d <= threadPx / 2) labels[y * width + x] = 0;
				}
			}
		}
	}
	return labels;
}

/** A light satin as drawn: `widthMm` across, 30 mm long, holes `pitchMm` apart on each rail. */
function combBand(
	widthMm: number,
	pitchMm = 1,
): { labels: Uint8Array; width: number; height: number } {
	const width = 340;
	const height = Math.round(widthMm / pixelMm) + 40;
	const top = 20;
	const bottom = top + widthMm / pixelMm;
	const points: Array<[number, number]> = [];
	for (let x = 20, k = 0; x <= 320; x += pitchMm / pixelMm / 2, k++)
		points.push([x, k % 2 ? bottom : top]);
	return { labels: drawn(width, height, [points]), width, height };
}

const bareBetweenRails = (
	{ labels, width }: { labels: Uint8Array; width: number },
	top: number,
	bottom: number,
) => {
	let bare = 0;
	for (let y = top; y < bottom; y++) {
		for (let x = 60; x < 280; x++) if (labels[y * width + x] === background) bare++;
	}
	return bare;
};

describe('drawn light satins closed into their bands', () => {
	it.each([5, 6])(
		'closes the wedges of a %i mm light satin, and only between its rails',
		(widthMm) => {
			const band = combBand(widthMm);
			const outside = band.labels.filter((label) => label === background).length;
			expect(bareBetweenRails(band, 24, 16 + widthMm / pixelMm)).toBeGreaterThan(2000);
			const closed = closeCombs(band.labels, band.width, band.height, pixelMm, satinMaxWidthMm);
			// Every wedge between the rails is thread now; the fabric round the band is not.
			expect(bareBetweenRails(band, 24, 16 + widthMm / pixelMm)).toBe(0);
			expect(closed).toBeLessThan(outside / 2);
			expect(band.labels[5 * band.width + 170]).toBe(background);
			expect(band.labels[(band.height - 5) * band.width + 170]).toBe(background);
		},
	);

	it('leaves a zigzag line whose turns lie 3 mm apart as drawn', () => {
		const band = combBand(6, 3);
		expect(closeCombs(band.labels, band.width, band.height, pixelMm, satinMaxWidthMm)).toBe(0);
	});

	it('leaves lines that meet at a point as drawn (a lattice node)', () => {
		const rays: Array<Array<[number, number]>> = [];
		for (let k = 0; k < 16; k++) {
			const angle = (k * Math.PI) / 8;
			rays.push([
				[150, 150],
				[150 + 120 * Math.cos(angle), 150 + 120 * Math.sin(angle)],
			]);
		}
		const labels = drawn(300, 300, rays);
		expect(closeCombs(labels, 300, 300, pixelMm, satinMaxWidthMm)).toBe(0);
	});

	it('leaves a comb wider than a satin can span as drawn', () => {
		const band = combBand(10);
		expect(closeCombs(band.labels, band.width, band.height, pixelMm, satinMaxWidthMm)).toBe(0);
	});
});
