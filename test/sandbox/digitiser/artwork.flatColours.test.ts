import { digitise } from '../../../sandbox/digitiser';
import { shapePng } from './support/shapes';

describe('flat artwork colours', () => {
	it('come back exactly as threads, with no warning of merged colours', async () => {
		// Drawn without anti-aliasing, as the benchmark's artworks are: red and black stripes 3 px
		// each (0.3 mm at this width: the working grid of 0.15 mm must not blend them into a dark
		// red), a blue disc and a yellow bar.
		const stripes = Array.from(
			{ length: 50 },
			(_, k) =>
				`<rect x="20" y="${20 + 6 * k}" width="300" height="3" fill="#e60000"/>` +
				`<rect x="20" y="${23 + 6 * k}" width="300" height="3" fill="#000000"/>`,
		).join('');
		const png = await shapePng(
			`<g shape-rendering="crispEdges">${stripes}<circle cx="460" cy="120" r="100" fill="#0064c8"/>` +
				'<rect x="360" y="260" width="220" height="40" fill="#ffe600"/></g>',
			600,
			340,
		);
		const { pattern, warnings } = await digitise(png, { widthMm: 56, colourCount: 4 });
		const colours = pattern.threads.map((thread) => thread.color).sort((a, b) => a - b);
		expect(colours).toEqual([0x000000, 0x0064c8, 0xe60000, 0xffe600]);
		expect(warnings.filter((warning) => /merged|changed colour/.test(warning))).toEqual([]);
	});

	it('keep a small colour of their own when it covers an area worth sewing', async () => {
		// A turquoise dot 2 mm across (3 mm², a quarter of a percent of the design) beside a red
		// square and a blue disc: in flat artwork an exact colour drawn that large is one of the
		// design's colours, not a passing shade to fold into its neighbours.
		const png = await shapePng(
			'<g shape-rendering="crispEdges"><rect x="20" y="20" width="300" height="300" fill="#e60000"/>' +
				'<circle cx="460" cy="170" r="100" fill="#0064c8"/>' +
				'<circle cx="460" cy="310" r="10" fill="#00b4b4"/></g>',
			600,
			340,
		);
		const { pattern } = await digitise(png, { widthMm: 56, colourCount: 3 });
		const colours = pattern.threads.map((thread) => thread.color).sort((a, b) => a - b);
		expect(colours).toEqual([0x0064c8, 0x00b4b4, 0xe60000]);
	});
});
