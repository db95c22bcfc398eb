/**
 * Which link each of a job's files comes from (helpers/fileLinks.ts, helpers/jobFiles.ts): the spec-defined
 * PrivateFile links first, the detailed job's open-ended `outputs`/`artifacts` only as a fallback, whatever
 * their shape; and a link the node cannot read costs only its own file. Real n8n-core executions against a
 * scripted service on loopback.
 */
import { fileLinksOf, openFileLink } from '../../../../nodes/Embroidery/helpers/fileLinks';
import type { Job, JobListItem } from '../../../../nodes/Embroidery/transport';
import { binaryBuffer } from '../../../support/binaryData';
import { runNode } from '../../../support/nodeRun';
import { detailedJob, freeUsage, jobIds, listItem } from '../../support/fakeJobs';
import { startOtherOrigin } from '../../../support/variantService';
import { apiKey, download, waitFor } from '../../support/scriptedRuns';
import { sendJson, startScriptedServer } from '../../support/scriptedServer';
import type { RecordedRequest } from '../../support/scriptedServer';

/** A host whose last label is a number: WHATWG's URL parser refuses it, zod's looser check once let it through. */
const refusedLink =
	'https://files.example.123/uploads/u9/preview?expires=1&signature=SECRETSIGNATURE';

interface Script {
	listing?: (origin: string) => object[];
	detail?: (origin: string, id: string) => Record<string, unknown>;
}

/** A service whose listing and details the test writes; `/files/<name>` answers the bytes `<name>` as a PNG. */
async function withService(
	script: Script,
	test: (service: {
		baseUrl: string;
		origin: string;
		requests: RecordedRequest[];
	}) => Promise<void>,
) {
	let origin = '';
	const server = await startScriptedServer((request, response) => {
		const path = request.url.replace(/\?.*/, '');
		if (path === '/api/v1/jobs')
			return sendJson(response, 200, { data: script.listing?.(origin) ?? [], freeUsage });
		const detail = /^\/api\/v1\/jobs\/conversion\/(\w+)$/.exec(path);
		if (detail)
			return sendJson(
				response,
				200,
				detailedJob(detail[1], 'completed', script.detail?.(origin, detail[1]) ?? {}),
			);
		const file = /^\/files\/(.+)$/.exec(path);
		if (file) {
			response.writeHead(200, { 'content-type': 'image/png' });
			return void response.end(`bytes of ${file[1]}`);
		}
		sendJson(response, 404, { message: 'Not found.' });
	});
	origin = server.origin;
	try {
		await test({ baseUrl: server.baseUrl, origin: server.origin, requests: server.requests });
	} finally {
		await server.close();
	}
}

const privateFile = (
	name: string,
	links: { downloadUrl?: string | null; previewUrl?: string | null },
) => ({
	id: `file-${name}`,
	name,
	downloadUrl: null,
	previewUrl: null,
	...links,
});

const completedListed = (id: string, extra: Record<string, unknown> = {}) => ({
	...listItem(id, 'completed'),
	...extra,
});

const fileRequests = (requests: RecordedRequest[]) =>
	requests
		.map((request) => request.url.replace(/\?.*/, ''))
		.filter((url) => url.startsWith('/files/'));

describe('a link the node cannot read costs only its own file', () => {
	it(
		'Get Many lists every job when one preview link is refused by the URL parser, with a note ' +
			'on that file alone',
		async () => {
			await withService(
				{
					listing: (origin) => [
						completedListed(jobIds.a, {
							preview: privateFile('a.png', { previewUrl: `${origin}/files/a.png` }),
						}),
						completedListed(jobIds.b, {
							preview: privateFile('b.png', { previewUrl: refusedLink }),
						}),
						completedListed(jobIds.c),
					],
				},
				async ({ baseUrl }) => {
					const run = (simplify: boolean) =>
						runNode({
							credentials: { apiKey, baseUrl },
							parameters: {
								resource: 'job',
								operation: 'getMany',
								returnAll: true,
								filters: {},
								simplify,
							},
							typeVersion: 2,
							input: [{}],
						});
					for (const simplify of [false, true]) {
						const result = await run(simplify);
						expect(result.error).toBeUndefined();
						expect(result.items.map((item) => item.json.id)).toEqual([
							jobIds.a,
							jobIds.b,
							jobIds.c,
						]);
						const [first, second, third] = result.items.map((item) => item.json);
						expect(first.fileErrors).toBeUndefined();
						expect(third.fileErrors).toBeUndefined();
						expect(second.fileErrors).toEqual([
							{
								kind: 'preview',
								fileName: 'b.png',
								error:
									'The previewUrl of this preview is not a URL the node can read; only this file is affected',
							},
						]);
						if (!simplify)
							expect(second.preview).toMatchObject({ name: 'b.png', previewUrl: refusedLink });
					}
				},
			);
		},
	);

	it(
		'Wait for Completion with Download Results: the job with the unreadable link fails alone, ' +
			'the other is delivered',
		async () => {
			await withService(
				{
					listing: (origin) => [
						completedListed(jobIds.a, {
							preview: privateFile('a.png', { previewUrl: refusedLink }),
						}),
						completedListed(jobIds.b, {
							preview: privateFile('b.png', { previewUrl: `${origin}/files/b.png` }),
						}),
					],
				},
				async ({ baseUrl, requests }) => {
					const result = await runNode({
						credentials: { apiKey, baseUrl },
						parameters: waitFor({
							jobId: `${jobIds.a},${jobIds.b}`,
							timeout: 30,
							downloadResults: ['preview'],
							showWarnings: false,
						}),
						input: [{}],
						onError: 'continueRegularOutput',
					});
					expect(result.error).toBeUndefined();
					const [failed, delivered] = result.items;
					expect(String(failed.json.error)).toContain(
						`Job ${jobIds.a}: The service gave no signed URL the node can use for this file "a.png"`,
					);
					expect(String(failed.json.error)).toContain('previewUrl is not a URL the node can read');
					expect(JSON.stringify(failed.json)).not.toMatch(/SECRETSIGNATURE|files\.example/);
					expect(delivered.json).toMatchObject({ id: jobIds.b, status: 'completed' });
					expect((await binaryBuffer(delivered.binary!.preview)).toString()).toBe('bytes of b.png');
					expect(fileRequests(requests)).toEqual(['/files/b.png']);
				},
			);
		},
	);

	it('File > Download refuses an unreadable link without repeating its signature', async () => {
		await withService({}, async ({ baseUrl, requests }) => {
			const result = await runNode({
				credentials: { apiKey, baseUrl },
				parameters: {
					resource: 'file',
					operation: 'download',
					url: refusedLink,
					binaryPropertyName: 'data',
				},
				input: [{}],
			});
			expect(result.error?.message).toBe("'Signed URL' is not a URL the node can read [item 0]");
			expect(
				JSON.stringify({ message: result.error?.message, description: result.error?.description }),
			).not.toContain('SECRETSIGNATURE');
			expect(requests).toHaveLength(0);
		});
	});
});

describe('files come from the fields the spec defines', () => {
	it(
		"a listed job whose detail is fetched too (Show Warnings) is downloaded from the listing's " +
			'PrivateFile, not the open-ended artifact',
		async () => {
			await withService(
				{
					listing: (origin) => [
						completedListed(jobIds.a, {
							preview: privateFile('listed.png', { previewUrl: `${origin}/files/listed.png` }),
						}),
					],
					detail: (origin) => ({
						artifacts: [
							{ kind: 'preview', name: 'detail.png', previewUrl: `${origin}/files/detail.png` },
						],
					}),
				},
				async ({ baseUrl, requests }) => {
					const result = await runNode({
						credentials: { apiKey, baseUrl },
						parameters: waitFor({ jobId: jobIds.a, timeout: 30, downloadResults: ['preview'] }),
						input: [{}],
					});
					expect(result.error).toBeUndefined();
					expect((await binaryBuffer(result.items[0].binary!.preview)).toString()).toBe(
						'bytes of listed.png',
					);
					expect(fileRequests(requests)).toEqual(['/files/listed.png']);
					// Show Warnings fetched the detail: the choice above was made with both at hand.
					expect(requests.map((request) => request.url)).toContain(
						`/api/v1/jobs/conversion/${jobIds.a}`,
					);
				},
			);
		},
	);

	const shapes: Array<[string, (origin: string) => Record<string, unknown>, string]> = [
		['under href', (origin) => ({ name: 'p.png', href: `${origin}/files/href.png` }), 'href.png'],
		[
			'in a nested object',
			(origin) => ({ name: 'p.png', file: { location: { url: `${origin}/files/nested.png` } } }),
			'nested.png',
		],
		[
			'in an array of links',
			(origin) => ({
				links: [
					{ rel: 'self', href: `${origin}/files/self.json` },
					{ rel: 'preview', previewUrl: `${origin}/files/array.png` },
				],
			}),
			'array.png',
		],
	];

	it.each(shapes)(
		"Job > Download finds an open-ended artifact's link %s",
		async (_shape, artifact, fileName) => {
			await withService(
				{ detail: (origin) => ({ artifacts: [artifact(origin)] }) },
				async ({ baseUrl, requests }) => {
					const result = await runNode({
						credentials: { apiKey, baseUrl },
						parameters: download(['preview']),
						input: [{}],
					});
					expect(result.error).toBeUndefined();
					expect(fileRequests(requests)).toEqual([`/files/${fileName}`]);
					expect((await binaryBuffer(result.items[0].binary!.preview)).toString()).toBe(
						`bytes of ${fileName}`,
					);
				},
			);
		},
	);

	it('an output with no usable link: the error names the fields it found, never a value', async () => {
		await withService(
			{
				detail: () => ({
					downloadsUnlocked: true,
					outputs: [
						{
							id: 'o1',
							name: 'a.exp',
							location: { bucket: 'private-bucket' },
							downloadUrl: refusedLink,
						},
					],
				}),
			},
			async ({ baseUrl, requests }) => {
				const result = await runNode({
					credentials: { apiKey, baseUrl },
					parameters: download(['outputs']),
					input: [{}],
				});
				expect(result.error?.message).toBe(
					'The service gave no signed URL the node can use for this file "a.exp" (downloadUrl ' +
						'is not a URL the node can read; fields: id, name, location, downloadUrl, ' +
						'location.bucket) [item 0]',
				);
				expect(
					JSON.stringify({
						message: result.error?.message,
						description: result.error?.description,
					}),
				).not.toMatch(/SECRETSIGNATURE|files\.example|private-bucket/);
				// No link to try: one fresh look-up of the job, in case the link was only missing for a moment.
				expect(requests.map((request) => request.url)).toEqual([
					`/api/v1/jobs/conversion/${jobIds.a}`,
					`/api/v1/jobs/conversion/${jobIds.a}`,
				]);
			},
		);
	});
});

describe("the API key never goes to a link's other origin", () => {
	it(
		'a link found in an open-ended object that names another origin is refused before any ' +
			'request reaches it',
		async () => {
			const other = await startOtherOrigin();
			try {
				await withService(
					{
						detail: () => ({
							artifacts: [{ links: [{ href: `${other.origin}/files/elsewhere.png` }] }],
						}),
					},
					async ({ baseUrl }) => {
						const result = await runNode({
							credentials: { apiKey, baseUrl },
							parameters: download(['preview']),
							input: [{}],
						});
						expect(result.error?.message).toMatch(
							new RegExp(`host ${other.origin} is not the service's host`),
						);
						expect(other.requests).toHaveLength(0);
					},
				);
			} finally {
				await other.close();
			}
		},
	);
});

describe('fileLinksOf', () => {
	const origin = 'http://127.0.0.1:9';
	const listed = (extra: Record<string, unknown>) =>
		({ ...completedListed(jobIds.a), ...extra }) as unknown as JobListItem;
	const detail = (extra: Record<string, unknown>) =>
		detailedJob(jobIds.a, 'completed', extra).job as unknown as Job;

	it('prefers the PrivateFile link, and adds the open-ended files it does not name', () => {
		const links = fileLinksOf(
			{
				listed: listed({
					output: privateFile('a.exp', { downloadUrl: `${origin}/files/listed.exp` }),
				}),
				detail: detail({
					outputs: [
						{ id: 'file-a.exp', name: 'a.exp', url: `${origin}/files/detail.exp` },
						{ id: 'o2', name: 'a.pes', url: `${origin}/files/second.pes` },
					],
				}),
			},
			'outputs',
		);
		expect(links.map((link) => link.url)).toEqual([
			`${origin}/files/listed.exp`,
			`${origin}/files/second.pes`,
		]);
	});

	it('falls back to the matching open-ended file when the PrivateFile link is null or unreadable', () => {
		for (const downloadUrl of [null, refusedLink]) {
			const links = fileLinksOf(
				{
					listed: listed({ output: privateFile('a.exp', { downloadUrl }) }),
					detail: detail({ outputs: [{ name: 'a.exp', href: `${origin}/files/detail.exp` }] }),
				},
				'outputs',
			);
			expect(links).toEqual([{ url: `${origin}/files/detail.exp`, fileName: 'a.exp' }]);
		}
	});

	it("takes the source from whichever PrivateFile has a usable link, the listing's first", () => {
		const source = (downloadUrl: string | null) => privateFile('s.dst', { downloadUrl });
		const links = (listedUrl: string | null, detailUrl: string | null) =>
			fileLinksOf(
				{
					listed: listed({ source: source(listedUrl) }),
					detail: detail({ source: source(detailUrl) }),
				},
				'source',
			).map((link) => link.url);
		expect(links(`${origin}/files/a`, `${origin}/files/b`)).toEqual([`${origin}/files/a`]);
		expect(links(refusedLink, `${origin}/files/b`)).toEqual([`${origin}/files/b`]);
		expect(links(null, null)).toEqual([null]);
	});

	it("takes the detail's source as the PrivateFile it is", () => {
		expect(
			fileLinksOf(
				{
					detail: detail({
						source: privateFile('s.dst', { downloadUrl: `${origin}/files/s.dst` }),
					}),
				},
				'source',
			),
		).toEqual([{ url: `${origin}/files/s.dst`, fileName: 's.dst' }]);
	});

	it('an open-ended object: a known link field wins over a nested one, a path naming the kind over another', () => {
		expect(
			openFileLink({ file: { url: `${origin}/nested` }, downloadUrl: `${origin}/top` }, 'outputs')
				.url,
		).toBe(`${origin}/top`);
		expect(
			openFileLink(
				{ links: { self: { href: `${origin}/self` }, preview: { href: `${origin}/p` } } },
				'preview',
			).url,
		).toBe(`${origin}/p`);
		expect(openFileLink({ id: 1, note: 'not a link' }, 'outputs')).toEqual({
			url: null,
			unusable: 'fields: id, note',
		});
		expect(openFileLink('just text', 'outputs')).toEqual({
			url: null,
			unusable: 'fields: no fields',
		});
	});
});
