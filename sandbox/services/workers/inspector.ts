import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

import type { Inspection, InspectionRequest } from './inspection';

type Answer = { id: number; inspection?: Inspection; error?: string };

/**
 * One thread that inspects uploaded sources (checksum and content detection) off the HTTP event loop,
 * started by the first upload. A thread that dies fails the inspections it held and is replaced.
 */
export class SourceInspector {
	private worker: Worker | undefined;
	private readonly pending = new Map<
		number,
		{ resolve: (inspection: Inspection) => void; reject: (error: Error) => void }
	>();
	private nextId = 0;
	private closed = false;

	constructor(private readonly memoryMb: number) {}

	inspect(request: InspectionRequest): Promise<Inspection> {
		if (this.closed) return Promise.reject(new Error('the sandbox is closing'));
		const id = this.nextId++;
		const worker = (this.worker ??= this.spawn());
		return new Promise<Inspection>((resolve, reject) => {
			this.pending.set(id, { resolve, reject });
			worker.ref();
			worker.postMessage({ id, request });
		});
	}

	async close(): Promise<void> {
		this.closed = true;
		this.failPending('the sandbox is closing');
		await this.worker?.terminate();
	}

	private spawn(): Worker {
		const worker = new Worker(join(__dirname, 'bootstrap.js'), {
			workerData: { entry: './inspectionWorker.ts' },
			resourceLimits: { maxOldGenerationSizeMb: this.memoryMb },
		});
		worker.on('message', ({ id, inspection, error }: Answer) => {
			const waiting = this.pending.get(id);
			this.pending.delete(id);
			if (this.pending.size === 0) worker.unref();
			if (inspection) waiting?.resolve(inspection);
			else waiting?.reject(new Error(error ?? 'no answer'));
		});
		worker.on('error', (error) => this.died(worker, error.message));
		worker.on('exit', (code) =>
			this.died(worker, `the inspection thread exited with code ${code}`),
		);
		worker.unref();
		return worker;
	}

	private died(worker: Worker, why: string): void {
		if (this.closed || worker !== this.worker) return;
		worker.removeAllListeners();
		worker.on('error', () => undefined);
		worker.terminate().catch(() => undefined);
		this.worker = this.spawn();
		this.failPending(why);
	}

	private failPending(why: string): void {
		for (const { reject } of this.pending.values()) reject(new Error(why));
		this.pending.clear();
	}
}
