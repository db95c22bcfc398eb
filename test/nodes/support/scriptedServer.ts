import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenOnLoopback } from '../../support/loopback';

export interface RecordedRequest {
	method: string;
	url: string;
	headers: IncomingMessage['headers'];
	body: Buffer;
}

export type Handler = (request: RecordedRequest, response: ServerResponse, count: number) => void;

/** A real HTTP server on an ephemeral port whose answers each test scripts; it records every request. */
export async function startScriptedServer(handler: Handler) {
	const requests: RecordedRequest[] = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const recorded = {
				method: req.method ?? '',
				url: req.url ?? '',
				headers: req.headers,
				body: Buffer.concat(chunks),
			};
			requests.push(recorded);
			handler(recorded, res, requests.length);
		});
	});
	const { origin, baseUrl, close } = await listenOnLoopback(server);
	return { origin, baseUrl, requests, close };
}

export function sendJson(
	response: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
) {
	response.writeHead(status, { 'content-type': 'application/json', ...headers });
	response.end(JSON.stringify(body));
}
