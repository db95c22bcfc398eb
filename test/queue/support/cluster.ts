/**
 * n8n in queue mode on this machine: one main (`n8n start`: editor, webhooks, poll triggers) and
 * workers (`n8n worker`) sharing one Postgres and one Redis. Every instance has its own user folder
 * with the package installed in its ~/.n8n/nodes, as n8n documents for queue mode, and the same
 * encryption key. The binary data mode is n8n's default for queue mode: the database.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { fetchN8n, LocalN8n, stopProcessGroup } from '../../../scripts/n8n';
import type { QueueServices } from './services';

export interface QueueClusterOptions {
	root: string;
	services: QueueServices;
	/** Folders the "Read/Write Files from Disk" node may use, on every instance. */
	fileAccess: string[];
	workers?: number;
	/** Jobs one worker runs at once (`n8n worker --concurrency`). */
	concurrency?: number;
}

const encryptionKey = 'embroidery-queue-test';

/** The settings every instance of the cluster shares (n8n's queue-mode documentation). */
export function queueSettings(services: QueueServices): Record<string, string> {
	return {
		EXECUTIONS_MODE: 'queue',
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: services.postgres.host,
		DB_POSTGRESDB_PORT: String(services.postgres.port),
		DB_POSTGRESDB_DATABASE: services.postgres.database,
		DB_POSTGRESDB_USER: services.postgres.user,
		DB_POSTGRESDB_PASSWORD: services.postgres.password,
		QUEUE_BULL_REDIS_HOST: services.redis.host,
		QUEUE_BULL_REDIS_PORT: String(services.redis.port),
		// n8n's default pool is 2 connections, each waited for at most 20 s. A worker running 5 executions at once,
		// each storing its binary data in the database, waits longer than that on a loaded machine: a clean-clone
		// run lost one order's execution to "timeout exceeded when trying to connect".
		DB_POSTGRESDB_POOL_SIZE: '10',
		DB_POSTGRESDB_CONNECTION_TIMEOUT: '120000',
		N8N_LOG_LEVEL: 'info',
	};
}

/** One `n8n worker` process; its health server (loopback, its own port) says when it is ready. */
export class QueueWorker {
	private process?: ChildProcess;

	constructor(
		readonly name: string,
		readonly instance: LocalN8n,
		private readonly concurrency: number,
	) {}

	get pid(): number | undefined {
		return this.process?.pid;
	}

	get logFile(): string {
		return this.instance.logFile;
	}

	async start(timeoutMs = 240_000): Promise<void> {
		if (this.process) throw new Error(`${this.name} is already running.`);
		this.process = await this.instance.launch(
			this.name,
			['worker', `--concurrency=${this.concurrency}`],
			{
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(this.instance.port),
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			},
			() => answers(`${this.instance.url}/healthz/readiness`),
			timeoutMs,
		);
	}

	/** A fresh process: its memory figures start from a clean baseline. */
	async restart(): Promise<void> {
		await this.stop();
		await this.start();
	}

	async stop(timeoutMs = 60_000): Promise<void> {
		const worker = this.process;
		this.process = undefined;
		await stopProcessGroup(worker, timeoutMs);
	}

	/** The ids of the executions this worker ran, from its "Worker started execution <id>" log lines. */
	async executionIds(): Promise<string[]> {
		return executionsStartedIn(await readLog(this.logFile));
	}

	/** Resident memory now and its peak since the last `resetPeakMemory()`, in MiB (/proc/<pid>/status). */
	async memory(): Promise<{ rssMb: number; peakMb: number }> {
		const status = await readFile(`/proc/${this.requirePid()}/status`, 'utf8');
		const kib = (field: string) =>
			Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
		return { rssMb: kib('VmRSS') / 1024, peakMb: kib('VmHWM') / 1024 };
	}

	/** Sets the peak (VmHWM) back to the current RSS: Linux's clear_refs value 5. */
	async resetPeakMemory(): Promise<void> {
		await writeFile(`/proc/${this.requirePid()}/clear_refs`, '5');
	}

	private requirePid(): number {
		if (!this.process?.pid || this.process.exitCode !== null)
			throw new Error(`${this.name} is not running`);
		return this.process.pid;
	}
}

export class QueueCluster {
	private constructor(
		readonly main: LocalN8n,
		readonly workers: QueueWorker[],
	) {}

	/** Creates the user folders and installs the built package into each instance's ~/.n8n/nodes. */
	static async create(options: QueueClusterOptions): Promise<QueueCluster> {
		const settings = queueSettings(options.services);
		const instance = async (name: string) =>
			await LocalN8n.create({
				userFolder: join(options.root, name),
				fileAccess: options.fileAccess,
				encryptionKey,
				// Workers serve nothing, and main serves its webhooks and REST API to the tests: no editor pages.
				editor: false,
				env: settings,
			});
		const main = await instance('main');
		const workers: QueueWorker[] = [];
		for (let n = 1; n <= (options.workers ?? 2); n++) {
			workers.push(
				new QueueWorker(`worker-${n}`, await instance(`worker-${n}`), options.concurrency ?? 5),
			);
		}
		for (const target of [main, ...workers.map((worker) => worker.instance)])
			await target.installPackage();
		return new QueueCluster(main, workers);
	}

	/** Starts the workers (after main, whose first start migrates the database). */
	async startWorkers(): Promise<void> {
		await Promise.all(this.workers.map(async (worker) => await worker.start()));
	}

	async stop(): Promise<void> {
		await Promise.allSettled([
			this.main.stop(),
			...this.workers.map(async (worker) => await worker.stop()),
		]);
	}

	/** Which workers started each execution, by execution id (one name each when all is well). */
	async executors(): Promise<Map<string, string[]>> {
		const ranBy = new Map<string, string[]>();
		for (const worker of this.workers) {
			for (const id of await worker.executionIds())
				ranBy.set(id, [...(ranBy.get(id) ?? []), worker.name]);
		}
		return ranBy;
	}
}

function executionsStartedIn(log: string): string[] {
	return [...log.matchAll(/Worker started execution (\d+) \(job /g)].map((match) => match[1]);
}

async function readLog(file: string): Promise<string> {
	return existsSync(file) ? await readFile(file, 'utf8') : '';
}

async function answers(url: string): Promise<boolean> {
	try {
		return (await fetchN8n(url, { signal: AbortSignal.timeout(2_000) })).ok;
	} catch {
		return false;
	}
}
