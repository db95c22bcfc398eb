/** A retry is processing like a creation: the allowances and processing control apply, and usage counts it. */
import { damagedPes, newClient } from '../support/apiClient';
import { sandboxAdmin } from '../../support/sandbox';
import { fixture } from '../../support/embroideryFiles';
import { useOwnSandboxes } from '../../support/sandboxFixture';

const sandboxes = useOwnSandboxes();

describe('JobService.retry', () => {
	it("counts each retry in the account's usage and refuses one past the daily allowance (422)", async () => {
		const own = await sandboxes.own();
		const admin = sandboxAdmin(own);
		const api = await newClient(own, { plan: 'free', dailyLimit: 3, previewRemaining: 10 });
		const { body } = await api.convert('Broken.pes', 'dst', damagedPes());
		expect((await api.waitForJob('conversion', body.job.id)).status).toBe('failed');
		expect(await admin.usage(api.accountId)).toMatchObject({ dailyUsed: 1, previewRemaining: 2 });

		for (const used of [2, 3]) {
			const retried = await api.post(`/jobs/conversion/${body.job.id}/retry`);
			expect(retried.status).toBe(202);
			expect((await api.waitForJob('conversion', body.job.id)).status).toBe('failed');
			expect(await admin.usage(api.accountId)).toMatchObject({ dailyUsed: used });
		}
		const refused = await api.post(`/jobs/conversion/${body.job.id}/retry`);
		expect(refused.status).toBe(422);
		expect(JSON.stringify(refused.body)).toMatch(
			/daily processing allowance is used up \(3 of 3\)/,
		);
		// Refused means untouched: still failed, nothing counted.
		expect((await api.waitForJob('conversion', body.job.id)).status).toBe('failed');
		expect(await admin.usage(api.accountId)).toMatchObject({ dailyUsed: 3 });
	});

	it('refuses a retry past the 100 queued or processing jobs of an account (429 with Retry-After)', async () => {
		const own = await sandboxes.own();
		const admin = sandboxAdmin(own);
		const api = await newClient(own, { plan: 'credits', dailyLimit: 1000, monthlyLimit: 1000 });
		const { body } = await api.convert('Broken.pes', 'dst', damagedPes());
		expect((await api.waitForJob('conversion', body.job.id)).status).toBe('failed');
		await admin.setFaults({ processingPaused: true });
		const star = fixture('Star.DST');
		for (let request = 0; request < 10; request++) {
			const files = Array.from({ length: 10 }, (_, n) => ({
				field: 'files[]',
				name: `s${n}.dst`,
				bytes: star,
			}));
			expect((await api.createJob({ workflow: 'conversion', format: 'pes' }, files)).status).toBe(
				202,
			);
		}
		const refused = await api.post(`/jobs/conversion/${body.job.id}/retry`);
		expect(refused.status).toBe(429);
		expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
		expect(refused.body.message).toMatch(/at most 100 queued or processing/);
		expect((await api.waitForJob('conversion', body.job.id)).status).toBe('failed');
	});
});
