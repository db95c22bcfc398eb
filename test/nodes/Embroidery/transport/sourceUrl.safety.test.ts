/**
 * Job > Create from a Source URL is bounded and safe: links to private networks are refused unless the
 * option allows them, and a server that stalls, dawdles or never ends cannot hold the execution. Every
 * server here listens on loopback; nothing is ever sent to another address.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';

import type { INodeParameters } from 'n8n-workflow';

import {
	sourceUrlLimits,
	useClock,
	useResolver,
	wallClock,
} from '../../../../nodes/Embroidery/transport';
import { listenOnLoopback } from '../../../support/loopback';
import { createFromUrl } from '../../../support/jobParameters';
import { fixture } from '../../../support/embroideryFiles';
import { itemsOf, run } from '../../support/nodeItems';
import { useWorkerSandbox } from '../../../support/sandboxFixture';

const env = useWorkerSandbox();

interface FileServer {
	port: number;
	requests: Array<{ path: string; headers: IncomingHttpHeaders }>;
	/** Responses still open (stalled on purpose). */
	open: Set<ServerResponse>;
	close: () => Promise<void>;
}

let files: FileServer;

beforeAll(async () => {
	const requests: FileServer['requests'] = [];
	const open = new Set<ServerResponse>();
	const server = createServer((request, response) => {
		const path = new URL(request.url ?? '/', 'http://x').pathname;
		requests.push({ path, headers: request.headers });
		if (path === '/Star.JEF') {
			response
				.writeHead(200, { 'content-type': 'application/octet-stream' })
				.end(fixture('Star.JEF'));
		} else if (path === '/to-loopback') {
			response
				.writeHead(302, {
					location: `http://localhost:${(server.address() as { port: number }).port}/Star.JEF`,
				})
				.end();
		} else if (path === '/stall') {
			// Announces 100000 bytes, sends 10, then nothing: only an idle limit ends it.
			open.add(response);
			response.writeHead(200, {
				'content-type': 'application/octet-stream',
				'content-length': '100000',
			});
			response.write(Buffer.alloc(10, 1));
		} else if (path === '/silent') {
			// Accepts the request and never answers it.
			open.add(response);
		} else if (path === '/trickle') {
			// A byte every 100 ms, forever: never idle, only the total limit ends it.
			open.add(response);
			response.writeHead(200, { 'content-type': 'application/octet-stream' });
			const timer = setInterval(
				() => (response.destroyed ? clearInterval(timer) : response.write(Buffer.alloc(1, 2))),
				100,
			);
		} else {
			response.writeHead(404).end();
		}
	});
	const loopback = await listenOnLoopback(server);
	files = {
		port: loopback.port,
		requests,
		open,
		close: async () => {
			for (const response of open) response.destroy();
			await loopback.close();
		},
	};
});

afterAll(async () => {
	await files.close();
});

beforeEach(() => {
	files.requests.length = 0;
});

/** The test's resolver: two names on loopback, nothing else. */
const testResolver = async (hostname: string) =>
	['artwork.intranet.test', 'localhost'].includes(hostname) ? ['127.0.0.1'] : [];

async function attempt(sourceUrl: string, options: INodeParameters = {}, signal?: AbortSignal) {
	const credentials = await env.credentials();
	const result = await run(credentials, createFromUrl(sourceUrl, options), [{}], {
		onError: 'continueRegularOutput',
		signal,
	});
	const listed = itemsOf(
		await run(credentials, { resource: 'job', operation: 'getMany', returnAll: true }),
	);
	return {
		error: result.items[0]?.json.error,
		result,
		jobs: listed.filter((item) => item.json.id),
	};
}

describe('Source URL: private networks', () => {
	test(
		'every loopback form is refused by default, naming the address class and the option, before ' +
			'any request',
		async () => {
			const restore = useResolver(testResolver);
			try {
				const port = files.port;
				const cases: Array<[string, RegExp]> = [
					[
						`http://127.0.0.1:${port}/Star.JEF`,
						/is on 127\.0\.0\.1, a loopback address: not fetched \[item 0\]$/,
					],
					[`http://[::1]:${port}/Star.JEF`, /is on ::1, a loopback address/],
					[`http://[::ffff:127.0.0.1]:${port}/Star.JEF`, /is on ::ffff:7f00:1, a loopback address/],
					[`http://2130706433:${port}/Star.JEF`, /is on 127\.0\.0\.1, a loopback address/],
					[
						`http://artwork.intranet.test:${port}/Star.JEF`,
						/resolves to 127\.0\.0\.1, a loopback address/,
					],
				];
				for (const [link, message] of cases) {
					const { error, result, jobs } = await attempt(link);
					expect([link, error]).toEqual([link, expect.stringMatching(message)]);
					expect(String(result.items[0].json.error ?? '')).not.toMatch(
						/error|problem|failure|mistake/i,
					);
					expect(jobs).toHaveLength(0);
				}
				expect(files.requests).toHaveLength(0);
			} finally {
				restore();
			}
		},
	);

	test(
		"a name n8n's own resolver maps to loopback (localhost, and a name /etc/hosts maps) is " +
			'refused before any request',
		async () => {
			for (const name of ['localhost', 'runsc']) {
				const { error, jobs } = await attempt(`http://${name}:${files.port}/Star.JEF`);
				expect(error).toMatch(
					new RegExp(
						`^The 'Source URL' http://${name}:\\d+/Star.JEF resolves to (127\\.0\\.0\\.1|::1), a loopback address`,
					),
				);
				expect(jobs).toHaveLength(0);
			}
			expect(files.requests).toHaveLength(0);
		},
	);

	test('without a resolver, an answer whose socket address n8n does not expose is refused, not trusted', async () => {
		// n8n 2.x hands nodes a plain Readable (no socket) but lends its resolver; n8n 1.x hands the socket's
		// IncomingMessage (its address is judged: test/e2e/sourceUrl.e2e.ts). Neither known: refused.
		const restore = useResolver(null);
		try {
			const { error, jobs } = await attempt(`http://localhost:${files.port}/Star.JEF`);
			expect(error).toBe(
				`The 'Source URL' http://localhost:${files.port}/Star.JEF was answered from an ` +
					`address the node could not read, so it was not fetched [item 0]`,
			);
			expect(jobs).toHaveLength(0);
		} finally {
			restore();
		}
	});

	test(
		'with Allow Private Network Addresses on, loopback links are fetched, a resolved name ' +
			'pinned to its address',
		async () => {
			const restore = useResolver(testResolver);
			try {
				const credentials = await env.credentials();
				for (const link of [
					`http://127.0.0.1:${files.port}/Star.JEF`,
					`http://artwork.intranet.test:${files.port}/Star.JEF`,
					`http://localhost:${files.port}/to-loopback`,
				]) {
					const [created] = itemsOf(
						await run(credentials, createFromUrl(link, { allowPrivateNetworks: true })),
					);
					expect([link, created.json.sourceFile]).toEqual([link, 'Star.JEF']);
				}
				// The pinned request went to 127.0.0.1 and still named its host to the server.
				expect(files.requests.map((request) => request.headers.host)).toContain(
					`artwork.intranet.test:${files.port}`,
				);
			} finally {
				restore();
			}
		},
	);
});

describe('Source URL: time limits and Stop', () => {
	const saved = { ...sourceUrlLimits };
	afterEach(() => {
		Object.assign(sourceUrlLimits, saved);
	});

	test(
		'200 with Content-Length 100000, 10 bytes, then nothing: ends within the idle limit with a ' +
			'clear message',
		async () => {
			Object.assign(sourceUrlLimits, { idleMs: 1000 });
			const started = Date.now();
			const { error, jobs } = await attempt(`http://127.0.0.1:${files.port}/stall`, {
				allowPrivateNetworks: true,
			});
			const took = Date.now() - started;
			expect(error).toMatch(
				/^The 'Source URL' http:\/\/127\.0\.0\.1:\d+\/stall stopped sending: no data for 1 s \[item 0\]$/,
			);
			// Well before the 30 s limits that would end it otherwise (the run's own set-up takes seconds under load).
			expect(took).toBeLessThan(20_000);
			expect(jobs).toHaveLength(0);
		},
	);

	test('a server that never answers ends at the answer limit', async () => {
		Object.assign(sourceUrlLimits, { answerMs: 800 });
		const { error } = await attempt(`http://127.0.0.1:${files.port}/silent`, {
			allowPrivateNetworks: true,
		});
		expect(error).toMatch(
			/^The 'Source URL' http:\/\/127\.0\.0\.1:\d+\/silent did not answer within 0\.8 s \[item 0\]$/,
		);
	});

	test("says it did not answer when the request's own time limit fires before the node's wait", async () => {
		// A busy machine can fire either of the two equal timers first; here the node's runs three times slower.
		Object.assign(sourceUrlLimits, { answerMs: 800 });
		const restore = useClock({
			now: () => wallClock.now(),
			sleep: async (ms, signal) => await wallClock.sleep(ms * 3, signal),
		});
		try {
			const { error } = await attempt(`http://127.0.0.1:${files.port}/silent`, {
				allowPrivateNetworks: true,
			});
			expect(error).toMatch(
				/^The 'Source URL' http:\/\/127\.0\.0\.1:\d+\/silent did not answer within 0\.8 s \[item 0\]$/,
			);
		} finally {
			restore();
		}
	});

	test('a server that keeps trickling ends at the limit on the whole transfer', async () => {
		// 8 s: with 1.5 s, a loaded machine's set-up left the answer less than a second, which ended it first.
		Object.assign(sourceUrlLimits, { totalMs: 8000 });
		const { error } = await attempt(`http://127.0.0.1:${files.port}/trickle`, {
			allowPrivateNetworks: true,
		});
		expect(error).toMatch(
			/^The 'Source URL' http:\/\/127\.0\.0\.1:\d+\/trickle took longer than 8 s to send its file \[item 0\]$/,
		);
	});

	test('a name look-up that never answers ends at the answer limit', async () => {
		Object.assign(sourceUrlLimits, { answerMs: 800 });
		const restore = useResolver(() => new Promise<string[]>(() => undefined));
		try {
			const started = Date.now();
			const { error, jobs } = await attempt(`http://artwork.intranet.test:${files.port}/ok`);
			expect(error).toBe(
				"The host of the 'Source URL' http://artwork.intranet.test:" +
					`${files.port}/ok could not be resolved within 0.8 s [item 0]`,
			);
			expect(Date.now() - started).toBeLessThan(20_000);
			expect(jobs).toHaveLength(0);
		} finally {
			restore();
		}
	});

	test('Stop during a name look-up that never answers ends the execution at once', async () => {
		// Stopped once the look-up is under way: at a fixed second, a loaded machine was still setting the run up.
		const stop = new AbortController();
		let started = 0;
		const restore = useResolver(() => {
			started = Date.now();
			setTimeout(() => stop.abort(), 200);
			return new Promise<string[]>(() => undefined);
		});
		try {
			const { result } = await attempt(
				`http://artwork.intranet.test:${files.port}/ok`,
				{},
				stop.signal,
			);
			// The answer limit (30 s) is far away: only Stop can have ended it (15 s: a busy machine's turns).
			expect(Date.now() - started).toBeLessThan(15_000);
			expect(JSON.stringify(result.items[0]?.json ?? result.error?.message ?? '')).toMatch(
				/cancel/i,
			);
		} finally {
			restore();
		}
	});

	test('Stop while the file is stalled ends the execution at once', async () => {
		// Stopped once the file has stalled: at a fixed second, a loaded machine was still setting the run up.
		const stop = new AbortController();
		let started = 0;
		const before = files.requests.length;
		const stalled = setInterval(() => {
			if (!files.requests.slice(before).some((request) => request.path === '/stall')) return;
			clearInterval(stalled);
			started = Date.now();
			setTimeout(() => stop.abort(), 200);
		}, 20);
		const { result } = await attempt(
			`http://127.0.0.1:${files.port}/stall`,
			{ allowPrivateNetworks: true },
			stop.signal,
		).finally(() => clearInterval(stalled));
		const took = Date.now() - started;
		// The idle limit (30 s) is far away: only Stop can have ended it (15 s: a busy machine's turns).
		expect(took).toBeLessThan(15_000);
		expect(JSON.stringify(result.items[0]?.json ?? result.error?.message ?? '')).toMatch(/cancel/i);
	});
});
