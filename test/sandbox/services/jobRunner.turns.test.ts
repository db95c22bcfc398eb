/** Accounts take turns for the engine, over HTTP: one account's backlog does not hold another's job back. */
import { getPriority } from 'node:os';

import { longDst } from '../../../bench/fuzz-inputs';
import { backgroundAfterCpuMs, processCpuMs } from '../../../sandbox/services/workers/pool';
import { sleep } from '../../support/realTime';
import { newClient } from '../support/apiClient';
import { enginePids, threadNices } from '../support/engineProcesses';
import { announcedPost, formField } from '../support/rawUpload';
import { sandboxAdmin } from '../../support/sandbox';
import { fixture } from '../../support/embroideryFiles';
import { useOwnSandboxes } from '../../support/sandboxFixture';

const sandboxes = useOwnSandboxes();

/** When the job's engine run started, in the sandbox's time. */
const startedAt = (job: any): number =>
	Date.parse(job.events.find((event: any) => event.type === 'processing').at);

describe('the job runner with several accounts', () => {
	it("starts another account's job after at most one of a busy account's, not after its whole queue", async () => {
		const own = await sandboxes.own({ workers: 1 });
		const admin = sandboxAdmin(own);
		const busy = await newClient(own);
		const other = await newClient(own);
		await admin.setFaults({ processingPaused: true });
		const star = fixture('Star.DST');
		const many = await busy.createJob(
			{ workflow: 'conversion', format: 'pes' },
			[1, 2, 3, 4, 5].map((n) => ({ field: 'files[]', name: `busy-${n}.dst`, bytes: star })),
		);
		expect(many.status).toBe(202);
		const one = await other.convert('Star.DST', 'pes');
		expect(one.status).toBe(202);
		await admin.setFaults({ processingPaused: false });

		const busyJobs = [];
		for (const job of many.body.jobs) busyJobs.push(await busy.waitForJob('conversion', job.id));
		const otherJob = await other.waitForJob('conversion', one.body.job.id);
		const busyStarts = busyJobs.map(startedAt).sort((a, b) => a - b);
		// One engine process: the other account's job runs second, before the busy account's second job.
		expect(startedAt(otherJob)).toBeLessThanOrEqual(busyStarts[1]);
		expect(busyStarts[1]).toBeLessThan(busyStarts[4]);
	});

	/** Four conversions of `busy`'s, created while processing is paused; their runs once done, by start. */
	async function fourRuns(own: any, busy: any, beside: () => Promise<void>) {
		const admin = sandboxAdmin(own);
		await admin.setFaults({ processingPaused: true });
		const star = fixture('Star.DST');
		const many = await busy.createJob(
			{ workflow: 'conversion', format: 'pes' },
			[1, 2, 3, 4].map((n) => ({ field: 'files[]', name: `busy-${n}.dst`, bytes: star })),
		);
		expect(many.status).toBe(202);
		await beside();
		await admin.setFaults({ processingPaused: false });
		const runs = [];
		for (const job of many.body.jobs) {
			const done = await busy.waitForJob('conversion', job.id);
			const at = (type: string) =>
				Date.parse(done.events.find((event: any) => event.type === type).at);
			runs.push({ start: at('processing'), end: at('completed') });
		}
		return runs.sort((a, b) => a.start - b.start);
	}

	it('keeps one engine process for the other accounts: an account runs at most all but one at once', async () => {
		const own = await sandboxes.own({ workers: 2 });
		const busy = await newClient(own);
		const other = await newClient(own);
		let otherJob = '';
		const runs = await fourRuns(own, busy, async () => {
			otherJob = (await other.convert('Star.DST', 'pes')).body.job.id;
		});
		expect((await other.waitForJob('conversion', otherJob)).status).toBe('completed');
		// Two processes, another account with work: the busy one's jobs run one after another.
		for (let i = 1; i < runs.length; i++)
			expect(runs[i].start).toBeGreaterThanOrEqual(runs[i - 1].end);
	});

	it('lets an account alone use every engine process', async () => {
		const own = await sandboxes.own({ workers: 2 });
		const runs = await fourRuns(own, await newClient(own), async () => undefined);
		// Both processes took one of its jobs at once: the second started before the first ended.
		expect(runs[1].start).toBeLessThan(runs[0].end);
	});

	it("puts another account's long job in the background as soon as a job request arrives", async () => {
		// The long job is held stopped, then runs at nice 19, where it is charged a tenth of the time passing
		// however little CPU it gets: on 2 cores shared with the whole clean-clone run it may pass the default
		// 120 s (one run saw it fail, most likely so). This test is about its priority, not its limit
		// (pool.priority.test.ts has that).
		const own = await sandboxes.own({ workers: 2, jobTimeoutSeconds: 3600 });
		const busy = await newClient(own);
		const other = await newClient(own);
		// Both engine processes started and idle (an account alone uses both): from here on, only the process
		// that runs the long job uses CPU.
		const star = fixture('Star.DST');
		const warm = await busy.createJob(
			{ workflow: 'conversion', format: 'pes' },
			[1, 2].map((n) => ({ field: 'files[]', name: `warm-${n}.dst`, bytes: star })),
		);
		for (const job of warm.body.jobs)
			expect((await busy.waitForJob('conversion', job.id)).status).toBe('completed');
		const idleCpu = new Map(enginePids().map((pid) => [pid, processCpuMs(pid) ?? 0]));
		expect(idleCpu.size).toBe(2);
		const long = await busy.convert('long.dst', 'pes', Buffer.from(longDst(1_000_000)));
		expect(long.status).toBe(202);
		// The process running it: the one whose CPU time since then passes the background threshold (a million
		// stitches take seconds of CPU).
		let pid: number | undefined;
		while (pid === undefined) {
			pid = [...idleCpu].find(
				([candidate, idle]) => (processCpuMs(candidate) ?? 0) - idle > backgroundAfterCpuMs + 200,
			)?.[0];
			if (pid === undefined) await sleep(20);
		}
		// No other account has work: the long job keeps its priority.
		expect(threadNices(pid).every((nice) => nice === getPriority(0))).toBe(true);
		// Held where it is, so that it cannot end before the sandbox, as slow as the machine, sees the request.
		process.kill(pid, 'SIGSTOP');

		// The other account's request has only begun: its body is still on its way, and no job of it exists.
		const boundary = 'turns-boundary';
		const slow = announcedPost(
			`${own.baseUrl}/jobs`,
			{
				authorization: `Bearer ${other.key}`,
				'content-type': `multipart/form-data; boundary=${boundary}`,
			},
			100_000,
		);
		slow.on('error', () => undefined);
		slow.write(formField(boundary, 'workflow', 'conversion'));
		try {
			// Before, nothing counted the other account as active until its job was queued: the long job
			// stayed at its own priority for the whole upload.
			const deadline = performance.now() + 60_000;
			while (performance.now() < deadline && !threadNices(pid).every((nice) => nice === 19))
				await sleep(20);
			expect(threadNices(pid).every((nice) => nice === 19)).toBe(true);
		} finally {
			slow.destroy();
			process.kill(pid, 'SIGCONT');
		}
		expect((await busy.waitForJob('conversion', long.body.job.id)).status).toBe('completed');
	});

	it("keeps two accounts' long jobs at their own priority: neither gives way to the other", async () => {
		const own = await sandboxes.own({ workers: 2 });
		const accounts = [await newClient(own), await newClient(own)];
		// Both engine processes started and idle: from here on, each uses CPU only for its long job.
		const star = fixture('Star.DST');
		const warm = await accounts[0].createJob(
			{ workflow: 'conversion', format: 'pes' },
			[1, 2].map((n) => ({ field: 'files[]', name: `warm-${n}.dst`, bytes: star })),
		);
		for (const job of warm.body.jobs)
			expect((await accounts[0].waitForJob('conversion', job.id)).status).toBe('completed');
		const idleCpu = new Map(enginePids().map((pid) => [pid, processCpuMs(pid) ?? 0]));
		expect(idleCpu.size).toBe(2);
		const longs = [];
		for (const account of accounts) {
			const long = await account.convert('long.dst', 'pes', Buffer.from(longDst(1_000_000)));
			expect(long.status).toBe(202);
			longs.push(long.body.job.id);
		}
		// Both jobs past the background threshold: seconds of CPU each.
		const long = ([pid, idle]: [number, number]) =>
			(processCpuMs(pid) ?? 0) - idle > backgroundAfterCpuMs + 200;
		while (![...idleCpu].every(long)) await sleep(20);
		const pids = [...idleCpu.keys()];
		// Held where they are: neither can end before the sandbox has looked at both again.
		for (const pid of pids) process.kill(pid, 'SIGSTOP');
		try {
			// Before, each gave way to the other: both at nice 19, where beside a busy machine they took minutes.
			const ownPriority = (pid: number) =>
				threadNices(pid).every((nice) => nice === getPriority(0));
			const deadline = performance.now() + 60_000;
			while (performance.now() < deadline && !pids.every(ownPriority)) await sleep(20);
			expect(pids.filter(ownPriority)).toEqual(pids);
		} finally {
			for (const pid of pids) process.kill(pid, 'SIGCONT');
		}
		for (const [n, id] of longs.entries())
			expect((await accounts[n].waitForJob('conversion', id)).status).toBe('completed');
	});
});
