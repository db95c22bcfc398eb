/** Percent-encoded API paths meet the same network ceiling and injected faults as the plain ones. */
import { type RunningSandbox } from '../../../support/sandbox';
import { useSandbox } from '../../../support/sandboxFixture';

const suite = useSandbox({ workers: 1 });

describe('percent-encoded paths', () => {
	const encoded = (running: RunningSandbox) => `${running.origin}/api/%761/formats`;

	it('count against the network ceiling like the plain path (20 of 30 pass a ceiling of 20)', async () => {
		const own = await suite.own({ networkRateLimit: 20 });
		const statuses: number[] = [];
		for (let i = 0; i < 30; i++) {
			const response = await fetch(encoded(own), {
				headers: { authorization: `Bearer ${own.demoKey}` },
			});
			statuses.push(response.status);
		}
		expect(statuses.filter((status) => status === 200)).toHaveLength(20);
		expect(statuses.slice(20)).toEqual(Array(10).fill(429));
		// Unknown paths under an encoded prefix count too.
		const unknown = await fetch(`${own.origin}/api/%761/nothing-here`);
		expect(unknown.status).toBe(429);
	});

	it('get the injected faults like the plain path', async () => {
		await suite.admin.setFaults({ rate5xx: 1 });
		try {
			const response = await fetch(encoded(suite.sandbox), {
				headers: { authorization: `Bearer ${suite.sandbox.demoKey}` },
			});
			expect(response.status).toBe(503);
		} finally {
			await suite.admin.clearFaults();
		}
	});
});
