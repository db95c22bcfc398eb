import { Api } from '../support/apiClient';
import { useSandbox } from '../../support/sandboxFixture';

const suite = useSandbox({ workers: 1 });

describe('authentication (401)', () => {
	const routes = ['/formats', '/usage', '/jobs', '/jobs/conversion/01ARZ3NDEKTSV4RRFFQ69G5FAV'];

	it.each(routes)('refuses GET %s without a key', async (path) => {
		const response = await new Api(suite.sandbox, null).get(path);
		expect(response.status).toBe(401);
		expect(typeof response.body.message).toBe('string');
	});

	it('refuses a malformed Authorization header', async () => {
		for (const header of [
			'Basic abc',
			'Bearer',
			'Token abc',
			`Bearer ${suite.sandbox.demoKey} extra`,
		]) {
			const response = await new Api(suite.sandbox, null).get('/formats', {
				Authorization: header,
			});
			expect(response.status).toBe(401);
		}
	});

	it('refuses an unknown key', async () => {
		const response = await new Api(suite.sandbox, 'emb_sandbox_not_a_real_key').get('/formats');
		expect(response.status).toBe(401);
		expect(response.body.message).toMatch(/not valid/);
	});

	it('refuses a revoked key at once', async () => {
		const { keyId, key } = await suite.admin.createAccountWithKey({ plan: 'credits' });
		const api = new Api(suite.sandbox, key);
		expect((await api.get('/formats')).status).toBe(200);
		await suite.admin.revokeKey(keyId);
		const response = await api.get('/formats');
		expect(response.status).toBe(401);
		expect(response.body.message).toMatch(/revoked/);
	});

	it('refuses an expired key, judged by the sandbox clock', async () => {
		const { id } = await suite.admin.createAccount({ plan: 'credits' });
		const { key } = await suite.admin.createKey(id, ['formats:read'], 120);
		const api = new Api(suite.sandbox, key);
		expect((await api.get('/formats')).status).toBe(200);
		await suite.admin.advanceClock(121);
		const response = await api.get('/formats');
		expect(response.status).toBe(401);
		expect(response.body.message).toMatch(/expired/);
	});

	it('accepts the demo key', async () => {
		expect((await new Api(suite.sandbox, suite.sandbox.demoKey).get('/usage')).status).toBe(200);
	});
});

describe('abilities (403), checked before the operation', () => {
	const cases: Array<[string, string, string]> = [
		['formats:read', 'GET', '/formats'],
		['usage:read', 'GET', '/usage'],
		['jobs:read', 'GET', '/jobs'],
		['jobs:read', 'GET', '/jobs/conversion/01ARZ3NDEKTSV4RRFFQ69G5FAV'],
		['jobs:read', 'GET', '/jobs/digitising/01ARZ3NDEKTSV4RRFFQ69G5FAV'],
		['jobs:read', 'GET', '/uploads/01ARZ3NDEKTSV4RRFFQ69G5FAV/download?expires=1&signature=x'],
		['jobs:read', 'GET', '/uploads/01ARZ3NDEKTSV4RRFFQ69G5FAV/preview?expires=1&signature=x'],
		['jobs:write', 'POST', '/jobs'],
		['jobs:write', 'POST', '/jobs/conversion/01ARZ3NDEKTSV4RRFFQ69G5FAV/retry'],
		['jobs:write', 'POST', '/jobs/digitising/01ARZ3NDEKTSV4RRFFQ69G5FAV/retry'],
		['jobs:write', 'POST', '/jobs/conversion/01ARZ3NDEKTSV4RRFFQ69G5FAV/unlock'],
		['jobs:write', 'POST', '/jobs/digitising/01ARZ3NDEKTSV4RRFFQ69G5FAV/unlock'],
	];

	it.each(cases)('needs %s for %s %s', async (ability, method, path) => {
		const { id } = await suite.admin.createAccount({ plan: 'credits' });
		const others = (['formats:read', 'usage:read', 'jobs:read', 'jobs:write'] as const).filter(
			(a) => a !== ability,
		);
		const without = new Api(suite.sandbox, (await suite.admin.createKey(id, [...others])).key);
		const response = method === 'GET' ? await without.get(path) : await without.post(path);
		expect(response.status).toBe(403);
		expect(response.body.message).toContain(ability);
		const only = new Api(
			suite.sandbox,
			(await suite.admin.createKey(id, [ability as 'jobs:read'])).key,
		);
		const allowed = method === 'GET' ? await only.get(path) : await only.post(path);
		expect(allowed.status).not.toBe(403);
		expect(allowed.status).not.toBe(401);
	});
});
