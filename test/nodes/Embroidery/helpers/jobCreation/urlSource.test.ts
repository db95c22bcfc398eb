/**
 * Job > Create with Source "URL": the file is fetched by n8n's plain HTTP helper from a local file
 * server (which records what it was sent) and uploaded to the sandbox; checks of size, type, name
 * and scheme happen before anything is sent to the service. The file server is on loopback, so these
 * runs allow private network addresses (sourceUrl.safety.test.ts proves the refusal without it).
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

import { binaryBuffer } from '../../../../support/binaryData';
import { artworkSvg, itemsOf, run } from '../../../support/nodeItems';
import { fixture } from '../../../../support/embroideryFiles';
import { useWorkerSandbox } from '../../../../support/sandboxFixture';
import { listenOnLoopback } from '../../../../support/loopback';

const env = useWorkerSandbox();

interface FileServer {
	url: string;
	requests: Array<{ path: string; headers: IncomingHttpHeaders }>;
	/** Bytes the server wrote for the oversized, unannounced file before the client stopped reading. */
	endlessBytesSent: () => number;
	close: () => Promise<void>;
}

async function startFileServer(): Promise<FileServer> {
	const requests: FileServer['requests'] = [];
	let endlessBytes = 0;
	const server: Server = createServer((request, response) => {
		const path = new URL(request.url ?? '/', 'http://x').pathname;
		requests.push({ path, headers: request.headers });
		if (path === '/designs/Star.JEF') {
			response
				.writeHead(200, { 'content-type': 'application/octet-stream' })
				.end(fixture('Star.JEF'));
		} else if (path === '/moved') {
			response.writeHead(302, { location: '/designs/Star.JEF' }).end();
		} else if (path === '/artwork') {
			// No extension in the link: the type comes from Content-Type, the name from Content-Disposition.
			response
				.writeHead(200, {
					'content-type': 'image/svg+xml; charset=utf-8',
					'content-disposition': 'attachment; filename="../../etc/badge"',
				})
				.end(artworkSvg);
		} else if (path === '/big.png') {
			response.writeHead(200, {
				'content-type': 'image/png',
				'content-length': String(25 * 1024 * 1024),
			});
			response.end();
		} else if (path === '/endless.png') {
			// Chunked, no Content-Length: only counting while reading can stop it.
			response.writeHead(200, { 'content-type': 'image/png' });
			const chunk = Buffer.alloc(256 * 1024, 7);
			const write = () => {
				while (!response.destroyed && endlessBytes < 200 * 1024 * 1024) {
					endlessBytes += chunk.length;
					if (!response.write(chunk)) return void response.once('drain', write);
				}
				response.end();
			};
			write();
		} else if (path === '/designs/Star.pes') {
			// A download page at a machine file's link, as file hosts serve before the file itself.
			response
				.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
				.end('<!doctype html><title>Download Star.pes</title>');
		} else if (path === '/api/design') {
			response
				.writeHead(200, { 'content-type': 'application/json' })
				.end('{"url":"https://files.example/Star.pes"}');
		} else if (path === '/plain/Star.JEF') {
			// A host that knows no embroidery type answers text/plain (nginx's default type, for one).
			response.writeHead(200, { 'content-type': 'text/plain' }).end(fixture('Star.JEF'));
		} else if (path === '/logo.png') {
			response
				.writeHead(200, { 'content-type': 'image/png' })
				.end(Buffer.from('89504e470d0a1a0a', 'hex'));
		} else if (path === '/untyped/Star.JEF') {
			// No Content-Type at all: taken as application/octet-stream, and the service reads the content.
			response.removeHeader('content-type');
			response.writeHead(200).end(fixture('Star.JEF'));
		} else if (path === '/vendor/Star.JEF') {
			response.writeHead(200, { 'content-type': 'application/x-jef' }).end(fixture('Star.JEF'));
		} else if (path === '/report.pdf') {
			response.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4');
		} else {
			response.writeHead(404).end('Not found');
		}
	});
	const { origin, close } = await listenOnLoopback(server);
	return { url: origin, requests, endlessBytesSent: () => endlessBytes, close };
}

let files: FileServer;
beforeAll(async () => {
	files = await startFileServer();
});
afterAll(async () => {
	await files.close();
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('Job > Create from a URL', () => {
	test(
		'converts a machine file fetched from a URL (through ' +
			'a redirect) without sending the API key there',
		async () => {
			const credentials = await env.credentials();
			const [created] = itemsOf(
				await run(credentials, {
					resource: 'job',
					operation: 'create',
					workflow: 'conversion',
					source: 'url',
					options: { allowPrivateNetworks: true },
					sourceUrl: `${files.url}/moved`,
					format: 'dst',
					waitForCompletion: true,
					timeout: 120,
				}),
			);
			expect(created.json).toMatchObject({
				workflow: 'conversion',
				status: 'completed',
				sourceFile: 'Star.JEF',
				sourceUrl: `${files.url}/moved`,
			});
			expect(created.json).not.toHaveProperty('sourceBinaryField');
			for (const request of files.requests) {
				expect(request.headers.authorization).toBeUndefined();
				expect(JSON.stringify(request.headers)).not.toContain(credentials.apiKey);
			}
			expect(files.requests.map((request) => request.path)).toEqual([
				'/moved',
				'/designs/Star.JEF',
			]);

			const [downloaded] = itemsOf(
				await run(credentials, {
					resource: 'job',
					operation: 'download',
					jobId: String(created.json.id),
					workflow: 'conversion',
					files: ['source'],
				}),
			);
			expect(sha256(await binaryBuffer(downloaded.binary!.source))).toBe(
				sha256(fixture('Star.JEF')),
			);
		},
	);

	test(
		'digitises artwork whose link has no extension: the type comes from Content-Type, the name ' +
			'is one safe segment',
		async () => {
			const credentials = await env.credentials();
			const [created] = itemsOf(
				await run(credentials, {
					resource: 'job',
					operation: 'create',
					workflow: 'digitising',
					source: 'url',
					options: { allowPrivateNetworks: true },
					sourceUrl: `${files.url}/artwork?token=abc`,
					format: 'pes',
					widthMm: 60,
					colourCount: 2,
				}),
			);
			expect(created.json).toMatchObject({ workflow: 'digitising', sourceFile: 'badge.svg' });
		},
	);

	test('accepts a machine file served without a type, with a type of its own or as plain text', async () => {
		const credentials = await env.credentials();
		for (const link of ['/untyped/Star.JEF', '/vendor/Star.JEF', '/plain/Star.JEF']) {
			const [created] = itemsOf(
				await run(credentials, {
					resource: 'job',
					operation: 'create',
					workflow: 'conversion',
					source: 'url',
					sourceUrl: `${files.url}${link}`,
					format: 'dst',
					options: { allowPrivateNetworks: true },
				}),
			);
			expect(created.json).toMatchObject({ workflow: 'conversion', sourceFile: 'Star.JEF' });
		}
	});

	test(
		'refuses what the service would refuse, before ' +
			'anything is sent to it, naming the URL and the limit',
		async () => {
			const credentials = await env.credentials();
			const before = await env.admin.usage(credentials.accountId);
			const attempt = async (workflow: string, sourceUrl: string) =>
				(
					await run(
						credentials,
						{
							resource: 'job',
							operation: 'create',
							workflow,
							source: 'url',
							sourceUrl,
							format: 'pes',
							widthMm: 60,
							colourCount: 2,
							options: { allowPrivateNetworks: true },
						},
						[{}],
						{ onError: 'continueRegularOutput' },
					)
				).items[0].json.error;

			expect(await attempt('conversion', 'ftp://127.0.0.1/Star.JEF')).toMatch(
				/uses ftp; only http and https/,
			);
			expect(await attempt('conversion', 'Star.JEF')).toMatch(/is not a complete URL/);
			expect(await attempt('conversion', `${files.url}/missing.pes`)).toMatch(/answered HTTP 404/);
			expect(await attempt('conversion', `${files.url}/designs/Star.pes?token=abc`)).toBe(
				`The file at ${files.url}/designs/Star.pes is served as text/html, not as an embroidery ` +
					`machine file conversion accepts [item 0]`,
			);
			expect(await attempt('conversion', `${files.url}/api/design`)).toMatch(
				/api\/design is served as application\/json, not as an embroidery machine file conversion accepts \[item 0\]$/,
			);
			expect(await attempt('conversion', `${files.url}/report.pdf`)).toMatch(
				/is served as application\/pdf/,
			);
			expect(await attempt('conversion', `${files.url}/logo.png`)).toMatch(
				/is served as image\/png/,
			);
			expect(await attempt('digitising', `${files.url}/report.pdf`)).toMatch(
				/is not artwork digitising accepts: jpg, jpeg, png, svg, webp/,
			);
			expect(await attempt('digitising', `${files.url}/big.png`)).toMatch(
				/is 25 MB; digitising accepts at most 20 MB per file/,
			);
			expect(await attempt('digitising', `${files.url}/endless.png`)).toMatch(
				/larger than 20 MB \(the download was stopped there\)/,
			);
			// The client stopped reading at the limit; the server could not push all 200 MB.
			expect(files.endlessBytesSent()).toBeLessThan(100 * 1024 * 1024);

			const listed = itemsOf(
				await run(credentials, { resource: 'job', operation: 'getMany', returnAll: true }),
			);
			expect(listed.filter((item) => item.json.id)).toHaveLength(0);
			expect(await env.admin.usage(credentials.accountId)).toEqual(before);
		},
	);
});
