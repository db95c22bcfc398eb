/**
 * scripts/n8n.ts's LocalN8n.rest() while n8n's database ping has failed: n8n pings its database every 2 s and,
 * until a ping passes again, answers every request 503 "Database is not ready!" before any route sees it (a
 * queue-mode run on a busy machine lost its setup to one such answer). The n8n here is a loopback HTTP server
 * that answers as n8n 2.41 does in that state.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { LocalN8n } from '../../scripts/n8n';

describe('LocalN8n.rest() while n8n says its database is not ready', () => {
	let server: Server;
	let folder: string;
	const heard: string[] = [];
	/** Readiness probes still to fail before the database is back; the 503 n8n sends meanwhile. */
	let failingProbes = 0;
	let unavailable = '';

	beforeEach(async () => {
		heard.length = 0;
		folder = mkdtempSync(join(tmpdir(), 'embroidery-rest-'));
		server = createServer((request, response) => {
			const path = request.url ?? '';
			if (path === '/healthz/readiness') {
				const ready = failingProbes === 0;
				if (!ready) failingProbes--;
				if (ready) unavailable = '';
				heard.push(`${path} ${ready ? 200 : 503}`);
				response
					.writeHead(ready ? 200 : 503)
					.end(JSON.stringify({ status: ready ? 'ok' : 'error' }));
			} else if (path === '/rest/login') {
				heard.push(`${path} 401`);
				response.writeHead(401).end('{}');
			} else if (unavailable) {
				heard.push(`${request.method} ${path} 503`);
				response.writeHead(503, { 'content-type': 'application/json' }).end(unavailable);
			} else {
				heard.push(`${request.method} ${path} 200`);
				response
					.writeHead(200, { 'content-type': 'application/json' })
					.end(JSON.stringify({ data: { exists: true } }));
			}
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	});

	afterEach(async () => {
		await new Promise<void>((resolve) => server.close(() => resolve()));
		rmSync(folder, { recursive: true, force: true });
	});

	async function n8n(): Promise<LocalN8n> {
		const { port } = server.address() as AddressInfo;
		return await LocalN8n.attach(
			{ userFolder: folder },
			{ pid: process.pid, startedBy: process.pid, port },
		);
	}

	it('waits until n8n is ready again and sends the request once more', async () => {
		unavailable = JSON.stringify({ code: 503, message: 'Database is not ready!' });
		failingProbes = 1;
		const answer = await (await n8n()).rest('GET', '/rest/workflows/embroideryExJobs/exists');
		expect(answer).toEqual({ exists: true });
		expect(heard).toEqual([
			'GET /rest/workflows/embroideryExJobs/exists 503',
			'/healthz/readiness 503',
			'/healthz/readiness 200',
			'/rest/login 401',
			'GET /rest/workflows/embroideryExJobs/exists 200',
		]);
	});

	it('throws any other 503 at once, with what n8n said', async () => {
		unavailable = JSON.stringify({ code: 503, message: 'Service Unavailable' });
		await expect((await n8n()).rest('POST', '/rest/workflows', { name: 'x' })).rejects.toThrow(
			'n8n POST /rest/workflows answered 503: {"code":503,"message":"Service Unavailable"}',
		);
		expect(heard).toEqual(['POST /rest/workflows 503']);
	});
});
