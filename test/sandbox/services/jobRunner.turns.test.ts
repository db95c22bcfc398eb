/** Accounts take turns for the engine, over HTTP: one account's backlog does not hold another's job back. */
import { newClient } from '../support/apiClient';
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

	it('keeps one engine process for the other accounts: an account runs at most all but one at once', async () => {
		const own = await sandboxes.own({ workers: 2 });
		const admin = sandboxAdmin(own);
		const busy = await newClient(own);
		await admin.setFaults({ processingPaused: true });
		const star = fixture('Star.DST');
		const many = await busy.createJob(
			{ workflow: 'conversion', format: 'pes' },
			[1, 2, 3, 4].map((n) => ({ field: 'files[]', name: `busy-${n}.dst`, bytes: star })),
		);
		expect(many.status).toBe(202);
		await admin.setFaults({ processingPaused: false });
		const runs = [];
		for (const job of many.body.jobs) {
			const done = await busy.waitForJob('conversion', job.id);
			const at = (type: string) =>
				Date.parse(done.events.find((event: any) => event.type === type).at);
			runs.push({ start: at('processing'), end: at('completed') });
		}
		runs.sort((a, b) => a.start - b.start);
		// Two processes, one account: its jobs run one after another, never side by side.
		for (let i = 1; i < runs.length; i++)
			expect(runs[i].start).toBeGreaterThanOrEqual(runs[i - 1].end);
	});
});
