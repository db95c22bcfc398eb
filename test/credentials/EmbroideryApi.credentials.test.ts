/** The credential's test request, run the way n8n runs it, against the sandbox. */
import { testCredential } from '../support/n8nCredentials';
import { useSandbox } from '../support/sandboxFixture';

const env = useSandbox();

describe('the credential test, run the way n8n runs it', () => {
	test('a valid key passes, also with a trailing slash on the base URL', async () => {
		const credentials = await env.credentials();
		expect(await testCredential(credentials)).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(
			(await testCredential({ ...credentials, baseUrl: `${credentials.baseUrl}/` })).status,
		).toBe('OK');
	});

	test('a revoked key is reported as invalid; a key without formats:read as lacking the ability', async () => {
		const credentials = await env.credentials();
		await env.admin.revokeKey(credentials.keyId);
		expect(await testCredential(credentials)).toEqual({
			status: 'Error',
			message: expect.stringMatching(/^The API key is invalid, expired or revoked/),
		});
		const limited = await env.credentials({ plan: 'credits' }, ['jobs:read', 'jobs:write']);
		expect(await testCredential(limited)).toEqual({
			status: 'Error',
			message: expect.stringMatching(/lacks the formats:read ability/),
		});
	});
});
