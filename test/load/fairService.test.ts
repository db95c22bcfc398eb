/**
 * The service under a hostile account (issue 40), the scenario in support/fairScenario.ts: the hostile
 * account's work is refused, bounded and charged as the rules say, and no other account's job waits behind
 * it for a process. How much slower the other accounts' conversions run under the attack is a speed figure,
 * measured over many runs by `npm run bench:fair` (bench/fair-service.ts): in one run of this test a few
 * milliseconds of a busy machine's scheduling move a 20 ms conversion's median by half, so the ratio is
 * printed here, not asserted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import type { FairResult } from './support/fairScenario.main';

// About 35 s on an idle machine, 60 s beside six CPU-bound processes and 90 s in a clean-clone run of the whole
// suite (the run is in a session of its own: fairScenario.main.ts says why). Twice 500 MB are sent and inspected.
jest.setTimeout(600_000);

const attackWindows = 2;
let scenario: ChildProcess | undefined;

/**
 * Runs the scenario in a process and session of its own (`detached`), with its sandbox, engine processes and
 * uploader below it; resolves with the run it printed, or rejects with what it said when it failed.
 */
async function runScenario(): Promise<FairResult> {
	const child = spawn(
		process.execPath,
		[
			'--require',
			require.resolve('tsx/cjs'),
			join(__dirname, 'support', 'fairScenario.main.ts'),
			`${attackWindows}`,
		],
		{ detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	scenario = child;
	let stdout = '';
	let stderr = '';
	child.stdout!.on('data', (chunk) => (stdout += chunk));
	child.stderr!.on('data', (chunk) => (stderr += chunk));
	const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
	console.log(stderr);
	if (code !== 0) throw new Error(`The fairness scenario exited with ${code}: ${stderr}`);
	return JSON.parse(stdout) as FairResult;
}

// The scenario's whole process group ends with the test, however the test ends.
afterEach(() => {
	if (scenario?.exitCode === null && scenario.signalCode === null)
		process.kill(-scenario.pid!, 'SIGKILL');
});

describe('three accounts, one of them hostile', () => {
	it("refuses, bounds and charges the hostile account's work; the others never wait behind it", async () => {
		const run = await runScenario();

		expect(run.hugeAnswers).toEqual(Array(attackWindows).fill(422));
		expect(run.heavyJobs.map((job) => job.status)).toEqual(Array(attackWindows).fill('completed'));
		// The attack held through each window: the costly SVG was drawing from before its first conversion to
		// after its last.
		expect(run.attackHeld).toEqual(Array(attackWindows).fill(true));
		expect(run.refusedJobs.map((job) => [job.status, job.failureCode])).toEqual([
			['failed', 'unreadable_artwork'],
			['failed', 'unreadable_artwork'],
			['failed', 'artwork_too_large'],
		]);
		expect(run.refusedJobs[0].failureReason).toMatch(/feMorphology/);
		expect(run.refusedJobs[2].failureReason).toMatch(/1 x 40000000 pixels/);
		expect(run.retries).toBeGreaterThan(0);
		// Every retry counted as processing: the creations plus the retries.
		expect(run.dailyUsed).toBe(3 + attackWindows + run.retries);
		// No conversion of the other accounts waited for a process behind the hostile account's jobs. One queued
		// behind the costly SVG would wait at least until it was drawn: in each window that was seconds after the
		// window's last conversion ended. Each wait stays under a quarter of the least of those. (Twice the
		// account's median idle conversion was the bound before: on 2 cores beside the rest of the suite one wait
		// of 79 ms met a bound of 64 ms, a scheduling hiccup, not a job behind the SVG.)
		const leastBehindSvg = Math.min(...run.windows.map((w) => w.drawnTo - w.conversionsTo));
		expect(leastBehindSvg).toBeGreaterThan(1_000);
		for (const waits of run.waits)
			for (const ms of waits) expect(ms).toBeLessThan(leastBehindSvg / 4);
	});
});
