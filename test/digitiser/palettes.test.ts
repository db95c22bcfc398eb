import { threadPalettes } from '../../sandbox/digitiser';
import { findChart } from '../../sandbox/digitiser/palettes';

describe('thread palettes', () => {
	it.each(threadPalettes.map((palette) => [palette.key]))('%s is a usable colour card', (key) => {
		const chart = findChart(key);
		expect(chart).toBeDefined();
		const colours = chart!.colours;
		expect(colours.length).toBeGreaterThanOrEqual(40);
		for (const [, name, rgb] of colours) {
			expect(name.length).toBeGreaterThan(0);
			expect(Number.isInteger(rgb) && rgb >= 0 && rgb <= 0xffffff).toBe(true);
		}
		const numbers = colours.map(([number]) => number);
		if (key === 'generic') {
			expect(numbers.every((number) => number === '')).toBe(true);
		} else {
			expect(new Set(numbers).size).toBe(numbers.length);
			expect(numbers.every((number) => /^\d{4}$/.test(number))).toBe(true);
		}
	});

	it('names the thread maker of each brand palette', () => {
		expect(threadPalettes.map((palette) => palette.brand)).toEqual(['', 'Madeira', 'Isacord', 'Robison-Anton']);
	});
});
