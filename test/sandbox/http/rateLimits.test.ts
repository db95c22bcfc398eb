import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { Api, newClient } from '../support/apiClient';
import { fixture } from '../../support/embroideryFiles';
import { sandboxAdmin } from '../../support/sandbox';
import { useSandbox } from '../../support/sandboxFixture';

const suite = useSandbox({ workers: 1 });
afterEach(async () => suite.admin.clearFaults());

function expectRateLimited(response: { status: number; headers: Headers; body: any }) {
	expect(response.status).toBe(429);
	const retryAfter = response.headers.get('retry-after');
	expect(retryAfter).toMatch(/^\d+$/);
	expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
	expect(Number(retryAfter)).toBeLessThanOrEqual(60);
	expect(typeof response.body.message).toBe('string');
}

describe('429 rate limits', () => {
	it('allows 60 requests per minute per key, then 429 with Retry-After until the window moves on', async () => {
		const api = await newClient(suite.sandbox);
		const neighbour = await newClient(suite.sandbox);
		for (let i = 0; i < 60; i++) expect((await api.get('/formats')).status).toBe(200);
		const limited = await api.get('/usage');
		expectRateLimited(limited);
		expect(limited.body.message).toMatch(/60 per minute/);
		// Limits are per key.
		expect((await neighbour.get('/formats')).status).toBe(200);
		await suite.admin.advanceClock(Number(limited.headers.get('retry-after')));
		expect((await api.get('/formats')).status).toBe(200);
	});

	it('limits unlock requests more tightly (10 per minute per key)', async () => {
		const api = await newClient(suite.sandbox);
		const { body } = await api.convert('Star.DST', 'pes');
		for (let i = 0; i < 10; i++)
			expect((await api.post(`/jobs/conversion/${body.job.id}/unlock`)).status).not.toBe(429);
		const limited = await api.post(`/jobs/conversion/${body.job.id}/unlock`);
		expectRateLimited(limited);
		expect(limited.body.message).toMatch(/unlock/);
		expect((await api.get(`/jobs/conversion/${body.job.id}`)).status).toBe(200);
	});

	it('limits job creation requests (20 per minute per key)', async () => {
		const api = await newClient(suite.sandbox, { plan: 'internal' });
		for (let i = 0; i < 20; i++)
			expect((await api.createJob({ workflow: 'conversion', format: 'pes' }, [])).status).toBe(422);
		const limited = await api.convert('Star.DST', 'pes');
		expectRateLimited(limited);
		expect(limited.body.message).toMatch(/job creation/);
	});

	it('refuses new jobs with 429 while an account has 100 queued or processing', async () => {
		// Its own paused sandbox, so the 100 queued jobs never run and slow nothing else.
		const own = await suite.own();
		await sandboxAdmin(own).setFaults({ processingPaused: true });
		const api = await newClient(own, { plan: 'internal' });
		const other = await newClient(own, { plan: 'internal' });
		const ten = Array.from({ length: 10 }, (_, i) => ({
			field: 'files[]',
			name: `s${i}.dst`,
			bytes: fixture('Star.DST'),
		}));
		for (let i = 0; i < 10; i++) {
			const response = await api.createJob({ workflow: 'conversion', format: 'pes' }, ten);
			expect(response.status).toBe(202);
		}
		const limited = await api.convert('Star.DST', 'pes');
		expectRateLimited(limited);
		expect(limited.body.message).toMatch(/100 queued or processing/);
		// The control is per account.
		expect((await other.convert('Star.DST', 'pes')).status).toBe(202);
		const queued = (await api.get('/jobs')).body.data;
		expect(queued).toHaveLength(50);
		expect(queued.every((job: any) => job.status === 'queued')).toBe(true);
	});
});

describe('injected faults (PUT /__sandbox/faults)', () => {
	it('answers 429 with Retry-After: 1 before the request runs', async () => {
		const api = await newClient(suite.sandbox, { plan: 'internal' });
		await suite.admin.setFaults({ rate429: 1 });
		const response = await api.convert('Star.DST', 'pes');
		expectRateLimited(response);
		expect(response.headers.get('retry-after')).toBe('1');
		await suite.admin.clearFaults();
		expect((await api.get('/jobs')).body.data).toEqual([]);
	});

	it('answers 503', async () => {
		await suite.admin.setFaults({ rate5xx: 1 });
		const response = await new Api(suite.sandbox, suite.sandbox.demoKey).get('/formats');
		expect(response.status).toBe(503);
		expect(typeof response.body.message).toBe('string');
	});

	it('drops connections without an answer', async () => {
		await suite.admin.setFaults({ dropRate: 1 });
		await expect(new Api(suite.sandbox, suite.sandbox.demoKey).get('/formats')).rejects.toThrow();
	});

	it('delays responses by latencyMs', async () => {
		await suite.admin.setFaults({ latencyMs: 300 });
		const started = Date.now();
		expect((await new Api(suite.sandbox, suite.sandbox.demoKey).get('/formats')).status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
	});

	it('leaves the control API itself alone, and refuses faults out of range with 422', async () => {
		await suite.admin.setFaults({ rate5xx: 1, dropRate: 0 });
		await expect(suite.admin.setFaults({ rate429: 2 })).rejects.toThrow(/422/);
		await expect(suite.admin.setFaults({ typo: 1 } as never)).rejects.toThrow(/422/);
	});
});

describe('control API', () => {
	it('needs the admin token (401 without or with a wrong one)', async () => {
		for (const headers of [{}, { 'X-Sandbox-Admin': 'wrong' }] as Array<Record<string, string>>) {
			const response = await fetch(`${suite.sandbox.origin}/__sandbox/reset`, {
				method: 'POST',
				headers,
			});
			expect(response.status).toBe(401);
		}
	});

	it('creates accounts (201 {id}) and keys (201 {id, key}), and revokes keys (204)', async () => {
		const headers = {
			'X-Sandbox-Admin': suite.sandbox.adminToken,
			'Content-Type': 'application/json',
		};
		const account = await fetch(`${suite.sandbox.origin}/__sandbox/accounts`, {
			method: 'POST',
			headers,
			body: JSON.stringify({ name: 'Shop', plan: 'credits', creditBalance: 3 }),
		});
		expect(account.status).toBe(201);
		const { id } = await account.json();
		const key = await fetch(`${suite.sandbox.origin}/__sandbox/keys`, {
			method: 'POST',
			headers,
			body: JSON.stringify({ accountId: id, abilities: ['usage:read'] }),
		});
		expect(key.status).toBe(201);
		const created = await key.json();
		expect(created).toEqual({ id: expect.any(String), key: expect.any(String) });
		expect(
			(await new Api(suite.sandbox, created.key).get('/usage')).body.freeUsage.creditBalance,
		).toBe(3);
		const revoked = await fetch(`${suite.sandbox.origin}/__sandbox/keys/${created.id}`, {
			method: 'DELETE',
			headers,
		});
		expect(revoked.status).toBe(204);
		expect((await new Api(suite.sandbox, created.key).get('/usage')).status).toBe(401);
	});

	it(
		'answers a body that is not a JSON object with 422 under body, and a bad advanceSeconds ' +
			'under advanceSeconds',
		async () => {
			const send = async (path: string, body: string | undefined, admin = true) => {
				const response = await fetch(`${suite.sandbox.origin}/__sandbox${path}`, {
					method: 'POST',
					headers: {
						...(admin ? { 'X-Sandbox-Admin': suite.sandbox.adminToken } : {}),
						...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
					},
					body,
				});
				return [response.status, await response.json()];
			};
			const notAnObject = [
				422,
				{ message: expect.any(String), errors: { body: ['Send a JSON object body.'] } },
			];
			for (const path of ['/accounts', '/keys', '/clock']) {
				for (const body of [undefined, '', 'null', '[]', '[{}]', '"x"', '5']) {
					expect([path, body, await send(path, body)]).toEqual([path, body, notAnObject]);
				}
				// The admin token is checked first, whatever the body.
				expect(await send(path, '[]', false)).toEqual([
					401,
					{ message: expect.stringMatching(/admin token/) },
				]);
			}
			const badSeconds = [
				422,
				{
					message: expect.any(String),
					errors: {
						advanceSeconds: ['The advanceSeconds must be a number of seconds, 0 or more.'],
					},
				},
			];
			// Strings, null, booleans and lists are not numbers here, even where a schema would coerce them.
			for (const seconds of ['"5"', 'null', 'true', '[5]', '-1', '1e999']) {
				const body = `{"advanceSeconds": ${seconds}}`;
				expect([body, await send('/clock', body)]).toEqual([body, badSeconds]);
			}
			expect(await send('/clock', '{}')).toEqual(badSeconds);
			expect(await send('/clock', '{"advanceSeconds": 0}')).toEqual([
				200,
				{ now: expect.any(String) },
			]);
		},
	);

	it('moves the clock forward and reports it', async () => {
		const before = Date.parse((await suite.admin.advanceClock(0)).now);
		const after = Date.parse((await suite.admin.advanceClock(3600)).now);
		expect(after - before).toBeGreaterThanOrEqual(3600 * 1000);
		expect(after - before).toBeLessThan(3600 * 1000 + 5000);
	});

	it('resets to a fresh sandbox: old keys gone, the demo key still works, clock back', async () => {
		const own = await suite.own({ demoKey: 'emb_demo_fixed' });
		const ownAdmin = sandboxAdmin(own);
		const api = await newClient(own);
		await api.convert('Star.DST', 'pes');
		await ownAdmin.advanceClock(86400 * 3);
		await ownAdmin.reset();
		expect((await api.get('/usage')).status).toBe(401);
		const demo = new Api(own, 'emb_demo_fixed');
		expect((await demo.get('/jobs')).body.data).toEqual([]);
		expect(Math.abs(Date.parse((await ownAdmin.advanceClock(0)).now) - Date.now())).toBeLessThan(
			5000,
		);
	});

	it('resets all or nothing: when one DELETE fails, every account, key, job and the clock stay', async () => {
		const own = await suite.own();
		const ownAdmin = sandboxAdmin(own);
		const api = await newClient(own);
		const { body } = await api.convert('Star.DST', 'pes');
		await api.waitForJob('conversion', body.job.id);
		const moved = Date.parse((await ownAdmin.advanceClock(86400)).now);
		// A real SQLite failure on the last table reset empties, after the jobs and keys are deleted.
		const db = new DatabaseSync(join(own.dataDir, 'sandbox.db'));
		db.exec(`CREATE TRIGGER refuse_reset BEFORE DELETE ON accounts
			BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END;`);
		try {
			const refused = await fetch(`${own.origin}/__sandbox/reset`, {
				method: 'POST',
				headers: { 'X-Sandbox-Admin': own.adminToken },
			});
			expect(refused.status).toBe(500);
			const jobs = await api.get('/jobs');
			expect(jobs.status).toBe(200);
			expect(jobs.body.data.map((job: any) => [job.id, job.status])).toEqual([
				[body.job.id, 'completed'],
			]);
			expect((await api.get(`/jobs/conversion/${body.job.id}`)).body.job.outputs).toHaveLength(1);
			expect(Date.parse((await ownAdmin.advanceClock(0)).now)).toBeGreaterThanOrEqual(moved);
			// Jobs still run after the failed reset.
			const next = (await api.convert('Star.DST', 'pes')).body.job.id;
			expect((await api.waitForJob('conversion', next)).status).toBe('completed');
		} finally {
			db.exec('DROP TRIGGER refuse_reset');
			db.close();
		}
		await ownAdmin.reset();
		expect((await api.get('/usage')).status).toBe(401);
	});
});
