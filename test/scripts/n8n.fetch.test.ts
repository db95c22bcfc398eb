/**
 * scripts/n8n.ts's fetchN8n: the harness's requests to n8n go each on a connection of its own, so none can be sent
 * on a kept-alive socket just as n8n closes it. The server here stands in for that moment: a request that arrives
 * on a connection it has already answered is reset, as n8n's closing socket answers one ("read ECONNRESET").
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';

import { fetchN8n } from '../../scripts/n8n';
import { listenOnLoopback, type Loopback } from '../support/loopback';

describe('fetchN8n', () => {
	const answered = new WeakSet<Socket>();
	const received: IncomingHttpHeaders[] = [];
	let resets = 0;
	let server: Loopback;

	beforeAll(async () => {
		const http = createServer((request, response) => {
			if (answered.has(request.socket)) {
				resets += 1;
				request.socket.resetAndDestroy();
				return;
			}
			answered.add(request.socket);
			received.push(request.headers);
			response.setHeader('content-type', 'application/json');
			response.end(JSON.stringify({ data: received.length }));
		});
		server = await listenOnLoopback(http);
	});

	afterAll(async () => {
		await server.close();
	});

	it('sends each request on a fresh connection that asks to be closed, keeping the caller’s headers', async () => {
		const answers: unknown[] = [];
		for (let request = 0; request < 10; request += 1) {
			const response = await fetchN8n(`${server.origin}/rest/workflows`, {
				method: 'POST',
				headers:
					request % 2 === 0
						? { 'content-type': 'application/json', cookie: 'n8n-auth=harness' }
						: new Headers({ 'content-type': 'application/json', cookie: 'n8n-auth=harness' }),
				body: '{}',
			});
			answers.push(await response.json());
		}

		expect(resets).toBe(0);
		expect(answers).toEqual(Array.from({ length: 10 }, (_, index) => ({ data: index + 1 })));
		expect(
			received.map((headers) => [headers.connection, headers.cookie, headers['content-type']]),
		).toEqual(Array.from({ length: 10 }, () => ['close', 'n8n-auth=harness', 'application/json']));
	});
});
