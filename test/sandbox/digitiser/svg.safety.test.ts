import { createServer, type Server } from 'node:http';

import sharp from 'sharp';

import { digitise, DigitiseError } from '../../../sandbox/digitiser';
import { measurePattern } from '../../../sandbox/engine';
import { listenOnLoopback } from '../../support/loopback';

/**
 * SVG artwork can never make the sandbox read a local file or open a connection: every
 * reference that leaves the document is refused before librsvg sees the file, and what is
 * accepted is re-serialised without DOCTYPE, entities or processing instructions.
 */

const svgNs = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"';
const shape = '<rect x="10" y="10" width="180" height="80" fill="#1f4e79"/>';

let server: Server;
let origin: string;
let closeServer: () => Promise<void>;
const hits: string[] = [];

beforeAll(async () => {
	server = createServer((request, response) => {
		hits.push(request.url ?? '');
		response.writeHead(200, { 'content-type': 'image/svg+xml' });
		response.end(
			`<svg ${svgNs} width="10" height="10"><rect width="10" height="10" fill="#f00"/></svg>`,
		);
	});
	({ origin, close: closeServer } = await listenOnLoopback(server));
});

afterAll(async () => {
	await closeServer();
});

async function refusal(svg: string): Promise<DigitiseError> {
	try {
		await digitise(Buffer.from(svg), { widthMm: 50, colourCount: 3 });
	} catch (error) {
		if (error instanceof DigitiseError) return error;
		throw error;
	}
	throw new Error('the SVG was digitised');
}

describe('SVG artwork that reaches outside itself is refused before it is drawn', () => {
	const attempts: Array<[string, (origin: string) => string, RegExp]> = [
		[
			'an image of a local file',
			() =>
				`<svg ${svgNs} width="200" height="100">${shape}<image href="file:///etc/passwd" ` +
				`width="50" height="50"/></svg>`,
			/file:\/\/\/etc\/passwd/,
		],
		[
			'an xlink:href image of a relative file',
			() =>
				`<svg ${svgNs} width="200" height="100">${shape}<image xlink:href="../../etc/hosts" ` +
				`width="50" height="50"/></svg>`,
			/outside the SVG/,
		],
		[
			'an image on a web server',
			(at) =>
				`<svg ${svgNs} width="200" height="100">${shape}<image href="${at}/logo.png" width="50" height="50"/></svg>`,
			/outside the SVG/,
		],
		[
			'a <use> of another document',
			(at) =>
				`<svg ${svgNs} width="200" height="100">${shape}<use href="${at}/sprites.svg#star"/></svg>`,
			/outside the SVG/,
		],
		[
			'a paint server in another document',
			(at) =>
				`<svg ${svgNs} width="200" height="100"><rect width="200" height="100" fill="url(${at}/paint.svg#g)"/></svg>`,
			/url\(\)/,
		],
		[
			'a filter image on a web server',
			(at) =>
				`<svg ${svgNs} width="200" height="100"><filter id="f"><feImage href="${at}/f.png"/></filter>${shape}</svg>`,
			/outside the SVG/,
		],
		[
			'a style sheet import',
			(at) =>
				`<svg ${svgNs} width="200" height="100"><style>@import url(${at}/a.css);</style>${shape}</svg>`,
			/@import/,
		],
		[
			'a CSS url() in a style attribute',
			(at) =>
				`<svg ${svgNs} width="200" height="100"><rect width="200" height="100" style="fill: ` +
				`url('${at}/p.svg#p')"/></svg>`,
			/url\(\)/,
		],
		[
			'a CSS escape spelling url(',
			(at) =>
				`<svg ${svgNs} width="200" height="100"><style>rect { fill: u\\72l(${at}/p.svg#p) }</style>${shape}</svg>`,
			/CSS escapes/,
		],
		[
			'an xml-stylesheet instruction',
			(at) =>
				`<?xml-stylesheet type="text/css" href="${at}/s.css"?><svg ${svgNs} width="200" height="100">${shape}</svg>`,
			/xml-stylesheet/,
		],
		[
			'an XInclude of a local file',
			() =>
				`<svg ${svgNs} xmlns:xi="http://www.w3.org/2001/XInclude" width="200" ` +
				`height="100">${shape}<text><xi:include href="/etc/passwd" parse="text"/></text></svg>`,
			/includes another file/,
		],
		[
			'an external entity (XXE) of a local file',
			() =>
				`<!DOCTYPE svg [<!ENTITY secret SYSTEM "file:///etc/passwd">]><svg ${svgNs} ` +
				`width="200" height="100">${shape}<text y="50">&secret;</text></svg>`,
			/external entity/,
		],
		[
			'an external entity on a web server',
			(at) =>
				`<!DOCTYPE svg [<!ENTITY remote SYSTEM "${at}/entity">]><svg ${svgNs} width="200" ` +
				`height="100">${shape}<text y="50">&remote;</text></svg>`,
			/external entity/,
		],
		[
			'a parameter entity',
			(at) =>
				`<!DOCTYPE svg [<!ENTITY % dtd SYSTEM "${at}/evil.dtd"> %dtd;]><svg ${svgNs} ` +
				`width="200" height="100">${shape}</svg>`,
			/external entity|parameter entities/,
		],
		[
			'a file name hidden in an entity',
			() =>
				`<!DOCTYPE svg [<!ENTITY f "file:///etc/passwd">]><svg ${svgNs} width="200" ` +
				`height="100">${shape}<image href="&f;" width="9" height="9"/></svg>`,
			/file:\/\/\/etc\/passwd/,
		],
		[
			'a file name hidden in character references',
			() =>
				`<svg ${svgNs} width="200" height="100">${shape}<image ` +
				`href="&#102;&#x69;le:///etc/passwd" width="9" height="9"/></svg>`,
			/file:\/\/\/etc\/passwd/,
		],
		[
			'an embedded SVG image (which could reach out in turn)',
			(at) =>
				`<svg ${svgNs} width="200" height="100">${shape}<image ` +
				`href="data:image/svg+xml;base64,` +
				`${Buffer.from(`<svg ${svgNs}><image href="${at}/x.png"/></svg>`).toString('base64')}"` +
				` width="9" height="9"/></svg>`,
			/not PNG, JPEG, GIF or WebP/,
		],
	];

	it.each(attempts)('refuses %s, and nothing is fetched', async (_, build, reason) => {
		const error = await refusal(build(origin));
		expect(error.code).toBe('unreadable_artwork');
		expect(error.message).toMatch(/^The SVG artwork was refused: /);
		expect(error.message).toMatch(reason);
		expect(hits).toEqual([]);
	});
});

describe('SVG that would make the renderer loop or explode is refused', () => {
	it('refuses entity expansion ("billion laughs") at once', async () => {
		const levels = ['<!ENTITY lol0 "lol">'];
		for (let i = 1; i <= 9; i++) levels.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
		// Measured in this process's CPU time, not the wall's: a busy machine delays the refusal, it does not add work.
		const started = process.cpuUsage();
		const error = await refusal(
			`<?xml version="1.0"?><!DOCTYPE svg [${levels.join('')}]><svg ${svgNs} width="200" ` +
				`height="100">${shape}<text y="50">&lol9;</text></svg>`,
		);
		expect(error.message).toMatch(/billion laughs/);
		const { user, system } = process.cpuUsage(started);
		expect((user + system) / 1000).toBeLessThan(2000);
	});

	it('refuses many references to one large entity', async () => {
		const big = 'x'.repeat(4000);
		const error = await refusal(
			`<!DOCTYPE svg [<!ENTITY big "${big}">]><svg ${svgNs} width="200" ` +
				`height="100">${shape}<text y="50">${'&big;'.repeat(1100)}</text></svg>`,
		);
		expect(error.message).toMatch(/expand to more than 4 million characters/);
	});

	it('refuses a <use> that refers to itself through another', async () => {
		const error = await refusal(
			`<svg ${svgNs} width="200" height="100"><defs><g id="a"><use href="#b"/></g><g ` +
				`id="b"><use xlink:href="#a"/></g></defs>${shape}<use href="#a"/></svg>`,
		);
		expect(error.message).toMatch(/refers back to itself.*endless loop/);
	});

	it('refuses a <use> inside the group it copies', async () => {
		const error = await refusal(
			`<svg ${svgNs} width="200" height="100"><g id="g">${shape}<use href="#g" x="5"/></g></svg>`,
		);
		expect(error.message).toMatch(/endless loop/);
	});

	it('refuses <use> fan-out that multiplies into millions of drawn elements', async () => {
		const defs = ['<g id="u0"><rect width="1" height="1" fill="#000"/></g>'];
		for (let i = 1; i <= 8; i++)
			defs.push(`<g id="u${i}">${`<use href="#u${i - 1}"/>`.repeat(10)}</g>`);
		const error = await refusal(
			`<svg ${svgNs} width="200" height="100"><defs>${defs.join('')}</defs>${shape}<use href="#u8"/></svg>`,
		);
		expect(error.message).toMatch(/multiply into more than 200000 drawn elements/);
	});

	it('refuses elements nested deeper than an XML parser allows', async () => {
		const error = await refusal(
			`<svg ${svgNs} width="200" height="100">${'<g>'.repeat(300)}${shape}${'</g>'.repeat(300)}</svg>`,
		);
		expect(error.message).toMatch(/nests elements more than 256 deep/);
	});
});

describe('SVG filters whose drawing time does not grow with the file are bounded before drawing', () => {
	const filtered = (filter: string, drawn = shape.replace('/>', ' filter="url(#f)"/>')) =>
		`<svg ${svgNs} width="200" height="100"><filter id="f">${filter}</filter>${drawn}</svg>`;

	it('refuses 40 chained feMorphology filters of radius 300 (2.9 KB that held an engine 120 s)', async () => {
		const svg = filtered('<feMorphology operator="dilate" radius="300"/>'.repeat(40));
		expect(svg.length).toBeLessThan(3000);
		const error = await refusal(svg);
		expect(error.code).toBe('unreadable_artwork');
		expect(error.message).toMatch(/SVG filter <feMorphology>.*drawing time has no bound/);
	});

	it('refuses a convolution kernel and a turbulence of a hundred octaves', async () => {
		const kernel = await refusal(
			filtered('<feConvolveMatrix order="3" kernelMatrix="1 1 1 1 1 1 1 1 1"/>'),
		);
		expect(kernel.message).toMatch(/<feConvolveMatrix>/);
		const noise = await refusal(filtered('<feTurbulence baseFrequency="0.1" numOctaves="100"/>'));
		expect(noise.message).toMatch(/asks for 100 octaves; at most 8/);
	});

	it('refuses a chain of blurs past the budget of 8 passes', async () => {
		const error = await refusal(filtered('<feGaussianBlur stdDeviation="2"/>'.repeat(12)));
		expect(error.message).toMatch(/filter effects would take at least 12 passes.*at most 8/);
	});

	it('counts a filtered element each time a <use> draws it', async () => {
		const shadow =
			'<feGaussianBlur stdDeviation="2"/><feOffset dx="2" dy="2"/><feMerge><feMergeNode/>' +
			'<feMergeNode in="SourceGraphic"/></feMerge>';
		const copies = '<use href="#s" x="1"/>'.repeat(10);
		const error = await refusal(
			filtered(
				shadow,
				`<rect id="s" width="10" height="10" fill="#1f4e79" filter="url(#f)"/>${copies}`,
			),
		);
		expect(error.message).toMatch(/filter effects would take at least/);
	});

	it('refuses a style sheet rule that filters every matching element', async () => {
		const error = await refusal(
			`<svg ${svgNs} width="200" height="100"><style>rect { filter: url(#f) }</style><filter ` +
				`id="f"><feGaussianBlur stdDeviation="2"/></filter>${shape}</svg>`,
		);
		expect(error.message).toMatch(/style sheet applies a filter/);
	});

	it('counts a filter once for each element that uses it, not again where it is defined', async () => {
		const svg = filtered('<feGaussianBlur stdDeviation="1"/>'.repeat(8));
		const { pattern } = await digitise(Buffer.from(svg), { widthMm: 50, colourCount: 3 });
		expect(measurePattern(pattern).stitchCount).toBeGreaterThan(100);
	});

	it('still draws a drop shadow on one shape', async () => {
		const svg = filtered(
			'<feGaussianBlur in="SourceAlpha" stdDeviation="2"/><feOffset dx="3" dy="3"/><feMerge>' +
				'<feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge>',
		);
		const { pattern } = await digitise(Buffer.from(svg), { widthMm: 50, colourCount: 3 });
		expect(measurePattern(pattern).stitchCount).toBeGreaterThan(100);
	});
});

describe('ordinary SVG still digitises', () => {
	it('accepts a DOCTYPE naming an external DTD without fetching it', async () => {
		const svg =
			`<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" ` +
			`"${origin}/svg11.dtd">\n<!-- made by hand -->\n<svg ${svgNs} width="200" height="100">${shape}</svg>`;
		const { pattern } = await digitise(Buffer.from(svg), { widthMm: 50, colourCount: 2 });
		expect(measurePattern(pattern).widthMm).toBe(50);
		expect(hits).toEqual([]);
	});

	it("expands an illustrator-style DOCTYPE's plain entities", async () => {
		const svg =
			`<!DOCTYPE svg [<!ENTITY ns_svg "http://www.w3.org/2000/svg"><!ENTITY colour ` +
			`"#1f4e79">]><svg xmlns="&ns_svg;" width="200" height="100"><rect x="10" y="10" ` +
			`width="180" height="80" fill="&colour;"/></svg>`;
		const { pattern } = await digitise(Buffer.from(svg), { widthMm: 50, colourCount: 2 });
		expect(measurePattern(pattern).stitchCount).toBeGreaterThan(100);
	});

	it('draws embedded PNG images, in-document <use> and url(#gradient) references', async () => {
		const red = await sharp({
			create: { width: 40, height: 40, channels: 3, background: '#c00000' },
		})
			.png()
			.toBuffer();
		const svg =
			`<svg ${svgNs} width="200" height="100"><defs><linearGradient id="g"><stop offset="0" ` +
			`stop-color="#1f4e79"/><stop offset="1" stop-color="#1f4e79"/></linearGradient>
<rect id="r" width="60" height="60" fill="url(#g)"/></defs><use href="#r" x="10" ` +
			`y="20"/><image href="data:image/png;base64,${red.toString('base64')}" x="120" y="30" ` +
			`width="40" height="40"/><a href="https://example.com/"><circle cx="100" cy="50" r="5" ` +
			`fill="#1f4e79"/></a></svg>`;
		const { pattern } = await digitise(Buffer.from(svg), { widthMm: 60, colourCount: 3 });
		expect(pattern.threads.map((thread) => thread.name).sort()).toEqual(['Dark Red', 'Royal Blue']);
		expect(measurePattern(pattern).widthMm).toBe(60);
	});
});
