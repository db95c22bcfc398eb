/**
 * One run of the fairness scenario (fairScenario.ts) in a process of its own, for test/load/fairService.test.ts:
 * starts a sandbox with two engine processes, runs the scenario with the number of attack windows given as its
 * argument, and prints the run as JSON on stdout (with the hostile account's daily usage) and in words on stderr.
 *
 * The test starts it in a session of its own. Linux's autogroup scheduling (on by default) shares the CPU
 * between sessions as equals, and nice values count only within one. In the test's own session, the hostile
 * account's work at nice 19 (the costly SVG, the inspection of 500 MB, the uploader) competed with every other
 * jest worker and got about 1/70 of a core each: beside six CPU-bound processes one run sat in its upload for
 * over six minutes, and the project's CI run on 49251cc passed its 900 s limit. In a session of its own it took
 * 60 s beside the same six, against 33 s on an idle machine.
 */
import { sleep } from '../../support/realTime';
import { sandboxAdmin, startSandbox } from '../../support/sandbox';
import { describeRun, fairScenario, threadPng, type FairRun } from './fairScenario';

/** What the test reads of a run: the run without its hostile client, and that account's daily usage. */
export type FairResult = Omit<FairRun, 'hostile'> & { dailyUsed: number };

async function main(): Promise<void> {
	const attackWindows = Number(process.argv[2]);
	// Made before the sandbox starts: compressing 160 MB takes seconds of the thread the sandbox runs on.
	const png = threadPng();
	// The sandbox's day is the wall clock's moved to noon UTC: the daily usage read below counts from midnight,
	// and a run across it (once, at 00:00:10) counted 4 of 11. Times still pass at the wall's pace.
	const day = 24 * 60 * 60 * 1000;
	const toNoon = day / 2 - (Date.now() % day);
	const sandbox = await startSandbox({
		port: 0,
		workers: 2,
		time: { now: () => Date.now() + toNoon, sleep: async (ms) => void (await sleep(ms)) },
	});
	try {
		const { hostile, ...run } = await fairScenario(sandbox, png, {
			attackWindows,
			roundsPerPhase: 3,
		});
		const usage = await sandboxAdmin(sandbox).usage(hostile.accountId);
		process.stderr.write(`${describeRun({ hostile, ...run })}\n`);
		const result: FairResult = { ...run, dailyUsed: Number(usage.dailyUsed) };
		process.stdout.write(JSON.stringify(result));
	} finally {
		await sandbox.close();
	}
}

// The test's process group ends this one when the test does; where the test's process itself dies (a worker
// killed), this process has a new parent, and ends its group (itself, its sandbox's engines, the uploader).
const parent = process.ppid;
setInterval(() => {
	if (process.ppid !== parent) process.kill(-process.pid, 'SIGKILL');
}, 1000).unref();

main().catch((error: Error) => {
	console.error(error.stack ?? error.message);
	process.exitCode = 1;
});
