/**
 * scripts/sandbox-client.ts's sandboxRequest: a request the sandbox never answers ends at its bound with the
 * request named, not with fetch's bare "The operation was aborted due to timeout", which a CI log showed for a
 * test with several requests and no way to tell which had hung.
 */
import { createServer, type ServerResponse } from 'node:http';

import { sandboxRequest } from '../../scripts/sandbox-client';
import { listenOnLoopback, type Loopback } from '../support/loopback';

describe('sandboxRequest', () => {
	// The requests it holds, ended with the test. Whether the request reached it within the bound is not asserted:
	// on a loaded machine the connection itself can take longer than 0.2 s (a clean-clone run found none held).
	const held: ServerResponse[] = [];
	let server: Loopback;

	beforeAll(async () => {
		// Reads each request and never answers it.
		server = await listenOnLoopback(createServer((_request, response) => held.push(response)));
	});

	afterAll(async () => {
		for (const response of held) response.destroy();
		await server.close();
	});

	it('names the request that had no answer within its bound', async () => {
		const sandbox = { baseUrl: server.baseUrl, demoKey: 'emb_test' };
		await expect(
			sandboxRequest(sandbox, 'GET', '/jobs/conversion/job_1', { timeoutMs: 200 }),
		).rejects.toThrow(
			new Error('GET /jobs/conversion/job_1 had no answer from the sandbox within 0.2 s.'),
		);
	});
});
