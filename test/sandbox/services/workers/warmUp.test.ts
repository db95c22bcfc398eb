/**
 * Engine processes that warm up before they take jobs (sandbox/services/workers/warmUp.ts): a job waits for the
 * warm-up and is charged none of it, and a warm process makes the same files as a cold one.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';

import { processCpuMs, WorkerPool } from '../../../../sandbox/services/workers/pool';
import { warmUpArgument, type TaskResult } from '../../../../sandbox/services/workers/task';
import { warmUpArtwork } from '../../../../sandbox/services/workers/warmUp';
import { sleep } from '../../../support/realTime';
import { enginePids } from '../../support/engineProcesses';
import { engineTask } from '../../support/engineTasks';

describe('engine warm-up', () => {
	let dir: string;
	const pools: WorkerPool[] = [];
	beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'warm-up-'))));
	afterEach(async () => {
		await Promise.all(pools.splice(0).map((pool) => pool.close()));
		rmSync(dir, { recursive: true, force: true });
	});

	function startPool(warmUp: boolean, size = 1): WorkerPool {
		const pool = new WorkerPool(size, 600_000, 1024, () => false, undefined, warmUp);
		pools.push(pool);
		return pool;
	}

	const digitising = async (jobId: string) =>
		engineTask(dir, jobId, await warmUpArtwork(), {
			workflow: 'digitising',
			sourceFileName: `${jobId}.png`,
			sourceFormat: 'png',
			format: 'dst',
			widthMm: 45,
			colourCount: 4,
		});

	/** Whether the pool asked engine process `pid` to warm up. */
	const asksWarmUp = (pid: number) =>
		readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(warmUpArgument);

	const files = (result: TaskResult) => {
		if (!result.ok) throw new Error(`${result.failureCode}: ${result.failureReason}`);
		return [result.output, result.preview, result.watermarkedPreview].map((file) =>
			readFileSync(join(dir, file.fileName)),
		);
	};

	it('is ready once its process has warmed up, and charges a job none of the warm-up', async () => {
		const pool = startPool(true);
		const task = await digitising('first');
		await pool.ready();
		const [pid] = enginePids();
		const warmUpMs = processCpuMs(pid)!;
		expect((await pool.run(task)).ok).toBe(true);
		const jobMs = pool.jobCpuMs('first')!;
		// The process digitised the same artwork twice before it was ready, so the job ran warm: it used less
		// CPU than the start and warm-up did (a cold process's first job uses more than its start). CPU time,
		// so a busy machine does not move it.
		expect(jobMs).toBeGreaterThan(0);
		expect(warmUpMs).toBeGreaterThan(jobMs);
		expect(processCpuMs(pid)! - jobMs).toBeGreaterThanOrEqual(warmUpMs);
	});

	it('leaves nothing behind that changes a job: a warm process makes the same files as a cold one', async () => {
		const warm = files(await startPool(true).run(await digitising('warm')));
		const cold = files(await startPool(false).run(await digitising('cold')));
		expect(warm.map((bytes) => bytes.length)).toEqual(cold.map((bytes) => bytes.length));
		warm.forEach((bytes, k) => expect(bytes.equals(cold[k])).toBe(true));
	});

	it('starts cold a process that replaces one that died before it was ready, warm one that died later', async () => {
		/** The engine process other than `gone`, once there is one, and whether it was asked to warm up. */
		const next = async (gone: number) => {
			for (;;) {
				const [pid] = enginePids().filter((other) => other !== gone);
				if (pid) return { pid, warms: asksWarmUp(pid) };
				await sleep(20);
			}
		};
		const pool = startPool(true);
		const [first] = enginePids();
		expect(asksWarmUp(first)).toBe(true);
		// Killed while it warms up: a warm-up that cannot finish is not run again.
		process.kill(first, 'SIGKILL');
		const second = await next(first);
		expect(second.warms).toBe(false);
		await pool.ready();
		// Killed once ready: its replacement warms up as the first did.
		process.kill(second.pid, 'SIGKILL');
		expect((await next(second.pid)).warms).toBe(true);
		await pool.ready();
	});

	it('warms up one process per core at the start; the others take jobs cold at once', async () => {
		const cores = availableParallelism();
		const pool = startPool(true, cores + 1);
		const warming = enginePids().filter(asksWarmUp);
		expect([enginePids().length, warming.length]).toEqual([cores + 1, cores]);
		await pool.ready();
	});
});
