/**
 * What the queue-mode suite asserts and bench/queue.ts prints, run once each in one environment:
 * a burst of shop orders through the webhook example, the trigger example across a restart of
 * main, and a 50 MB file through the database binary mode with the worker's peak memory.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';

import { waitForTriggerBaseline } from '../../../scripts/demo';
import { examplesDir, serveSampleFiles, signBody } from '../../../scripts/examples';
import {
	fetchN8n,
	freePort,
	nodeItems,
	sleep,
	type LocalN8n,
	type WorkflowRun,
} from '../../../scripts/n8n';
import { createJob, waitForJobEnd } from '../../../scripts/sandbox-client';
import { readPattern, writePattern } from '../../../sandbox/engine';
import type { QueueCluster } from './cluster';
import { exampleIds, listJobs, queueOwner, type QueueEnvironment } from './environment';
import { bigFileWorkflows } from './workflows';

const mib = 1024 * 1024;

export interface ExecutionRecord {
	id: string;
	status: string;
	/** The processes whose log says they started this execution (exactly one worker when all is well). */
	ranBy: string[];
}

/** Every finished execution of a workflow, with its run data, read from main over REST. */
async function executionsOf(
	main: LocalN8n,
	workflowId: string,
): Promise<Array<{ id: string; status: string }>> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const { results } = await main.rest<{ results: Array<{ id: string; status: string }> }>(
		'GET',
		`/rest/executions?filter=${filter}&limit=100`,
	);
	return results.filter(({ status }) => !['new', 'running', 'waiting'].includes(status));
}

async function withExecutors(
	cluster: QueueCluster,
	executions: Array<{ id: string; status: string }>,
): Promise<ExecutionRecord[]> {
	const executors = await cluster.executors();
	return executions.map(({ id, status }) => ({ id, status, ranBy: executors.get(id) ?? [] }));
}

function countBy<T>(values: T[]): Map<T, number> {
	const counts = new Map<T, number>();
	for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
	return counts;
}

// ---------------------------------------------------------------------------------------------
// A burst of shop orders

export interface OrderBurst {
	orders: string[];
	seconds: number;
	responses: Array<{ orderId: string; httpStatus: number; body: Record<string, unknown> | string }>;
	executions: Array<ExecutionRecord & { orderId?: string; error?: string }>;
	/** Machine files in the delivery folder, by name. */
	delivered: string[];
	/** The orders account's jobs at the service after the burst. */
	jobs: Array<Record<string, unknown>>;
}

/** Posts `count` orders at once to the shop-order example's webhook and collects where each went. */
export async function runOrderBurst(env: QueueEnvironment, count = 20): Promise<OrderBurst> {
	const { main } = env.cluster;
	const samples = await serveSampleFiles();
	const orders = Array.from({ length: count }, (_, n) => `Q-${String(n + 1).padStart(3, '0')}`);
	const started = performance.now();
	let responses: OrderBurst['responses'];
	try {
		responses = await Promise.all(
			orders.map(async (orderId) => {
				const order = JSON.stringify({
					orderId,
					artworkUrl: `${samples.url}/logo.svg`,
					widthMm: 60,
					colourCount: 2,
					format: 'dst',
				});
				const response = await fetchN8n(`${main.url}/webhook/embroidery-order`, {
					method: 'POST',
					headers: { 'content-type': 'application/json', 'X-Shop-Signature': signBody(order) },
					body: order,
					signal: AbortSignal.timeout(900_000),
				});
				const text = await response.text();
				let body: Record<string, unknown> | string = text;
				try {
					body = JSON.parse(text) as Record<string, unknown>;
				} catch {
					// Kept as text: n8n answered with an error page.
				}
				return { orderId, httpStatus: response.status, body };
			}),
		);
	} finally {
		samples.server.close();
	}
	const seconds = (performance.now() - started) / 1000;
	const finished = await waitForFinished(main, exampleIds.shopOrder, count, 120_000);
	const executions = await Promise.all(
		(await withExecutors(env.cluster, finished)).map(async (execution) => {
			const run = await main.getExecution(execution.id);
			const body = nodeItems(run, 'New order')[0]?.json.body as { orderId?: string } | undefined;
			const error = run.data.resultData.error;
			return {
				...execution,
				orderId: body?.orderId,
				error: error && `${error.node?.name ?? 'workflow'}: ${error.message}`,
			};
		}),
	);
	return {
		orders,
		seconds,
		responses,
		executions,
		delivered: (await readdir(env.folders.orders)).sort(),
		jobs: await listJobs(env.accounts.orders),
	};
}

/** Waits (bounded) until a workflow has at least `count` finished executions. */
async function waitForFinished(
	main: LocalN8n,
	workflowId: string,
	count: number,
	timeoutMs: number,
) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const finished = await executionsOf(main, workflowId);
		if (finished.length >= count || Date.now() > deadline) return finished;
		await sleep(2_000);
	}
}

// ---------------------------------------------------------------------------------------------
// The Embroidery Trigger across a restart of main

export interface TriggerRestart {
	/** Jobs that ended while main ran, while it was stopped, and after it came back. */
	jobs: { before: string[]; whileDown: string[]; after: string[] };
	/** How often the trigger emitted each job, over all its executions. */
	emitted: Map<string, number>;
	executions: ExecutionRecord[];
	/** Machine files the example stored, by name. */
	stored: string[];
	restartSeconds: number;
}

/**
 * The trigger example, published on main: two conversions end and are emitted; main stops, two more
 * end, main starts again; one more ends. Waits until all five are emitted, then one more poll.
 */
export async function runTriggerAcrossRestart(env: QueueEnvironment): Promise<TriggerRestart> {
	const { main } = env.cluster;
	const workflowId = exampleIds.finishedJobs;
	const account = env.accounts.trigger.access;
	const design = {
		name: 'Star.JEF',
		bytes: await readFile(join(examplesDir, 'files', 'Star.JEF')),
	};
	const endJobs = async (count: number) => {
		const created = await Promise.all(
			Array.from(
				{ length: count },
				async () => await createJob(account, { workflow: 'conversion', format: 'pes' }, design),
			),
		);
		await Promise.all(created.map(async (job) => await waitForJobEnd(account, job, 180_000)));
		return created.map(({ id }) => id);
	};
	const runs = new Map<string, WorkflowRun>();
	const emittedNow = async () => {
		for (const { id } of await executionsOf(main, workflowId))
			if (!runs.has(id)) runs.set(id, await main.getExecution(id));
		return countBy(
			[...runs.values()].flatMap((run) =>
				nodeItems(run, 'Job finished').map((item) => String(item.json.id)),
			),
		);
	};
	const waitForEmitted = async (ids: string[], timeoutMs: number) => {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const emitted = await emittedNow();
			if (ids.every((id) => emitted.has(id))) return;
			if (Date.now() > deadline)
				throw new Error(
					`The trigger emitted ${ids.filter((id) => emitted.has(id)).length} of ${ids.length} ` +
						`job endings within ${timeoutMs / 1000} s; see ${main.logFile}`,
				);
			await sleep(3_000);
		}
	};

	await waitForTriggerBaseline(main, workflowId, 150_000);
	const before = await endJobs(2);
	await waitForEmitted(before, 200_000);

	const stopped = performance.now();
	await main.stop();
	const whileDown = await endJobs(2);
	await main.start(300_000);
	await main.signIn(queueOwner);
	await main.waitForActivation([workflowId]);
	const restartSeconds = (performance.now() - stopped) / 1000;

	const after = await endJobs(1);
	await waitForEmitted([...before, ...whileDown, ...after], 240_000);
	// One more poll (every minute) that must bring nothing new.
	await sleep(75_000);
	const emitted = await emittedNow();
	// The workflow's own runs (unlock, download, store) finish after the trigger's items appear.
	const finished = await waitForFinished(main, workflowId, runs.size, 120_000);
	return {
		jobs: { before, whileDown, after },
		emitted,
		executions: await withExecutors(env.cluster, finished),
		stored: (await readdir(env.folders.finished)).sort(),
		restartSeconds,
	};
}

// ---------------------------------------------------------------------------------------------
// 50 MB through the database binary mode

export interface StoredBinary {
	id?: string;
	fileName?: string;
	mimeType?: string;
	fileSize?: string;
	bytes?: number;
}

export interface BigFileRun {
	what: string;
	httpStatus: number;
	seconds: number;
	/** The worker that ran it, its RSS before and its peak RSS during the run (MiB). */
	worker?: string;
	rssBeforeMb?: number;
	peakRssMb?: number;
	stored?: StoredBinary;
	/** What Postgres holds for that binary: its size and sha256. */
	inDatabase?: { bytes: number; sha256: string };
	body: Record<string, unknown>;
}

export interface BigFileTransfers {
	bytes: number;
	sha256: string;
	upload: BigFileRun;
	/** The conversion job the upload created, as the service reports it once it ended. */
	job: Record<string, unknown>;
	download: BigFileRun;
	httpRequest: BigFileRun;
}

/**
 * A real DST design followed by padding up to 50 MiB: DST readers stop at the END code, so the
 * service accepts and converts it quickly while every byte still travels.
 */
export async function bigDesignFile(
	folder: string,
): Promise<{ path: string; bytes: number; sha256: string }> {
	const design = writePattern(
		readPattern(await readFile(join(examplesDir, 'files', 'Star.JEF')), 'jef'),
		'dst',
	).bytes;
	const file = Buffer.alloc(50 * mib);
	file.set(design, 0);
	const path = join(folder, 'queue-50mb.dst');
	await writeFile(path, file);
	return { path, bytes: file.length, sha256: createHash('sha256').update(file).digest('hex') };
}

async function serveFile(path: string): Promise<{ server: Server; url: string }> {
	const { size } = await stat(path);
	const server = createServer((request, response) => {
		response.writeHead(200, {
			'content-type': 'application/octet-stream',
			'content-length': String(size),
			'content-disposition': 'attachment; filename="queue-50mb.dst"',
		});
		createReadStream(path).pipe(response);
	});
	const port = await freePort();
	await new Promise<void>((resolveListen) => server.listen(port, '127.0.0.1', resolveListen));
	return { server, url: `http://127.0.0.1:${port}/queue-50mb.dst` };
}

/**
 * Posts to one of the 50 MB webhooks and reads which worker ran it and its peak resident memory during the
 * run. With `freshWorkers` (the benchmark's figures) the workers start afresh first, so that no run inherits
 * another's garbage; the suite asserts where the bytes go, not how much memory it takes, and spares the six
 * worker boots (about 60 s of CPU).
 */
async function measuredRun(
	env: QueueEnvironment,
	what: string,
	workflow: { id: string; path: string },
	body: unknown,
	freshWorkers: boolean,
): Promise<BigFileRun> {
	const { cluster } = env;
	const seen = new Set((await executionsOf(cluster.main, workflow.id)).map(({ id }) => id));
	if (freshWorkers)
		await Promise.all(cluster.workers.map(async (worker) => await worker.restart()));
	const before = new Map<string, number>();
	for (const worker of cluster.workers) {
		await worker.resetPeakMemory();
		before.set(worker.name, (await worker.memory()).rssMb);
	}
	const started = performance.now();
	const response = await fetchN8n(`${cluster.main.url}/webhook/${workflow.path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(600_000),
	});
	const text = await response.text();
	const seconds = (performance.now() - started) / 1000;
	const peaks = new Map<string, number>();
	for (const worker of cluster.workers) peaks.set(worker.name, (await worker.memory()).peakMb);
	const finished = (await waitForFinished(cluster.main, workflow.id, seen.size + 1, 60_000)).filter(
		({ id }) => !seen.has(id),
	);
	const [execution] = await withExecutors(cluster, finished);
	const worker = execution?.ranBy.length === 1 ? execution.ranBy[0] : undefined;
	let parsed: Record<string, unknown> = {};
	try {
		parsed = JSON.parse(text) as Record<string, unknown>;
	} catch {
		parsed = { text };
	}
	const stored = parsed.stored as StoredBinary | undefined;
	return {
		what,
		httpStatus: response.status,
		seconds,
		worker,
		rssBeforeMb: worker ? before.get(worker) : undefined,
		peakRssMb: worker ? peaks.get(worker) : undefined,
		stored,
		inDatabase: stored?.id ? await storedInDatabase(env, stored.id) : undefined,
		body: parsed,
	};
}

/** n8n's database binary store keeps a file as one row of binary_data; ids read "database:<fileId>". */
async function storedInDatabase(
	env: QueueEnvironment,
	binaryId: string,
): Promise<{ bytes: number; sha256: string } | undefined> {
	const match = /^database:([0-9a-f-]{36})$/i.exec(binaryId);
	if (!match) return undefined;
	const row = (
		await env.services.sql(
			`select octet_length(data), encode(sha256(data), 'hex') from binary_data where "fileId" = '${match[1]}'`,
		)
	).trim();
	if (!row) return undefined;
	const [bytes, sha256] = row.split('\t');
	return { bytes: Number(bytes), sha256 };
}

/**
 * The HTTP Request node fetches the 50 MB file and the Embroidery node uploads it as a job; then,
 * one after the other, the Embroidery node downloads that job's source and the HTTP Request node
 * downloads the same file from a local static server, each with the workers' peak memory reset.
 */
export async function runBigFileTransfers(
	env: QueueEnvironment,
	{ freshWorkers = false }: { freshWorkers?: boolean } = {},
): Promise<BigFileTransfers> {
	const file = await bigDesignFile(env.folders.served);
	const served = await serveFile(file.path);
	try {
		const upload = await measuredRun(
			env,
			'HTTP Request fetch + Embroidery Create upload',
			bigFileWorkflows.upload,
			{ url: served.url },
			freshWorkers,
		);
		const jobId = String(upload.body.jobId ?? '');
		if (!jobId)
			throw new Error(
				`The 50 MB upload created no job: HTTP ${upload.httpStatus} ${JSON.stringify(upload.body)}`,
			);
		const job = await waitForJobEnd(
			env.accounts.files.access,
			{ id: jobId, workflow: 'conversion' },
			300_000,
		);
		const download = await measuredRun(
			env,
			'Embroidery Job > Download (source)',
			bigFileWorkflows.download,
			{ jobId },
			freshWorkers,
		);
		const httpRequest = await measuredRun(
			env,
			"n8n's HTTP Request node download",
			bigFileWorkflows.httpRequest,
			{ url: served.url },
			freshWorkers,
		);
		return { ...file, upload, job, download, httpRequest };
	} finally {
		served.server.close();
	}
}
