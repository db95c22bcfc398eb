import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { Socket } from 'node:net';

import {
	JobAcceptedSchema,
	UsageResponseSchema,
	defaultRetryPolicy,
	embroideryApiRequest,
	routes,
} from '../../../../nodes/Embroidery/transport';
import type { RetryPolicy } from '../../../../nodes/Embroidery/transport/retryPolicy';
import { caughtApiError, runNode, withinNodeExecution } from '../../../support/nodeRun';
import { registerNodeType, testNodeType } from '../../../support/nodeTypes';
import { sendJson, startScriptedServer } from '../../support/scriptedServer';
import { listenOnLoopback } from '../../../support/loopback';
import { TestClock, useTestClock } from '../../../support/testClock';
import {
	limitedUsage as usage,
	queuedJob as job,
	secretApiKey as apiKey,
} from '../../support/fakeJobs';

// Refusals the service acted on in no way (429, an upload cut off before it was read) are repeated within a
// time budget, not a count; everything here runs over real HTTP through n8n-core's own request helpers.

jest.setTimeout(120_000);

// The waits between tries (backoff, Retry-After) run on a driven clock, which the scripted servers read too; a
// key's pause and the two workers against a strict window keep real time on purpose.
const clock = new TestClock();

const accepted = { message: 'Accepted', job, jobs: [job] };
/** Short waits so a storm of many refusals fits in a test; the budget is what bounds it. */
const quickPolicy: RetryPolicy = {
	...defaultRetryPolicy,
	baseDelayMs: 100,
	maxDelayMs: 400,
	maxJitterMs: 50,
	refusedBudgetMs: 20_000,
};

const caught = caughtApiError;

function getUsage(baseUrl: string, retryPolicy?: RetryPolicy) {
	return withinNodeExecution({ apiKey, baseUrl }, async (context) =>
		embroideryApiRequest.call(context, {
			...routes.getUsage(),
			schema: UsageResponseSchema,
			retryPolicy,
		}),
	);
}

/** An upload of `size` bytes: big enough that the server can cut it off before it has all been written. */
function upload(size: number): FormData {
	const form = new FormData();
	form.append('workflow', 'conversion');
	form.append('file', new Blob([new Uint8Array(size).fill(7)]), 'design.png');
	return form;
}

function createJob(baseUrl: string, size: number) {
	return withinNodeExecution({ apiKey, baseUrl }, async (context) =>
		embroideryApiRequest.call(context, {
			...routes.createJobs(),
			body: upload(size),
			schema: JobAcceptedSchema,
		}),
	);
}

const head = (status: string, headers: string[]) =>
	[`HTTP/1.1 ${status}`, ...headers, '', ''].join('\r\n');

/**
 * A raw TCP server speaking HTTP/1.1 with one script per connection, so it can do what a real front end
 * does to a refused upload: answer and close before reading the body, or reset the connection mid-upload.
 */
async function startRawServer(scripts: Array<(socket: Socket, received: () => Buffer) => void>) {
	const connections: Buffer[] = [];
	const server = createTcpServer((socket) => {
		const index = connections.length;
		connections.push(Buffer.alloc(0));
		const script = scripts[Math.min(index, scripts.length - 1)];
		socket.on('error', () => undefined);
		socket.on('data', (chunk: Buffer) => {
			connections[index] = Buffer.concat([connections[index], chunk]);
		});
		script(socket, () => connections[index]);
	});
	const { baseUrl, close } = await listenOnLoopback(server);
	return { baseUrl, connections, close };
}

/** Calls `then` once the connection has received `bytes` bytes (the headers and the start of the body). */
function after(socket: Socket, received: () => Buffer, bytes: number, then: () => void) {
	const check = () => {
		if (received().length < bytes) return;
		socket.off('data', check);
		then();
	};
	socket.on('data', check);
}

/** Reads one whole request (headers and a Content-Length or chunked body), then answers 202. */
function acceptWholeUpload(socket: Socket, received: () => Buffer) {
	const check = () => {
		const text = received().toString('latin1');
		const end = text.indexOf('\r\n\r\n');
		if (end < 0) return;
		const length = /content-length:\s*(\d+)/i.exec(text.slice(0, end));
		const complete = length
			? received().length >= end + 4 + Number(length[1])
			: text.endsWith('0\r\n\r\n');
		if (!complete) return;
		socket.off('data', check);
		const body = JSON.stringify(accepted);
		socket.end(
			head('202 Accepted', [
				'Content-Type: application/json',
				`Content-Length: ${Buffer.byteLength(body)}`,
				'Connection: close',
			]) + body,
		);
	};
	socket.on('data', check);
}

/** Whether a connection carried a complete multipart upload (its closing boundary arrived). */
function completeUpload(bytes: Buffer): boolean {
	const text = bytes.toString('latin1');
	const boundary = /boundary=([^\r\n;]+)/i.exec(text);
	return boundary !== null && text.includes(`--${boundary[1]}--`);
}

describe('refusals are repeated within a time budget', () => {
	useTestClock(clock);

	test('a 429 storm longer than 5 tries but shorter than the budget ends in success', async () => {
		const server = await startScriptedServer((_request, response, count) =>
			count <= 8
				? sendJson(response, 429, { message: 'Slow down' }, { 'retry-after': '0' })
				: sendJson(response, 200, usage),
		);
		try {
			const answer = await getUsage(server.baseUrl, quickPolicy);
			expect(answer.freeUsage.creditBalance).toBe(5);
			expect(server.requests).toHaveLength(9);
		} finally {
			await server.close();
		}
	});

	test('a request that waited its turn for longer than the budget still gets the budget for its 429s', async () => {
		// 55 requests use up the execution's minute (its pacer), so the 56th waits about a minute for its turn, three
		// times the budget; then its first try is refused. It is sent again, not failed as "still refused".
		const server = await startScriptedServer((_request, response, count) =>
			count === 56
				? sendJson(response, 429, { message: 'Slow down' }, { 'retry-after': '1' })
				: sendJson(response, 200, usage),
		);
		try {
			const started = clock.now();
			const answers = await withinNodeExecution(
				{ apiKey, baseUrl: server.baseUrl },
				async (context) => {
					const all = [];
					for (let request = 1; request <= 56; request++)
						all.push(
							await embroideryApiRequest.call(context, {
								...routes.getUsage(),
								schema: UsageResponseSchema,
								retryPolicy: quickPolicy,
							}),
						);
					return all;
				},
			);
			expect(clock.now() - started).toBeGreaterThan(quickPolicy.refusedBudgetMs);
			expect(answers).toHaveLength(56);
			expect(server.requests).toHaveLength(57);
		} finally {
			await server.close();
		}
	});

	test('a 429 storm that outlasts the budget fails with the 429, having backed off, not hammered', async () => {
		const times: number[] = [];
		const server = await startScriptedServer((_request, response) => {
			times.push(clock.now());
			sendJson(response, 429, { message: 'Slow down' }, { 'retry-after': '0' });
		});
		try {
			const started = clock.now();
			const error = await caught(
				getUsage(server.baseUrl, { ...quickPolicy, refusedBudgetMs: 2500 }),
			);
			expect(error.httpCode).toBe('429');
			expect(error.message).toContain('Slow down');
			expect(clock.now() - started).toBeLessThan(2500 + 1000);
			// "Retry-After: 0" again and again: from the second refusal on the waits grow (100, 200, 400 ms...).
			expect(times.length).toBeGreaterThanOrEqual(5);
			expect(times.length).toBeLessThanOrEqual(12);
			const gaps = times.slice(1).map((time, index) => time - times[index]);
			expect(gaps.slice(2).every((gap) => gap >= 190)).toBe(true);
		} finally {
			await server.close();
		}
	});

	test('5xx answers to a GET are still tried 5 times only', async () => {
		const server = await startScriptedServer((_request, response) =>
			sendJson(response, 503, { message: 'Down' }),
		);
		try {
			const error = await caught(getUsage(server.baseUrl, quickPolicy));
			expect(error.httpCode).toBe('503');
			expect(server.requests).toHaveLength(5);
		} finally {
			await server.close();
		}
	});

	test('a 429 pauses every request of the key until its Retry-After, then they all complete (real time)', async () => {
		const times: Array<{ at: number; status: number }> = [];
		let pausedUntil = 0;
		const server = await startScriptedServer((_request, response) => {
			const now = Date.now();
			// One 429 on the 5th request: "come back in 2 s"; anything arriving earlier is refused again.
			if (times.length === 4 || now < pausedUntil) {
				if (pausedUntil === 0) pausedUntil = now + 2000;
				times.push({ at: now, status: 429 });
				return sendJson(response, 429, { message: 'Too many' }, { 'retry-after': '2' });
			}
			times.push({ at: now, status: 200 });
			sendJson(response, 200, usage);
		});
		// Real time on purpose: requests start 100 ms apart so each sees the pause the 429 before it set.
		const resume = clock.pause();
		/** The node has taken the 429 and waits out its 2 s: a wait of more than a second is on the clock. */
		const pauseTaken = () => (clock.nextWakeAt ?? 0) > clock.now() + 1000;
		try {
			await withinNodeExecution({ apiKey, baseUrl: server.baseUrl }, async (context) => {
				const one = () =>
					embroideryApiRequest.call(context, { ...routes.getUsage(), schema: UsageResponseSchema });
				await Promise.all([one(), one(), one(), one()]);
				// Then 8 more, one started every 100 ms: all but the first start after the 429 and during its pause.
				// The second waits until the node has taken the 429 (at load average 90 it reached the service
				// before the 429 reached the node).
				const later = [];
				for (let index = 0; index < 8; index++) {
					later.push(one());
					await new Promise((resolve) => setTimeout(resolve, 100));
					for (let waited = 0; index === 0 && !pauseTaken() && waited < 60_000; waited += 20)
						await new Promise((resolve) => setTimeout(resolve, 20));
				}
				await Promise.all(later);
			});
			// The requests that came after the 429 waited for the pause instead of being refused too.
			expect(times.filter((time) => time.status === 429)).toHaveLength(1);
			expect(times.filter((time) => time.status === 200)).toHaveLength(12);
			const afterPause = times.filter((time) => time.status === 200 && time.at > times[4].at);
			expect(afterPause.every((time) => time.at >= pausedUntil)).toBe(true);
		} finally {
			resume();
			await server.close();
		}
	});
});

/** A node that runs `work` once with its execution's context. */
describe('two workers share one key', () => {
	test(
		'two executions in parallel, each with its own pacers, finish a burst against a strict ' +
			'window with no failure (real time)',
		async () => {
			// The service: at most 10 requests per 2 s per API key, wherever they come from; the two "workers"
			// reach it on two ports, so they learn nothing from each other (like two processes).
			const limit = 10;
			const windowMs = 2000;
			const acceptedAt: number[] = [];
			let refused = 0;
			const handle = (request: IncomingMessage, response: ServerResponse) => {
				request.resume();
				request.on('end', () => {
					if (request.headers.authorization !== `Bearer ${apiKey}`)
						return sendJson(response, 401, { message: 'Unauthenticated.' });
					const now = Date.now();
					const recent = acceptedAt.filter((time) => now - time < windowMs);
					if (recent.length >= limit) {
						refused++;
						const seconds = Math.ceil((recent[0] + windowMs - now) / 1000);
						return sendJson(
							response,
							429,
							{ message: 'Rate limit exceeded: at most 10 per 2 s per API key' },
							{ 'retry-after': String(seconds) },
						);
					}
					acceptedAt.push(now);
					sendJson(response, 200, usage);
				});
			};
			const servers = await Promise.all([
				listenOnLoopback(createHttpServer(handle)),
				listenOnLoopback(createHttpServer(handle)),
			]);
			try {
				// Each worker is its own node type and its own n8n execution (the harness's probe runs one at a time).
				const worker = async (baseUrl: string, index: number) => {
					const failures: unknown[] = [];
					const nodeType = `test.worker${index}`;
					registerNodeType(
						nodeType,
						testNodeType('worker', 'Sends a burst of requests', async (context) => {
							const one = () =>
								embroideryApiRequest.call(context, {
									...routes.getUsage(),
									schema: UsageResponseSchema,
								});
							for (let round = 0; round < 3; round++) {
								for (const result of await Promise.allSettled(Array.from({ length: 16 }, one))) {
									if (result.status === 'rejected') failures.push(result.reason);
								}
							}
						}),
					);
					const run = await runNode({ parameters: {}, credentials: { apiKey, baseUrl }, nodeType });
					if (run.error) throw run.error;
					if (failures.length > 0) throw failures[0];
				};
				const results = await Promise.allSettled(
					servers.map((server, index) => worker(server.baseUrl, index)),
				);
				for (const result of results)
					if (result.status === 'rejected')
						console.log(String(result.reason), (result.reason as Error).stack);
				expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled']);
				expect(acceptedAt).toHaveLength(96);
				console.log(`two workers, 96 requests at 10 per 2 s: ${refused} answered 429`);
			} finally {
				for (const server of servers) await server.close();
			}
		},
	);
});

describe('an upload cut off before it was sent', () => {
	useTestClock(clock);

	test(
		'a 429 with Connection: close before the body, then a reset mid-upload: the POST is sent ' +
			'again and one job is created',
		async () => {
			const server = await startRawServer([
				(socket, received) =>
					after(socket, received, 1, () => {
						const body = '{"message":"Rate limit exceeded: at most 60 per minute per API key"}';
						socket.end(
							head('429 Too Many Requests', [
								'Content-Type: application/json',
								'Retry-After: 1',
								`Content-Length: ${body.length}`,
								'Connection: close',
							]) + body,
						);
						socket.destroy();
					}),
				(socket, received) => after(socket, received, 64 * 1024, () => socket.resetAndDestroy()),
				acceptWholeUpload,
			]);
			try {
				const answer = await createJob(server.baseUrl, 8_000_000);
				expect(answer.job.id).toBe(job.id);
				expect(server.connections).toHaveLength(3);
				// Only the last connection carried the whole upload: the service got it, and so created the job, once.
				expect(server.connections.map(completeUpload)).toEqual([false, false, true]);
			} finally {
				await server.close();
			}
		},
	);

	test('a POST whose connection is lost after the whole body was sent is not sent again', async () => {
		const server = await startRawServer([
			(socket, received) => {
				const check = () => {
					if (!completeUpload(received())) return;
					socket.off('data', check);
					socket.destroy();
				};
				socket.on('data', check);
			},
			acceptWholeUpload,
		]);
		try {
			const error = await caught(createJob(server.baseUrl, 2_000_000));
			expect(server.connections).toHaveLength(1);
			expect(completeUpload(server.connections[0])).toBe(true);
			expect(error.description).toContain('not repeated automatically');
		} finally {
			await server.close();
		}
	});
});
