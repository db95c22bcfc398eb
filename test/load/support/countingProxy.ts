import { createServer, request as forward } from 'node:http';
import { forwardBody, listenOnLoopback } from '../../support/loopback';
import { routeOf } from '../../support/serviceRoutes';

export interface CountedRequest {
	method: string;
	/** The v1 route with ids replaced: `GET /jobs`, `GET /jobs/conversion/{id}`, `GET /uploads/{id}/preview`. */
	route: string;
	/** HTTP status, or 0 when the connection closed without an answer. */
	status: number;
	/** When the request arrived, in ms since the proxy started. */
	atMs: number;
	/** Every header the client sent, to check that no key travels where it should not. */
	headers: Record<string, string | string[] | undefined>;
}

/** A status for the test's proxy to answer with, or undefined to pass the request on (after any awaited work). */
export type Answer = (
	request: CountedRequest,
	url: string,
) => number | undefined | Promise<number | undefined>;

/**
 * A loopback pass-through proxy in front of the sandbox that records every request the client
 * makes, with the status the sandbox answered (streams both ways, so 50 MB bodies stay streamed).
 * A connection the sandbox drops is dropped towards the client too.
 */
export async function startCountingProxy(origin: string) {
	const requests: CountedRequest[] = [];
	/** Answers chosen by a test for some requests (a status code), instead of passing them to the sandbox. */
	const state: { answer?: Answer } = {};
	const started = Date.now();
	const server = createServer(async (incoming, outgoing) => {
		const counted: CountedRequest = {
			method: incoming.method ?? '',
			route: routeOf(incoming.method ?? '', incoming.url ?? ''),
			status: 0,
			atMs: Date.now() - started,
			headers: { ...incoming.headers },
		};
		requests.push(counted);
		incoming.pause();
		const answer = await state.answer?.(counted, incoming.url ?? '');
		if (answer !== undefined) {
			counted.status = answer;
			incoming.resume();
			outgoing.writeHead(answer, { 'content-type': 'application/json' });
			return void outgoing.end(
				JSON.stringify({ message: `Answered ${answer} by the test's proxy.` }),
			);
		}
		const upstream = forward(
			`${origin}${incoming.url}`,
			{ method: incoming.method, headers: incoming.headers },
			(answer) => {
				counted.status = answer.statusCode ?? 0;
				outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(outgoing);
				answer.on('error', () => outgoing.destroy());
			},
		);
		forwardBody(incoming, upstream);
	});
	const loopback = await listenOnLoopback(server, { keepAliveMs: 1000 });
	return {
		origin: loopback.origin,
		baseUrl: loopback.baseUrl,
		requests,
		/** Lets a test answer chosen requests itself (return a status), or pass them on (return undefined). */
		answerWith(answer?: Answer): void {
			state.answer = answer;
		},
		/** The requests since the last call. */
		take(): CountedRequest[] {
			return requests.splice(0);
		},
		close: loopback.close,
	};
}

export type CountingProxy = Awaited<ReturnType<typeof startCountingProxy>>;

/** Requests per route: `{ 'GET /jobs': 3, 'POST /jobs': 5, … }`. */
export function countByRoute(requests: CountedRequest[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const request of requests) counts[request.route] = (counts[request.route] ?? 0) + 1;
	return counts;
}
