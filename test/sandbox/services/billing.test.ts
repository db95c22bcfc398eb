import { Api, isoDate, newClient } from '../support/apiClient';
import { fixture } from '../../support/embroideryFiles';
import { sandboxAdmin } from '../../support/sandbox';
import { useSandbox } from '../../support/sandboxFixture';

const suite = useSandbox({ workers: 2 });

async function usage(api: Api) {
	const response = await api.get('/usage');
	expect(response.status).toBe(200);
	return response.body.freeUsage;
}

async function completedJob(api: Api) {
	const { body } = await api.convert('Star.DST', 'pes');
	return api.waitForJob('conversion', body.job.id);
}

describe('GET /usage: FreeUsage computed live', () => {
	it('reports every field for a free (limited) account', async () => {
		const api = await newClient(suite.sandbox, {
			plan: 'free',
			previewRemaining: 4,
			dailyLimit: 3,
			monthlyLimit: 10,
		});
		const freeUsage = await usage(api);
		expect(freeUsage).toEqual({
			limited: true,
			previewRemaining: 3,
			creditBalance: 0,
			digitisingCreditCost: 2,
			conversionCreditCost: 1,
			dailyLimit: 3,
			dailyUsed: 0,
			dailyRemaining: 3,
			monthlyLimit: 10,
			monthlyUsed: 0,
			monthlyRemaining: 10,
			dailyResetsAt: expect.stringMatching(isoDate),
			monthlyResetsAt: expect.stringMatching(isoDate),
			subscriptionPlanSlug: null,
			subscriptionRenewsAt: null,
			plan: 'free',
			unlockEntitlementsRemaining: 0,
		});
		expect(Date.parse(freeUsage.dailyResetsAt)).toBeGreaterThan(Date.now() - 1000);
	});

	it('reports the plan slug and renewal date of a subscription', async () => {
		const api = await newClient(suite.sandbox, { plan: 'subscription', entitlements: 5 });
		const freeUsage = await usage(api);
		expect(freeUsage).toMatchObject({
			limited: false,
			subscriptionPlanSlug: 'studio-monthly',
			unlockEntitlementsRemaining: 5,
		});
		expect(freeUsage.subscriptionRenewsAt).toMatch(isoDate);
	});

	it('is not limited for credits and internal accounts', async () => {
		expect(
			await usage(await newClient(suite.sandbox, { plan: 'credits', creditBalance: 7 })),
		).toMatchObject({
			limited: false,
			creditBalance: 7,
		});
		expect((await usage(await newClient(suite.sandbox, { plan: 'internal' }))).limited).toBe(false);
	});
});

describe('allowances on job creation (422)', () => {
	it('takes one source per request from a limited free account', async () => {
		const api = await newClient(suite.sandbox, { plan: 'free' });
		const response = await api.createJob({ workflow: 'conversion', format: 'pes' }, [
			{ field: 'files[]', name: 'a.dst', bytes: fixture('Star.DST') },
			{ field: 'files[]', name: 'b.dst', bytes: fixture('Star.DST') },
		]);
		expect(response.status).toBe(422);
		expect(response.body.errors.files).toEqual([
			expect.stringMatching(/one source file per request/),
		]);
		const single = await api.createJob({ workflow: 'conversion', format: 'pes' }, [
			{ field: 'files[]', name: 'a.dst', bytes: fixture('Star.DST') },
		]);
		expect(single.status).toBe(202);
	});

	it('counts free previews down and refuses when none remain', async () => {
		const api = await newClient(suite.sandbox, {
			plan: 'free',
			previewRemaining: 2,
			dailyLimit: 10,
		});
		expect((await api.convert('Star.DST', 'pes')).body.freeUsage.previewRemaining).toBe(1);
		expect((await api.convert('Star.DST', 'pes')).body.freeUsage.previewRemaining).toBe(0);
		const refused = await api.convert('Star.DST', 'pes');
		expect(refused.status).toBe(422);
		expect(refused.body.errors.quota).toEqual([expect.stringMatching(/No free previews/)]);
	});

	it('enforces the daily limit until the sandbox clock passes midnight UTC', async () => {
		const own = await suite.own();
		const api = await newClient(own, { plan: 'credits', dailyLimit: 2, monthlyLimit: 100 });
		expect((await api.convert('Star.DST', 'pes')).status).toBe(202);
		expect((await api.convert('Star.DST', 'pes')).status).toBe(202);
		const refused = await api.convert('Star.DST', 'pes');
		expect(refused.status).toBe(422);
		expect(refused.body.errors.quota).toEqual([expect.stringMatching(/daily/)]);
		const before = await usage(api);
		expect(before).toMatchObject({ dailyUsed: 2, dailyRemaining: 0, monthlyUsed: 2 });
		const untilReset =
			(Date.parse(before.dailyResetsAt) -
				Date.parse((await sandboxAdmin(own).advanceClock(0)).now)) /
			1000;
		await sandboxAdmin(own).advanceClock(untilReset + 1);
		expect(await usage(api)).toMatchObject({ dailyUsed: 0, dailyRemaining: 2 });
		expect((await api.convert('Star.DST', 'pes')).status).toBe(202);
	});

	it('enforces the monthly limit', async () => {
		const api = await newClient(suite.sandbox, {
			plan: 'credits',
			dailyLimit: 50,
			monthlyLimit: 1,
		});
		expect((await api.convert('Star.DST', 'pes')).status).toBe(202);
		const refused = await api.convert('Star.DST', 'pes');
		expect(refused.status).toBe(422);
		expect(refused.body.errors.quota).toEqual([expect.stringMatching(/monthly/)]);
	});
});

describe('unlock: entitlement first, then credits, internal free, never a purchase', () => {
	it('spends a subscription entitlement before any credit', async () => {
		const api = await newClient(suite.sandbox, {
			plan: 'subscription',
			entitlements: 1,
			creditBalance: 5,
		});
		const first = await completedJob(api);
		const second = await completedJob(api);
		expect(first.unlock).toMatchObject({ method: 'subscription', creditCost: 0, canUnlock: true });
		const a = await api.post(`/jobs/conversion/${first.id}/unlock`);
		expect(a.body.job.unlock).toMatchObject({
			unlocked: true,
			method: 'subscription',
			creditCost: 0,
		});
		expect(await usage(api)).toMatchObject({ unlockEntitlementsRemaining: 0, creditBalance: 5 });
		const b = await api.post(`/jobs/conversion/${second.id}/unlock`);
		expect(b.body.job.unlock).toMatchObject({ unlocked: true, method: 'credits', creditCost: 1 });
		expect(await usage(api)).toMatchObject({ creditBalance: 4 });
	});

	it('restores the entitlements when the subscription renews (sandbox clock)', async () => {
		const own = await suite.own();
		const api = await newClient(own, { plan: 'subscription', entitlements: 1, creditBalance: 0 });
		const job = await completedJob(api);
		expect((await api.post(`/jobs/conversion/${job.id}/unlock`)).status).toBe(200);
		const spent = await usage(api);
		expect(spent.unlockEntitlementsRemaining).toBe(0);
		const second = await completedJob(api);
		expect((await api.post(`/jobs/conversion/${second.id}/unlock`)).status).toBe(422);
		await sandboxAdmin(own).advanceClock(31 * 24 * 3600);
		const renewed = await usage(api);
		expect(renewed.unlockEntitlementsRemaining).toBe(1);
		expect(Date.parse(renewed.subscriptionRenewsAt)).toBeGreaterThan(
			Date.parse(spent.subscriptionRenewsAt),
		);
		expect((await api.post(`/jobs/conversion/${second.id}/unlock`)).status).toBe(200);
	});

	it('unlocks free of charge on an internal account', async () => {
		const api = await newClient(suite.sandbox, { plan: 'internal' });
		const job = await completedJob(api);
		const response = await api.post(`/jobs/conversion/${job.id}/unlock`);
		expect(response.status).toBe(200);
		expect(response.body.job.unlock).toMatchObject({ method: 'internal', creditCost: 0 });
		expect((await usage(api)).creditBalance).toBe(0);
	});

	it('answers 422 when neither entitlement nor credits cover it, and changes nothing', async () => {
		const api = await newClient(suite.sandbox, { plan: 'free', creditBalance: 0 });
		const job = await completedJob(api);
		expect(job.unlock).toMatchObject({
			canUnlock: false,
			method: null,
			creditCost: 1,
			creditBalance: 0,
		});
		const response = await api.post(`/jobs/conversion/${job.id}/unlock`);
		expect(response.status).toBe(422);
		expect(response.body.errors.credits).toEqual([expect.stringMatching(/needs 1 credit/)]);
		expect(JSON.stringify(response.body)).not.toMatch(/checkout|purchase|http/i);
		const after = (await api.get(`/jobs/conversion/${job.id}`)).body.job;
		expect(after.downloadsUnlocked).toBe(false);
		expect(after.outputs[0].downloadUrl).toBeNull();
	});

	it('charges the digitising cost for digitising jobs', async () => {
		const api = await newClient(suite.sandbox, { plan: 'credits', creditBalance: 1 });
		const logo = Buffer.from(
			'<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><circle cx="50" ' +
				'cy="50" r="40" fill="#c00"/></svg>',
		);
		const { body } = await api.createJob(
			{ workflow: 'digitising', format: 'dst', width_mm: 40, colour_count: 1 },
			[{ name: 'dot.svg', bytes: logo }],
		);
		const job = await api.waitForJob('digitising', body.job.id);
		expect(job.status).toBe('completed');
		const refused = await api.post(`/jobs/digitising/${job.id}/unlock`);
		expect(refused.status).toBe(422);
		expect(refused.body.errors.credits).toEqual([expect.stringMatching(/needs 2 credits/)]);
	});
});

describe('control API accounts', () => {
	it('refuses an unknown plan and a negative balance with 422', async () => {
		await expect(suite.admin.createAccount({ plan: 'gold' as 'free' })).rejects.toThrow(/422/);
		await expect(suite.admin.createAccount({ plan: 'credits', creditBalance: -1 })).rejects.toThrow(
			/422/,
		);
	});
});
