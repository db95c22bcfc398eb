/**
 * The engine pool's priorities, on real engine processes: a long job gives way (every thread at nice 19) only
 * while told to, is charged its CPU time there, and is back at its own priority when it ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';

import { longDst } from '../../../../bench/fuzz-inputs';
import { backgroundAfterCpuMs, WorkerPool } from '../../../../sandbox/services/workers/pool';
import { fixture } from '../../../support/embroideryFiles';
import { sleep } from '../../../support/realTime';
import { enginePids, threadNices } from '../../support/engineProcesses';
import { engineTask } from '../../support/engineTasks';

describe('the engine pool', () => {
	let dir: string;
	let pool: WorkerPool | undefined;
	beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'pool-priority-'))));
	afterEach(async () => {
		await pool?.close();
		pool = undefined;
		rmSync(dir, { recursive: true, force: true });
	});

	const conversion = (jobId: string, bytes: Uint8Array) =>
		engineTask(dir, jobId, bytes, {
			sourceFileName: `${jobId}.dst`,
			sourceFormat: 'dst',
			format: 'pes',
		});

	it(
		'charges a job in the background its CPU time, or a tenth of the time passing: stopped there, ' +
			'it still ends',
		async () => {
			// The time jobs are charged in is driven here: a busy machine's slowness is never charged, and the
			// limit is passed by moving the time, not by waiting. The warm-up's conversion (its process's first,
			// with its first preview) does not give way: at nice 19 beside a busy machine it would take minutes.
			let now = 0;
			const limitMs = 120_000;
			pool = new WorkerPool(
				1,
				limitMs,
				512,
				(jobId) => jobId === 'long',
				() => now,
			);
			expect((await pool.run(conversion('warm', fixture('Star.DST')))).ok).toBe(true);
			const [pid] = enginePids();
			let ended = false;
			const long = pool.run(conversion('long', longDst(1_999_990)));
			void long.then(() => (ended = true));
			while (!ended && !threadNices(pid).every((nice) => nice === 19)) await sleep(20);
			expect(ended).toBe(false);
			// In the background and using no CPU at all: the time passing, up to the limit, is charged a tenth.
			process.kill(pid, 'SIGSTOP');
			try {
				for (let step = 0; step < 10; step++) {
					now += limitMs / 10;
					pool.check();
				}
				// Still running (a job past its limit gives its process up at once, and the pool has none busy).
				expect(pool.busy).toBe(1);
				expect(enginePids()).toEqual([pid]);
				// Ten limits later, a tenth of them is the whole limit: a job that hangs there still ends.
				for (let step = 0; step < 90; step++) {
					now += limitMs / 10;
					pool.check();
				}
				expect(pool.busy).toBe(0);
				expect(await long).toMatchObject({ ok: false, failureCode: 'engine_timeout' });
			} finally {
				try {
					process.kill(pid, 'SIGCONT');
				} catch {
					// Killed by the pool at its limit: nothing to wake.
				}
			}
		},
	);

	it(`moves a job past ${backgroundAfterCpuMs} ms of CPU to nice 19 while it gives way, back when not`, async () => {
		let givingWay = false;
		// Time that never passes: the pool fails no job here however busy the machine, jest's limit catches a hang.
		pool = new WorkerPool(
			1,
			120_000,
			512,
			() => givingWay,
			() => 0,
		);
		// Warm: the process has reported ready.
		expect((await pool.run(conversion('warm', fixture('Star.DST')))).ok).toBe(true);
		const [pid] = enginePids();
		expect(pid).toBeGreaterThan(0);
		// A million stitches: seconds of CPU.
		const long = pool.run(conversion('long', longDst(1_000_000)));
		let ended = false;
		void long.then(() => (ended = true));
		// Long, but not told to give way: it keeps its priority.
		while (!ended && (pool.jobCpuMs('long') ?? 0) < backgroundAfterCpuMs + 300) await sleep(50);
		expect(ended).toBe(false);
		expect(threadNices(pid).every((nice) => nice === getPriority(0))).toBe(true);
		givingWay = true;
		pool.check();
		expect(threadNices(pid).every((nice) => nice === 19)).toBe(true);
		// No longer told to: back at once (at nice 19 on a loaded machine it would take minutes to end).
		givingWay = false;
		pool.check();
		expect(threadNices(pid).every((nice) => nice === getPriority(0))).toBe(true);
		expect((await long).ok).toBe(true);
		// The same process takes the next job at its own priority.
		expect(enginePids()).toEqual([pid]);
		expect(threadNices(pid).every((nice) => nice === getPriority(0))).toBe(true);
	});
});
