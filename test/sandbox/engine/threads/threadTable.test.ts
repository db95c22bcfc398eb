import { jefThreadChart } from '../../../../sandbox/engine/threads/jefThreads';
import { pecThreadChart } from '../../../../sandbox/engine/threads/pecThreads';

describe('thread charts', () => {
	it("holds Brother's 64 PEC colours under codes 1-64", () => {
		expect(pecThreadChart.threads.map((thread) => thread.code)).toEqual(
			Array.from({ length: 64 }, (_, i) => i + 1),
		);
		expect(pecThreadChart.find(5)).toEqual({
			code: 5,
			color: 0xed171f,
			name: 'Red',
			catalogNumber: '5',
		});
		expect(pecThreadChart.find(29)?.name).toBe('White');
		expect(pecThreadChart.toThread(pecThreadChart.find(20)!)).toEqual({
			color: 0x000000,
			name: 'Black',
			catalogNumber: '20',
			brand: 'Brother',
		});
	});

	it("holds Janome's 78 JEF colours under codes 1-78 with Janome catalogue numbers", () => {
		expect(jefThreadChart.threads.map((thread) => thread.code)).toEqual(
			Array.from({ length: 78 }, (_, i) => i + 1),
		);
		expect(jefThreadChart.find(33)).toEqual({
			code: 33,
			color: 0xe3311f,
			name: 'Burnt Orange',
			catalogNumber: '235',
		});
		expect(jefThreadChart.find(51)?.name).toBe('Ivory White');
		expect(new Set(jefThreadChart.threads.map((thread) => thread.catalogNumber)).size).toBe(78);
	});

	it('finds an exact chart colour, the perceptually nearest one otherwise, and skips excluded codes', () => {
		expect(pecThreadChart.nearest(0xed171f).code).toBe(5);
		expect(pecThreadChart.nearest(0xf0f0f0).code).toBe(29);
		expect(pecThreadChart.nearest(0x050505).name).toBe('Black');
		expect(jefThreadChart.nearest(0xfe0000).name).toBe('Red');
		const second = pecThreadChart.nearest(0xed171f, new Set([5]));
		expect(second.code).not.toBe(5);
		expect(second.name).toMatch(/Red|Carmine|Vermilion/);
	});

	it('prefers the perceptually closer thread where plain RGB distance disagrees', () => {
		// Plain RGB distance would pick Dark Gray, Silver and Pewter for these three tinted colours.
		expect(pecThreadChart.nearest(0x1a1a40).name).toBe('Prussian Blue');
		expect(pecThreadChart.nearest(0xa0a0c0).name).toBe('Lavender');
		expect(pecThreadChart.nearest(0x406080).name).toBe('Electric Blue');
	});
});
