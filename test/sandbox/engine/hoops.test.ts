import {
	Command,
	Pattern,
	hoopWarning,
	identifyFormat,
	measurePattern,
	readPattern,
	writePattern,
} from '../../../sandbox/engine';
import { formatModules } from '../../../sandbox/engine/formats';

/** A digitised design: sewn to the ordered width_mm, which may be 10 mm or more. */
const resizable = { smallestWidthMm: 10 };

describe('hoop warnings for a finished design', () => {
	it('stays quiet when the design fits the hoop either way round, or the format knows no hoop', () => {
		expect(hoopWarning('pes', 130, 180, resizable)).toBeNull();
		// 170 x 120 fits the 130 x 180 mm hoop turned by 90 degrees.
		expect(hoopWarning('pes', 170, 120, resizable)).toBeNull();
		for (const format of ['dst', 'exp', 'u01'])
			expect(hoopWarning(format, 300, 900, resizable)).toBeNull();
	});

	it('names the hoop, the widest width_mm for these proportions and the formats that take the design', () => {
		// Twice as tall as wide: upright it fits 180 / 2 = 90 mm wide, turned only 130 / 2 = 65 mm.
		expect(hoopWarning('pes', 150, 300, resizable)).toBe(
			'The design is 150 x 300 mm, larger than the 130 x 180 mm hoop, the largest the PES files written ' +
				'here declare. ' +
				"Choose a width_mm of at most 90 mm for this design's proportions, or a format whose machines have " +
				'bigger hoops (VP3 takes it as it is).',
		);
		// Wide and flat: turned, the 254 mm side of Singer's hoop takes a 240 mm width.
		expect(hoopWarning('jef', 240, 100, resizable)).toMatch(
			new RegExp(
				'larger than the 200 x 200 mm hoop, the largest a JEF file names\\. ' +
					'Choose a width_mm of at most 200 mm .*\\(VP3, XXX take it as it is\\)\\.$',
			),
		);
	});

	it('says when not even the smallest width_mm fits the proportions', () => {
		// 18 times as tall as wide: 10 mm wide (180 mm tall) still fits; 20 times, only 9 mm would.
		expect(hoopWarning('pes', 10.5, 189, resizable)).toMatch(/Choose a width_mm of at most 10 mm/);
		expect(hoopWarning('pes', 20, 400, resizable)).toBe(
			'The design is 20 x 400 mm, larger than the 130 x 180 mm hoop, the largest the PES files written ' +
				'here declare. ' +
				"Even a width_mm of 10 mm is too large for this design's proportions in that hoop; crop the artwork or " +
				'choose a format whose machines have bigger hoops.',
		);
	});

	it('tells a converted design, whose size is given, to go to a format with bigger hoops', () => {
		expect(hoopWarning('jef', 250, 120, null)).toBe(
			'The design is 250 x 120 mm, larger than the 200 x 200 mm hoop, the largest a JEF file names. ' +
				'Only machines with a bigger hoop can sew it: choose a format whose machines have bigger hoops ' +
				'(VP3, XXX take it as it is).',
		);
	});

	it('warns in every output format about a design larger than any machine sews, such as 18.1 m x 2 mm', () => {
		for (const module of formatModules.filter((candidate) => candidate.write))
			expect([module.info.format, hoopWarning(module.info.format, 18_100, 2, null)]).toEqual([
				module.info.format,
				expect.stringMatching(/^The design is 18100 x 2 mm, larger than /),
			]);
		expect(hoopWarning('exp', 18_100, 2, null)).toBe(
			'The design is 18100 x 2 mm, larger than any embroidery machine sews in one hooping (even ' +
				'industrial frames stay under 1500 mm): check the source file, or split the design.',
		);
		expect(hoopWarning('u01', 1500, 1500, null)).toBeNull();
	});

	it('converts an 18.1 m x 2 mm DST to every format with a warning, each read back at that size', () => {
		// A zigzag 2 mm tall, 5 mm a step, from 9.05 m left of its start to 9.05 m right.
		const design = new Pattern();
		for (let x = -90_500, up = false; x <= 90_500; x += 50, up = !up)
			design.add(x, up ? 20 : 0, Command.Stitch);
		design.add(90_500, 0, Command.End);
		const source = readPattern(writePattern(design, 'dst').bytes, 'dst');
		const { widthMm, heightMm, stitchCount } = measurePattern(source);
		expect([widthMm, heightMm]).toEqual([18_100, 2]);
		for (const module of formatModules.filter((candidate) => candidate.write)) {
			const format = module.info.format;
			const written = writePattern(source, format).bytes;
			const identified = identifyFormat(written, `design.${module.info.extension}`).format;
			const back = measurePattern(readPattern(written, identified ?? format));
			expect([format, back.widthMm, back.heightMm, back.stitchCount]).toEqual([
				format,
				18_100,
				2,
				stitchCount,
			]);
			expect([format, hoopWarning(format, widthMm, heightMm, null)]).toEqual([
				format,
				expect.stringMatching(/^The design is 18100 x 2 mm, larger than /),
			]);
		}
	});

	it("states every writable format's hoop shorter side first, or null", () => {
		for (const module of formatModules.filter((candidate) => candidate.write)) {
			expect(
				module.largestHoop === null || module.largestHoop.widthMm <= module.largestHoop.heightMm,
			).toBe(true);
		}
	});
});
