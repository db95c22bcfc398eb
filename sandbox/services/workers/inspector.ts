import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

import { AccountTurns } from '../turns';
import type { Inspection, InspectionRequest } from './inspection';

type Answer = { id: number; inspection?: Inspection; error?: string };

/** An inspection asked for and not yet answered. */
interface Waiting {
	id: number;
	accountId: string;
	request: InspectionRequest;
	resolve: (inspection: Inspection) => void;
	reject: (error: Error) => void;
}

interface Thread {
	worker: Worker;
	/** The inspection the thread is working on; a thread takes one at a time. */
	current: Waiting | null;
}

/**
 * Threads that inspect uploaded sources (checksum and content detection) off the HTTP event loop, started
 * as uploads come. Each thread takes one inspection at a time and accounts take turns for them
 * (services/turns.ts): one account's ten 50 MB uploads hold another account's upload back by at most the
 * inspections already running. A thread that dies fails the inspection it held and is replaced.
 */
export class SourceInspector {
	private readonly threads: Thread[] = [];
	private readonly waiting: Waiting[] = [];
	private readonly turns = new AccountTurns();
	private nextId = 0;
	private closed = false;

	constructor(
		private readonly memoryMb: number,
		/** Inspection threads at most. */
		private readonly size = 2,
	) {}

	/** Inspects one source for `accountId`, in that account's turn. */
	inspect(request: InspectionRequest, accountId: string): Promise<Inspection> {
		if (this.closed) return Promise.reject(new Error('the sandbox is closing'));
		return new Promise<Inspection>((resolve, reject) => {
			this.waiting.push({ id: this.nextId++, accountId, request, resolve, reject });
			this.dispatch();
		});
	}

	async close(): Promise<void> {
		this.closed = true;
		const why = new Error('the sandbox is closing');
		for (const waiting of this.waiting.splice(0)) waiting.reject(why);
		for (const thread of this.threads) thread.current?.reject(why);
		await Promise.all(this.threads.splice(0).map((thread) => thread.worker.terminate()));
	}

	/** Gives idle threads (starting new ones up to `size`) the waiting inspections, accounts taking turns. */
	private dispatch(): void {
		while (!this.closed && this.waiting.length) {
			let thread = this.threads.find((candidate) => candidate.current === null);
			if (!thread && this.threads.length < this.size) {
				thread = { worker: this.spawn(), current: null };
				this.threads.push(thread);
			}
			if (!thread) return;
			const heads = new Map<string, { id: string; account_id: string; waiting: Waiting }>();
			for (const waiting of this.waiting) {
				if (heads.has(waiting.accountId)) continue;
				const id = String(waiting.id).padStart(16, '0');
				heads.set(waiting.accountId, { id, account_id: waiting.accountId, waiting });
			}
			const next = this.turns.next([...heads.values()], (accountId) => this.inUse(accountId))!;
			this.waiting.splice(this.waiting.indexOf(next.waiting), 1);
			this.turns.served(next.account_id);
			thread.current = next.waiting;
			thread.worker.ref();
			thread.worker.postMessage({ id: next.waiting.id, request: next.waiting.request });
		}
	}

	private inUse(accountId: string): number {
		return this.threads.filter((thread) => thread.current?.accountId === accountId).length;
	}

	private spawn(): Worker {
		const worker = new Worker(join(__dirname, 'bootstrap.js'), {
			workerData: { entry: './inspectionWorker.ts' },
			resourceLimits: { maxOldGenerationSizeMb: this.memoryMb },
		});
		worker.on('message', ({ id, inspection, error }: Answer) => {
			const thread = this.threads.find((candidate) => candidate.worker === worker);
			const current = thread?.current;
			if (!thread || current?.id !== id) return;
			thread.current = null;
			worker.unref();
			if (inspection) current.resolve(inspection);
			else current.reject(new Error(error ?? 'no answer'));
			this.dispatch();
		});
		worker.on('error', (error) => this.died(worker, error.message));
		worker.on('exit', (code) =>
			this.died(worker, `the inspection thread exited with code ${code}`),
		);
		worker.unref();
		return worker;
	}

	private died(worker: Worker, why: string): void {
		const index = this.threads.findIndex((thread) => thread.worker === worker);
		if (this.closed || index < 0) return;
		const [thread] = this.threads.splice(index, 1);
		worker.removeAllListeners();
		worker.on('error', () => undefined);
		worker.terminate().catch(() => undefined);
		thread.current?.reject(new Error(why));
		this.dispatch();
	}
}
