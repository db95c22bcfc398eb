/**
 * Job > Create from a Source URL judges every redirect hop by the private-network policy, not only the link.
 * The first server listens on 127.0.0.2, which the test lets pass as a public server (treatLoopbackAsPublic),
 * and redirects to targets on 127.0.0.1 and ::1 that count every connection: a refused hop must never reach
 * them. Every server here listens on loopback; nothing is ever sent to another address.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

import type { INodeParameters } from 'n8n-workflow';

import { treatLoopbackAsPublic, useResolver } from '../../../../nodes/Embroidery/transport';
import { listenOnLoopback, type Loopback } from '../../../support/loopback';
import { createFromUrl } from '../../../support/jobParameters';
import { fixture } from '../../../support/embroideryFiles';
import { itemsOf, run } from '../../support/nodeItems';
import { useWorkerSandbox } from '../../../support/sandboxFixture';

const env = useWorkerSandbox();

const publicStandIn = '127.0.0.2';
const publicName = 'www.public-artwork.test';

/** The test's resolver: the public name on the stand-in, two names on 127.0.0.1, nothing else. */
const names = new Map([
	[publicName, [publicStandIn]],
	['artwork.intranet.test', ['127.0.0.1']],
	['localhost', ['127.0.0.1']],
]);
const testResolver = async (hostname: string) => names.get(hostname) ?? [];

/** What a server saw: the paths asked for, the Host headers sent, and the connections opened to it. */
interface Seen {
	paths: string[];
	hosts: string[];
	connections: number;
}

const first: Seen = { paths: [], hosts: [], connections: 0 };
const target: Seen = { paths: [], hosts: [], connections: 0 };
const servers: Loopback[] = [];
let firstPort: number;
let targetPort: number;
let targetPort6: number;

function counting(seen: Seen, server: Server): Server {
	server.on('connection', () => seen.connections++);
	server.on('request', (request: IncomingMessage) => {
		seen.paths.push(request.url ?? '');
		seen.hosts.push(request.headers.host ?? '');
	});
	return server;
}

const serveFile = (response: ServerResponse) =>
	response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(fixture('Star.JEF'));

beforeAll(async () => {
	// `/redirect?status=302&to=<link>` answers that redirect; `/relative` redirects within its own host.
	const firstServer = counting(
		first,
		createServer((request, response) => {
			const url = new URL(request.url ?? '/', 'http://x');
			if (url.pathname === '/redirect') {
				response
					.writeHead(Number(url.searchParams.get('status')), {
						location: url.searchParams.get('to') ?? '',
					})
					.end();
			} else if (url.pathname === '/relative') {
				response.writeHead(302, { location: '/Star.JEF' }).end();
			} else if (url.pathname === '/Star.JEF') {
				serveFile(response);
			} else {
				response.writeHead(404).end();
			}
		}),
	);
	const firstLoopback = await listenOnLoopback(firstServer, { host: publicStandIn });
	const target4 = await listenOnLoopback(
		counting(
			target,
			createServer((_request, response) => serveFile(response)),
		),
	);
	const target6 = await listenOnLoopback(
		counting(
			target,
			createServer((_request, response) => serveFile(response)),
		),
		{ host: '::1' },
	);
	servers.push(firstLoopback, target4, target6);
	[firstPort, targetPort, targetPort6] = [firstLoopback.port, target4.port, target6.port];
});

afterAll(async () => {
	for (const server of servers) await server.close();
});

let undo: Array<() => void> = [];

beforeEach(() => {
	for (const seen of [first, target]) {
		seen.paths.length = 0;
		seen.hosts.length = 0;
		seen.connections = 0;
	}
	undo = [treatLoopbackAsPublic(publicStandIn)];
});

afterEach(() => {
	for (const restore of undo.reverse()) restore();
});

/** The loopback targets a redirect may name, with how the refusal describes where each one is. */
const targets = () => [
	{ link: `http://127.0.0.1:${targetPort}/Star.JEF`, where: 'is on 127.0.0.1' },
	{ link: `http://[::1]:${targetPort6}/Star.JEF`, where: 'is on ::1' },
	{ link: `http://localhost:${targetPort}/Star.JEF`, where: 'resolves to 127.0.0.1' },
	{ link: `http://artwork.intranet.test:${targetPort}/Star.JEF`, where: 'resolves to 127.0.0.1' },
];

const redirectTo = (origin: string, status: number, to: string) =>
	`${origin}/redirect?status=${status}&to=${encodeURIComponent(to)}`;

async function attempt(sourceUrl: string, options: INodeParameters = {}) {
	const credentials = await env.credentials();
	const result = await run(credentials, createFromUrl(sourceUrl, options), [{}], {
		onError: 'continueRegularOutput',
	});
	const listed = itemsOf(
		await run(credentials, { resource: 'job', operation: 'getMany', returnAll: true }),
	);
	return { json: result.items[0]?.json ?? {}, jobs: listed.filter((item) => item.json.id) };
}

/** The refusal of a redirect hop: the target's link, where it is, and its class. */
const refusal = (link: string, where: string) =>
	`The 'Source URL' redirects to ${link}, which ${where}, a loopback address: not fetched [item 0]`;

describe('Source URL: every redirect hop is checked', () => {
	test(
		'a 302 or 307 from an allowed server to a loopback target is refused, naming the target and its ' +
			'class, and the target receives no connection',
		async () => {
			undo.push(useResolver(testResolver));
			const origin = `http://${publicName}:${firstPort}`;
			for (const status of [302, 307]) {
				for (const { link, where } of targets()) {
					const { json, jobs } = await attempt(redirectTo(origin, status, link));
					expect([status, json.error]).toEqual([status, refusal(link, where)]);
					expect(json.description).toMatch(/Options > Allow Private Network Addresses/);
					expect(jobs).toHaveLength(0);
				}
			}
			// The first hop passed the policy every time (pinned to the stand-in, the name still its host).
			expect(first.paths).toHaveLength(2 * targets().length);
			expect(first.paths.every((path) => path.startsWith('/redirect?'))).toBe(true);
			expect(new Set(first.hosts)).toEqual(new Set([`${publicName}:${firstPort}`]));
			expect(target).toEqual({ paths: [], hosts: [], connections: 0 });
		},
	);

	test('a relative redirect stays on the allowed first host and is followed', async () => {
		undo.push(useResolver(testResolver));
		const { json, jobs } = await attempt(`http://${publicName}:${firstPort}/relative`);
		expect(json.error).toBeUndefined();
		expect(json.sourceFile).toBe('Star.JEF');
		expect(jobs).toHaveLength(1);
		expect(first.paths).toEqual(['/relative', '/Star.JEF']);
		expect(target).toEqual({ paths: [], hosts: [], connections: 0 });
	});

	test(
		'with Allow Private Network Addresses on, the same redirects are followed and each target ' +
			'receives exactly one request',
		async () => {
			undo.push(useResolver(testResolver));
			const credentials = await env.credentials();
			for (const { link } of targets()) {
				target.paths.length = 0;
				const [created] = itemsOf(
					await run(
						credentials,
						createFromUrl(redirectTo(`http://${publicName}:${firstPort}`, 302, link), {
							allowPrivateNetworks: true,
						}),
					),
				);
				expect([link, created.json.sourceFile, target.paths]).toEqual([
					link,
					'Star.JEF',
					['/Star.JEF'],
				]);
			}
		},
	);

	test(
		'without a resolver (as on n8n 1.x), a redirect to a loopback address is refused before ' +
			'connecting, and one to a name is refused on the socket that answered',
		async () => {
			undo.push(useResolver(null));
			const origin = `http://${publicStandIn}:${firstPort}`;
			for (const { link, where } of targets().slice(0, 2)) {
				const { json, jobs } = await attempt(redirectTo(origin, 302, link));
				expect([link, json.error]).toEqual([link, refusal(link, where)]);
				expect(jobs).toHaveLength(0);
			}
			expect(target).toEqual({ paths: [], hosts: [], connections: 0 });

			// A name is judged by the address its answer came from, so that hop reaches the target once; its
			// answer is dropped unread. n8n 2.x's client (this harness) exposes no socket: refused as unreadable.
			const link = `http://localhost:${targetPort}/Star.JEF`;
			const { json, jobs } = await attempt(redirectTo(origin, 302, link));
			expect(json.error).toBe(
				`The 'Source URL' redirects to ${link}, which was answered from an address the node ` +
					'could not read, so it was not fetched [item 0]',
			);
			expect(jobs).toHaveLength(0);
			expect(target.paths).toEqual(['/Star.JEF']);
		},
	);

	test('only a loopback address can stand for a public server', () => {
		for (const address of ['10.0.0.1', '169.254.169.254', 'fd00::1', 'localhost']) {
			expect(() => treatLoopbackAsPublic(address)).toThrow(
				`${address} is not a loopback address; only one can stand for a public server`,
			);
		}
	});
});
