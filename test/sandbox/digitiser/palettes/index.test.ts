import { threadPalettes } from '../../../../sandbox/digitiser';
import { findPalette } from '../../../../sandbox/digitiser/palettes';

describe('thread palettes', () => {
	it.each(threadPalettes.map((palette) => [palette.key]))('%s is a usable colour card', (key) => {
		const palette = findPalette(key);
		expect(palette).toBeDefined();
		const colours = palette!.chart.threads;
		expect(colours.length).toBeGreaterThanOrEqual(40);
		for (const { name, color } of colours) {
			expect(name.length).toBeGreaterThan(0);
			expect(Number.isInteger(color) && color >= 0 && color <= 0xffffff).toBe(true);
		}
		const numbers = colours.map(({ catalogNumber }) => catalogNumber);
		if (key === 'generic') {
			expect(numbers.every((number) => number === '')).toBe(true);
		} else {
			expect(new Set(numbers).size).toBe(numbers.length);
			expect(numbers.every((number) => /^\d{4}$/.test(number))).toBe(true);
		}
	});

	it('names the thread maker of each brand palette', () => {
		expect(threadPalettes.map((palette) => palette.brand)).toEqual([
			'',
			'Madeira',
			'Isacord',
			'Robison-Anton',
		]);
	});
});
