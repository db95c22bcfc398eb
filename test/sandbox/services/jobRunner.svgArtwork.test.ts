/**
 * SVG artwork sent for digitising over HTTP that would decode without end, reach a file or a server outside
 * itself, or expand past its ceilings: each job fails with a reason, and nothing outside is read or contacted.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

import { billionLaughs, pngBomb } from '../../../bench/fuzz-inputs';
import { newClient } from '../support/apiClient';
import { useWorkerSandbox } from '../../support/sandboxFixture';
import { listenOnLoopback, type Loopback } from '../../support/loopback';

const suite = useWorkerSandbox();

describe('hostile SVG artwork', () => {
	it(
		'is failed fast with artwork_too_large when it embeds a PNG bomb (7000 x 7000 of zeros, 49 ' +
			'megapixels in a few KB)',
		async () => {
			const api = await newClient(suite.sandbox);
			const bomb = pngBomb(7000).toString('base64');
			const svg =
				`<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><rect width="90" ` +
				`height="90" fill="#a33"/><image width="200" height="200" ` +
				`href="data:image/png;base64,${bomb}"/></svg>`;
			const started = Date.now();
			const created = await api.createJob(
				{ workflow: 'digitising', format: 'pes', width_mm: 60, colour_count: 3 },
				[{ name: 'bomb.svg', bytes: Buffer.from(svg) }],
			);
			expect(created.status).toBe(202);
			const job = await api.waitForJob('digitising', created.body.job.id);
			expect(job).toMatchObject({ status: 'failed', failureCode: 'artwork_too_large' });
			expect(job.failureReason).toMatch(/embeds images of more than 16 megapixels/);
			// Refused from the declared size, not after decoding: well inside any job timeout.
			expect(Date.now() - started).toBeLessThan(20_000);
		},
	);
});

describe('SVG artwork that reaches outside itself or expands without end, over HTTP', () => {
	const recorder: { server?: Loopback; connections: number; requests: string[] } = {
		connections: 0,
		requests: [],
	};
	beforeAll(async () => {
		const server = createServer((request, response) => {
			recorder.requests.push(`${request.method} ${request.url}`);
			response.end();
		});
		server.on('connection', () => recorder.connections++);
		recorder.server = await listenOnLoopback(server);
	});
	afterAll(async () => {
		await recorder.server?.close();
	});

	const passwd = readFileSync('/etc/passwd', 'utf8');
	const svg = (body: string, prolog = '') =>
		`<?xml version="1.0"?>\n${prolog}<svg xmlns="http://www.w3.org/2000/svg" ` +
		`xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="200"><rect width="90" ` +
		`height="90" fill="#a33"/>${body}</svg>`;
	/** One 4 KB entity (the longest accepted) used 1,000 times: 4.1 million characters, past the 4 million allowed. */
	const flatExpansion = () =>
		svg(
			`<text x="0" y="20">${'&wide;'.repeat(1000)}</text>`,
			`<!DOCTYPE svg [<!ENTITY wide "${'ha'.repeat(2048)}">]>`,
		);
	const cases: Array<{ name: string; artwork: () => string; reason: RegExp }> = [
		{
			name: 'an <image href> on a loopback server',
			artwork: () =>
				svg(`<image width="200" height="200" href="${recorder.server!.origin}/logo.png"/>`),
			reason: /<image> refers to "http:\/\/127\.0\.0\.1:\d+\/logo\.png" outside the SVG/,
		},
		{
			name: 'an <image xlink:href> on a loopback server',
			artwork: () =>
				svg(`<image width="200" height="200" xlink:href="${recorder.server!.origin}/logo.png"/>`),
			reason: /<image> refers to "http:\/\/127\.0\.0\.1:\d+\/logo\.png" outside the SVG/,
		},
		{
			name: 'an <image href> of file:///etc/passwd',
			artwork: () => svg('<image width="200" height="200" href="file:///etc/passwd"/>'),
			reason: /<image> refers to "file:\/\/\/etc\/passwd" outside the SVG/,
		},
		{
			name: 'an <image xlink:href> of file:///etc/passwd',
			artwork: () => svg('<image width="200" height="200" xlink:href="file:///etc/passwd"/>'),
			reason: /<image> refers to "file:\/\/\/etc\/passwd" outside the SVG/,
		},
		{
			name: 'a CSS url() of file:///etc/passwd in a style attribute',
			artwork: () => svg('<circle cx="50" cy="50" r="40" style="fill: url(file:///etc/passwd)"/>'),
			reason: /<circle> refers to "file:\/\/\/etc\/passwd" outside the SVG with url\(\)/,
		},
		{
			name: 'a CSS url() of a loopback server in a <style> sheet',
			artwork: () =>
				svg(
					`<style>circle { fill: url('${recorder.server!.origin}/paint.svg#p'); ` +
						`}</style><circle cx="50" cy="50" r="40"/>`,
				),
			reason:
				/<style> refers to "http:\/\/127\.0\.0\.1:\d+\/paint\.svg#p" outside the SVG with url\(\)/,
		},
		{
			name: 'a fill="url(file:///etc/passwd)" attribute',
			artwork: () => svg('<circle cx="50" cy="50" r="40" fill="url(file:///etc/passwd#p)"/>'),
			reason: /<circle> refers to "file:\/\/\/etc\/passwd#p" outside the SVG with url\(\)/,
		},
		{
			name: 'an external entity (XXE) of /etc/passwd',
			artwork: () =>
				svg(
					'<text x="10" y="50">&xxe;</text>',
					'<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
				),
			reason: /declares an external entity \(&xxe;\), which would read a file or a web address/,
		},
		{
			name: 'an external entity of a loopback server',
			artwork: () =>
				svg(
					'<text x="10" y="50">&remote;</text>',
					`<!DOCTYPE svg [<!ENTITY remote SYSTEM "${recorder.server!.origin}/entity.txt">]>`,
				),
			reason: /declares an external entity \(&remote;\)/,
		},
		{
			name: 'a billion laughs (nine levels of ten references each)',
			artwork: () => svg('<text x="0" y="20">&lol9;</text>', billionLaughs(9)),
			reason:
				/its entity &lol1; refers to other entities or holds markup \(the "billion laughs" pattern\)/,
		},
		{
			name: 'an entity expanded past 4 million characters',
			artwork: flatExpansion,
			reason: /its entities expand to more than 4 million characters/,
		},
		{
			name: 'elements nested 300 deep',
			artwork: () => svg(`${'<g>'.repeat(300)}<rect width="10" height="10"/>${'</g>'.repeat(300)}`),
			reason: /it nests elements more than 256 deep/,
		},
		{
			name: '<use> references that fan out into a million drawn elements',
			artwork: () => {
				let defs = '<rect id="u0" width="2" height="2" fill="#0a0"/>';
				for (let level = 1; level <= 6; level++)
					defs += `<g id="u${level}">${`<use href="#u${level - 1}"/>`.repeat(10)}</g>`;
				return svg(`<defs>${defs}</defs><use href="#u6"/>`);
			},
			reason: /its <use> and url\(#…\) references multiply into more than 200000 drawn elements/,
		},
		{
			name: 'a <use> cycle',
			artwork: () =>
				svg(
					'<defs><g id="a"><use href="#b"/><circle r="20" cx="50" cy="50"/></g><g id="b"><use ' +
						'href="#a"/></g></defs><use href="#a"/>',
				),
			reason: /refers back to itself through <use> or url\(#…\), an endless loop/,
		},
	];

	it.each(cases)(
		'fails $name with unreadable_artwork, connects nowhere and shows no file content',
		async ({ artwork, reason }) => {
			// The check below could not fail if the file it looks for were empty.
			expect(passwd).toContain('root:');
			const api = await newClient(suite.sandbox);
			const created = await api.createJob(
				{ workflow: 'digitising', format: 'pes', width_mm: 60, colour_count: 3 },
				[{ name: 'hostile.svg', bytes: Buffer.from(artwork()) }],
			);
			expect(created.status).toBe(202);
			const job = await api.waitForJob('digitising', created.body.job.id);
			expect(job).toMatchObject({
				status: 'failed',
				failureCode: 'unreadable_artwork',
				outputs: [],
			});
			expect(job.failureReason).toMatch(/^The SVG artwork was refused: /);
			expect(job.failureReason).toMatch(reason);
			const answer = JSON.stringify(job);
			expect(answer).not.toContain('root:');
			expect(answer).not.toContain(passwd.split('\n')[0]);
			expect(recorder).toMatchObject({ connections: 0, requests: [] });
		},
	);

	it('the recorder does take connections: the checks above would see one', async () => {
		const response = await fetch(`${recorder.server!.origin}/probe`);
		expect(response.status).toBe(200);
		expect(recorder.requests).toEqual(['GET /probe']);
		expect(recorder.connections).toBe(1);
	});
});
