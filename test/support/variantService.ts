/**
 * The one loopback proxy in front of the real sandbox: it records every request (route, headers, the status
 * answered) and gives spec-valid variants of the service: real jobs, real files, answers rewritten the way
 * another implementation of the spec may give them. Each test picks a variant: `lean` (only the spec's required
 * fields), `extra` (unknown fields everywhere, null wherever the spec allows it), and per-request behaviours:
 * answer with a status, redirect, never answer, stall or trickle a file, drop the connection after the request
 * reached the sandbox, or rewrite an answer's JSON or headers. Without a rule it passes everything on as it
 * came, streamed both ways (so 50 MB bodies stay streamed).
 */
import { createServer, request as forward } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

import { forwardBody, listenOnLoopback } from './loopback';
import { routeOf } from './serviceRoutes';
import type { TestClock } from './testClock';

type Json = Record<string, unknown>;

export interface SeenRequest {
	method: string;
	/** `GET /jobs`, `GET /jobs/conversion/{id}`, `GET /uploads/{id}/preview`… */
	route: string;
	url: string;
	headers: IncomingHttpHeaders;
	/** What the variant did with it. */
	handling: string;
	/** The HTTP status the client got, or 0 while none (or when the connection closed without one). */
	status: number;
}

/** What the variant does with one request; undefined passes it to the sandbox (rewritten by the body variant). */
export type Behaviour =
	| { status: number; body?: unknown; headers?: Record<string, string> }
	| { redirectTo: string; status?: number }
	| { hang: true }
	/**
	 * Forwards to the sandbox, then closes the connection instead of answering: the request took
	 * effect, its answer is lost.
	 */
	| { dropAnswer: true }
	/** Sends the file's first bytes, then nothing more (the connection stays open). */
	| { stallAfterBytes: number }
	/** Sends the file in `chunks` parts, one every `everyMs` (the first at once). */
	| { trickle: { chunks: number; everyMs: number } }
	| { rewrite: (body: Json) => Json }
	/**
	 * Passes the request on after this long: of `clock` when given (a driven test clock then skips the wait while
	 * the request is parked on it, test/support/testClock.ts), else of the wall clock.
	 */
	| { delayMs: number; clock?: TestClock }
	| { headers: Record<string, string> };

export type BodyVariant = 'asIs' | 'lean' | 'extra';

/** Decides a request's behaviour; it may wait for other work first (the request is held meanwhile). */
export type Rule = (request: SeenRequest) => Behaviour | undefined | Promise<Behaviour | undefined>;

const pick = (object: unknown, keys: string[]): Json => {
	const source = (object ?? {}) as Json;
	return Object.fromEntries(keys.filter((key) => key in source).map((key) => [key, source[key]]));
};

const freeUsage = (usage: unknown) =>
	pick(usage, [
		'limited',
		'previewRemaining',
		'creditBalance',
		'digitisingCreditCost',
		'conversionCreditCost',
	]);
const jobSummary = (job: unknown) => pick(job, ['id', 'status', 'workflow']);
/** A detailed job with only its required fields, plus the file lists: a job's files exist nowhere else. */
const leanJob = (job: unknown) =>
	pick(job, ['id', 'status', 'formats', 'warnings', 'downloadsUnlocked', 'outputs', 'artifacts']);

/** Every answer reduced to what the spec marks required (spec: Resources and their fields). */
export function leanAnswer(route: string, body: Json): Json {
	if (route === 'GET /jobs') {
		return {
			data: ((body.data as unknown[]) ?? []).map((item) =>
				pick(item, ['id', 'kind', 'status', 'formats', 'downloadsUnlocked']),
			),
		};
	}
	if (route === 'POST /jobs') {
		return {
			message: body.message,
			job: jobSummary(body.job),
			jobs: ((body.jobs as unknown[]) ?? []).map(jobSummary),
			freeUsage: pick(body.freeUsage, ['previewRemaining', 'creditBalance']),
		};
	}
	if (/^GET \/jobs\/\w+\/\{id\}$/.test(route)) return { job: leanJob(body.job) };
	if (route.endsWith('/unlock')) return { message: body.message, job: leanJob(body.job) };
	if (route.endsWith('/retry')) return { message: body.message, job: jobSummary(body.job) };
	if (route === 'GET /usage') return { freeUsage: freeUsage(body.freeUsage) };
	if (route === 'GET /formats') {
		return {
			data: ((body.data as unknown[]) ?? []).map((format) =>
				pick(format, ['format', 'label', 'readable', 'writable', 'warning']),
			),
			artworkInputs: body.artworkInputs,
		};
	}
	return body;
}

/** Fields the spec allows to be null, per resource. */
const nullable: Record<string, string[]> = {
	job: [
		'provider',
		'metrics',
		'failureCode',
		'failureReason',
		'unlock',
		'createdAt',
		'completedAt',
	],
	listItem: ['preview', 'output', 'metrics', 'failureReason'],
	freeUsage: ['dailyResetsAt', 'monthlyResetsAt', 'subscriptionPlanSlug', 'subscriptionRenewsAt'],
};

function withExtras(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(withExtras);
	if (value === null || typeof value !== 'object') return value;
	const copy: Json = {};
	for (const [key, inner] of Object.entries(value as Json)) copy[key] = withExtras(inner);
	copy.vendorExtension = { addedBy: 'variant service', nested: [1, 'two', null] };
	return copy;
}

function nulled(object: unknown, keys: string[]): void {
	if (!object || typeof object !== 'object') return;
	for (const key of keys) (object as Json)[key] = null;
}

/**
 * A detailed job with null in every field the spec allows, and in each file's signed URL the node does not
 * use for it: a source's and an output's previewUrl, a preview artifact's downloadUrl.
 */
function nulledJob(job: unknown): void {
	if (!job || typeof job !== 'object') return;
	const record = job as Json;
	nulled(record, nullable.job);
	nulled(record.source, ['previewUrl']);
	for (const output of (record.outputs as unknown[]) ?? []) nulled(output, ['previewUrl']);
	for (const artifact of (record.artifacts as unknown[]) ?? []) nulled(artifact, ['downloadUrl']);
}

/**
 * Unknown fields on every object, and null in every field the spec allows to be null, whatever the sandbox
 * said: listing entries give null for preview and output, so files come from the detail, and a source's
 * previewUrl is null wherever it appears.
 */
export function extraAnswer(route: string, body: Json): Json {
	const copy = withExtras(body) as Json;
	copy.topLevelExtra = 'ignored';
	if (route === 'GET /jobs') {
		for (const item of (copy.data as Json[]) ?? []) {
			nulled(item, nullable.listItem);
			nulled(item.source, ['previewUrl']);
		}
	}
	if (/^(GET \/jobs\/\w+\/\{id\}|POST \/jobs\/\w+\/\{id\}\/unlock)$/.test(route))
		nulledJob(copy.job);
	if (['GET /jobs', 'POST /jobs', 'GET /usage'].includes(route))
		nulled(copy.freeUsage, nullable.freeUsage);
	return copy;
}

function sendJson(
	response: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
) {
	response.writeHead(status, { 'content-type': 'application/json', ...headers });
	response.end(JSON.stringify(body));
}

async function readAll(stream: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of stream) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

export async function startVariantService(sandboxOrigin: string) {
	const requests: SeenRequest[] = [];
	const state: { variant: BodyVariant; rules: Rule[] } = { variant: 'asIs', rules: [] };
	const hanging = new Set<ServerResponse>();

	const server = createServer(async (incoming, outgoing) => {
		const seen: SeenRequest = {
			method: incoming.method ?? '',
			route: routeOf(incoming.method ?? '', incoming.url ?? ''),
			url: incoming.url ?? '',
			headers: { ...incoming.headers },
			handling: 'passed',
			status: 0,
		};
		requests.push(seen);
		let behaviour: Behaviour | undefined;
		for (const rule of [...state.rules]) {
			behaviour = await rule(seen);
			if (behaviour) break;
		}
		if (behaviour && 'redirectTo' in behaviour) {
			seen.handling = `redirected to ${behaviour.redirectTo}`;
			seen.status = behaviour.status ?? 302;
			await readAll(incoming);
			outgoing.writeHead(behaviour.status ?? 302, {
				location: behaviour.redirectTo,
				'content-type': 'text/plain',
			});
			return void outgoing.end('Moved');
		}
		if (behaviour && 'status' in behaviour) {
			seen.handling = `answered ${behaviour.status}`;
			seen.status = behaviour.status;
			await readAll(incoming);
			const body = behaviour.body ?? { message: `Answered ${behaviour.status} by the variant.` };
			return sendJson(outgoing, behaviour.status, body, behaviour.headers);
		}
		if (behaviour && 'delayMs' in behaviour) {
			const delayMs = behaviour.delayMs;
			seen.handling = `delayed ${delayMs} ms`;
			if (behaviour.clock) await behaviour.clock.delayAnswer(delayMs, incoming.socket.remotePort);
			else await new Promise((resolve) => setTimeout(resolve, delayMs));
		}
		if (behaviour && 'hang' in behaviour) {
			seen.handling = 'never answered';
			hanging.add(outgoing);
			outgoing.on('close', () => {
				hanging.delete(outgoing);
				seen.handling = 'never answered, then closed by the client';
			});
			return;
		}
		const upstream = forward(
			`${sandboxOrigin}${incoming.url}`,
			{ method: incoming.method, headers: incoming.headers },
			async (answer) => {
				const type = String(answer.headers['content-type'] ?? '');
				// A connection the sandbox drops is dropped towards the client too.
				answer.on('error', () => outgoing.destroy());
				if (behaviour && 'dropAnswer' in behaviour) {
					seen.handling = `dropped the answer (${answer.statusCode})`;
					await readAll(answer);
					return void outgoing.socket?.destroy();
				}
				seen.status = answer.statusCode ?? 502;
				if (behaviour && 'stallAfterBytes' in behaviour) {
					const bytes = await readAll(answer);
					outgoing.writeHead(answer.statusCode ?? 502, {
						'content-type': type,
						'content-length': String(bytes.length),
					});
					outgoing.write(bytes.subarray(0, behaviour.stallAfterBytes));
					seen.handling = 'stalled';
					hanging.add(outgoing);
					outgoing.on('close', () => {
						hanging.delete(outgoing);
						seen.handling = 'stalled, then closed by the client';
					});
					return;
				}
				if (behaviour && 'trickle' in behaviour) {
					const bytes = await readAll(answer);
					const { chunks, everyMs } = behaviour.trickle;
					const size = Math.ceil(bytes.length / chunks);
					outgoing.writeHead(answer.statusCode ?? 502, {
						'content-type': type,
						'content-length': String(bytes.length),
					});
					for (let part = 0; part < chunks; part++) {
						if (part > 0) await new Promise((resolve) => setTimeout(resolve, everyMs));
						outgoing.write(bytes.subarray(part * size, (part + 1) * size));
					}
					seen.handling = `trickled in ${chunks} chunks`;
					return void outgoing.end();
				}
				const headers = {
					...answer.headers,
					...(behaviour && 'headers' in behaviour ? behaviour.headers : {}),
				};
				const rewrite = behaviour && 'rewrite' in behaviour ? behaviour.rewrite : undefined;
				if (!type.includes('application/json') || (state.variant === 'asIs' && !rewrite)) {
					outgoing.writeHead(answer.statusCode ?? 502, headers);
					return void answer.pipe(outgoing);
				}
				let body = JSON.parse((await readAll(answer)).toString('utf8')) as Json;
				const ok = (answer.statusCode ?? 500) < 300;
				if (ok && state.variant === 'lean') body = leanAnswer(seen.route, body);
				if (ok && state.variant === 'extra') body = extraAnswer(seen.route, body);
				if (rewrite) body = rewrite(body);
				const text = JSON.stringify(body);
				delete headers['content-length'];
				delete headers['transfer-encoding'];
				outgoing.writeHead(answer.statusCode ?? 502, {
					...headers,
					'content-length': String(Buffer.byteLength(text)),
				});
				outgoing.end(text);
			},
		);
		forwardBody(incoming, upstream);
	});
	const loopback = await listenOnLoopback(server, { keepAliveMs: 1000 });
	return {
		origin: loopback.origin,
		baseUrl: loopback.baseUrl,
		requests,
		/** How JSON answers are shaped from now on. */
		answer(variant: BodyVariant): void {
			state.variant = variant;
		},
		/** Adds a rule; the first rule with a behaviour for a request decides. Returns what removes it. */
		on(rule: Rule): () => void {
			state.rules.push(rule);
			return () => {
				state.rules = state.rules.filter((kept) => kept !== rule);
			};
		},
		reset(): void {
			state.variant = 'asIs';
			state.rules = [];
			requests.splice(0);
		},
		/** The requests since the last call. */
		take(): SeenRequest[] {
			return requests.splice(0);
		},
		/** Requests of one route, in order. */
		of(route: string): SeenRequest[] {
			return requests.filter((request) => request.route === route);
		},
		close: async () => {
			for (const response of hanging) response.destroy();
			await loopback.close();
		},
	};
}

export type VariantService = Awaited<ReturnType<typeof startVariantService>>;

/** A server on another origin that records what reaches it (to see whether the API key did) and serves a small file. */
export async function startOtherOrigin() {
	const requests: SeenRequest[] = [];
	const server = createServer((incoming, outgoing) => {
		requests.push({
			method: incoming.method ?? '',
			route: `${incoming.method} ${incoming.url}`,
			url: incoming.url ?? '',
			headers: { ...incoming.headers },
			handling: 'served',
			status: 200,
		});
		if ((incoming.url ?? '').startsWith('/files/')) {
			outgoing.writeHead(200, {
				'content-type': 'image/png',
				'content-disposition': 'inline; filename="from-cdn.png"',
			});
			return void outgoing.end(Buffer.from('PNG bytes from the other origin'));
		}
		sendJson(outgoing, 200, {
			freeUsage: {
				limited: false,
				previewRemaining: 0,
				creditBalance: 999,
				digitisingCreditCost: 1,
				conversionCreditCost: 1,
			},
		});
	});
	const { origin, close } = await listenOnLoopback(server);
	return { origin, requests, close };
}
