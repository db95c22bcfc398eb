import { deltaE2000, rgbToLab } from '../../../../sandbox/engine/threads/colourDistance';

describe('colour distance', () => {
	it('converts sRGB to CIE Lab (D65)', () => {
		const close = (lab: readonly number[], expected: number[]) =>
			lab.forEach((value, i) => expect(value).toBeCloseTo(expected[i], 1));
		close(rgbToLab(0xffffff), [100, 0, 0]);
		close(rgbToLab(0x000000), [0, 0, 0]);
		close(rgbToLab(0xff0000), [53.24, 80.09, 67.2]);
		close(rgbToLab(0x0000ff), [32.3, 79.19, -107.86]);
	});

	it("matches Sharma, Wu and Dalal's published CIEDE2000 test pairs", () => {
		const pairs: [number[], number[], number][] = [
			[[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
			[[50, 3.1571, -77.2803], [50, 0, -82.7485], 2.8615],
			[[50, 2.8361, -74.02], [50, 0, -82.7485], 3.4412],
			[[50, 0, 0], [50, -1, 2], 2.3669],
			[[50, 2.5, 0], [73, 25, -18], 27.1492],
			[[50, 2.5, 0], [61, -5, 29], 22.8977],
			[[50, 2.5, 0], [56, -27, -3], 31.903],
			[[50, 2.5, 0], [58, 24, 15], 19.4535],
			[[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
		];
		for (const [first, second, expected] of pairs) {
			expect(
				deltaE2000(first as [number, number, number], second as [number, number, number]),
			).toBeCloseTo(expected, 3);
			expect(
				deltaE2000(second as [number, number, number], first as [number, number, number]),
			).toBeCloseTo(expected, 3);
		}
	});
});
