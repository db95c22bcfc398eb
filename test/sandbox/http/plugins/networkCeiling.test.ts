import { newClient } from '../../support/apiClient';
import { useSandbox } from '../../../support/sandboxFixture';

/** The spec's network-level ceiling, set low so a test can reach it from one address. */
const ceiling = 30;

const suite = useSandbox({ workers: 1, networkRateLimit: ceiling });

describe('the network-level ceiling', () => {
	it('counts every v1 request from one address, whatever the key, before the key is checked', async () => {
		const first = await newClient(suite.sandbox);
		const second = await newClient(suite.sandbox);
		for (let i = 0; i < 10; i++) expect((await first.get('/formats')).status).toBe(200);
		for (let i = 0; i < 10; i++) expect((await second.get('/usage')).status).toBe(200);
		// Requests with a wrong key count too: the ceiling sits in front of authentication.
		for (let i = 0; i < 10; i++) {
			const response = await fetch(`${suite.sandbox.baseUrl}/formats`, {
				headers: { authorization: 'Bearer not-a-key', accept: 'application/json' },
			});
			expect(response.status).toBe(401);
		}

		const limited = await fetch(`${suite.sandbox.baseUrl}/formats`, {
			headers: { authorization: 'Bearer not-a-key', accept: 'application/json' },
		});
		expect(limited.status).toBe(429);
		const retryAfter = limited.headers.get('retry-after');
		expect(retryAfter).toMatch(/^\d+$/);
		expect((await limited.json()).message).toMatch(/network address: at most 30 per 60 seconds/);
		// Each key is still far below its own 60 a minute, yet both are refused now.
		expect((await first.get('/formats')).status).toBe(429);
		expect((await second.get('/formats')).status).toBe(429);

		// The control API is not part of v1 and stays reachable.
		await suite.admin.advanceClock(Number(retryAfter));
		expect((await first.get('/formats')).status).toBe(200);
	});
});
