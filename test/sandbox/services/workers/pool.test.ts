/** The engine's worker processes over HTTP: out of memory, killed mid-job, and stopped at the job time limit. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { longDst } from '../../../../bench/fuzz-inputs';
import { newClient } from '../../support/apiClient';
import { sandboxAdmin } from '../../../support/sandbox';
import { useSandbox } from '../../../support/sandboxFixture';
import { sleep } from '../../../support/realTime';
import { descendants } from '../../../support/sandboxProcess';

const suite = useSandbox({ workers: 1 });

/** How long a job on an engine process just started may take on 2 cores at load average 40. */
const loadedMs = 120_000;

/** The engine processes running under this jest worker (every sandbox's). */
const engineProcesses = () =>
	descendants(process.pid).filter((pid) => {
		try {
			return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('bootstrap.js');
		} catch {
			return false;
		}
	});

/** Waits until the job is in an engine process (the upload is inspected first: seconds on a loaded machine). */
async function untilProcessing(api: Awaited<ReturnType<typeof newClient>>, id: string) {
	const processing = async () =>
		(await api.get(`/jobs/conversion/${id}`)).body.job.status === 'processing';
	const deadline = Date.now() + 60_000;
	while (!(await processing())) {
		expect(Date.now()).toBeLessThan(deadline);
		await sleep(50);
	}
}

describe('engine processes', () => {
	it('fail a job whose process runs out of memory with engine_out_of_memory, and replace the process', async () => {
		const own = await suite.own({ workerMemoryMb: 64 });
		const api = await newClient(own);
		await sandboxAdmin(own).setFaults({ workerOutOfMemoryRate: 1 });
		const { body } = await api.convert('Star.DST', 'pes');
		const job = await api.waitForJob('conversion', body.job.id, loadedMs);
		expect(job).toMatchObject({
			status: 'failed',
			failureCode: 'engine_out_of_memory',
		});
		expect(job.failureReason).toMatch(/64 MB/);
		await sandboxAdmin(own).clearFaults();
		// The one process died; its replacement runs the next jobs.
		for (let i = 0; i < 2; i++) {
			const next = (await api.convert('Star.DST', 'pes')).body.job.id;
			expect((await api.waitForJob('conversion', next, loadedMs)).status).toBe('completed');
		}
	});

	it(
		'fail the job of a process killed mid-job with engine_error, never leave it processing, and ' +
			'run the next job',
		async () => {
			const others = new Set(engineProcesses());
			const own = await suite.own({ workers: 1 });
			const api = await newClient(own);
			const [engine] = engineProcesses().filter((pid) => !others.has(pid));
			expect(engine).toBeGreaterThan(0);
			// Two million stitches: seconds of work, so the process is killed while it runs the job.
			const { body } = await api.createJob({ workflow: 'conversion', format: 'pes' }, [
				{ field: 'files[]', name: 'long.dst', bytes: longDst(1_999_990) },
			]);
			await untilProcessing(api, body.job.id);
			process.kill(engine, 'SIGKILL');
			const job = await api.waitForJob('conversion', body.job.id, loadedMs);
			expect(job).toMatchObject({ status: 'failed', failureCode: 'engine_error', outputs: [] });
			expect(job.failureReason).toBe('The engine crashed: the engine process exited with SIGKILL.');
			expect(job.events.map((event: any) => event.type)).toEqual([
				'created',
				'processing',
				'failed',
			]);
			// A new process took the dead one's place and runs the next job.
			const replacements = engineProcesses().filter((pid) => !others.has(pid));
			expect(replacements).toHaveLength(1);
			expect(replacements).not.toContain(engine);
			const next = (await api.convert('Star.DST', 'pes')).body.job.id;
			expect((await api.waitForJob('conversion', next, loadedMs)).status).toBe('completed');
		},
	);
});

describe('a timed-out job', () => {
	it(
		'fails with engine_timeout, its engine process is stopped and replaced, and no file it ' +
			'wrote stays behind',
		async () => {
			// The job's engine process is stopped (SIGSTOP) once it has the job: it overruns any limit, however
			// fast the machine. 30 s: the next job runs on a replacement process just started, on cores other
			// suites share, and must not time out too (it did with 8 s above load average 20, 15 s at 36).
			const others = new Set(engineProcesses());
			const own = await suite.own({ jobTimeoutSeconds: 30 });
			const api = await newClient(own);
			const [engine] = engineProcesses().filter((pid) => !others.has(pid));
			expect(engine).toBeGreaterThan(0);
			// Two million stitches: seconds of work, so the process is still on it when stopped.
			const { body } = await api.createJob({ workflow: 'conversion', format: 'pes' }, [
				{ field: 'files[]', name: 'long.dst', bytes: longDst(1_999_990) },
			]);
			await untilProcessing(api, body.job.id);
			process.kill(engine, 'SIGSTOP');
			const job = await api.waitForJob('conversion', body.job.id, loadedMs);
			expect(job).toMatchObject({ status: 'failed', failureCode: 'engine_timeout' });
			expect(job.failureReason).toBe('Processing took longer than 30 seconds and was stopped.');
			expect(engineProcesses()).not.toContain(engine);
			// The replacement runs the next job, and the stopped one writes nothing more.
			const next = (await api.convert('Star.DST', 'pes')).body.job.id;
			expect((await api.waitForJob('conversion', next, loadedMs)).status).toBe('completed');
			await new Promise((resolve) => setTimeout(resolve, 1000));
			const db = new DatabaseSync(join(own.dataDir, 'sandbox.db'), { readOnly: true });
			try {
				const named = new Set(
					(db.prepare('SELECT path FROM uploads').all() as Array<{ path: string }>).map(
						(row) => row.path,
					),
				);
				const stored = readdirSync(join(own.dataDir, 'files'), {
					recursive: true,
					withFileTypes: true,
				})
					.filter((entry) => entry.isFile())
					.map((entry) =>
						join(entry.parentPath, entry.name).slice(join(own.dataDir, 'files').length + 1),
					);
				// The long source, Star.DST and the completed job's output and two previews.
				expect(stored.sort()).toEqual([...named].sort());
				expect(stored).toHaveLength(5);
			} finally {
				db.close();
			}
		},
	);
});
