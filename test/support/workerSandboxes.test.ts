import { Agent, request } from 'node:http';

import { startSandboxBroker } from './workerSandboxes';

/** Asks the broker for a path it refuses (no sandbox starts) through `agent`; whether the socket was a reused one. */
async function ask(url: string, agent: Agent): Promise<{ status: number; reusedSocket: boolean }> {
	return await new Promise((resolve, reject) => {
		const sent = request(`${url}/nothing-here`, { method: 'POST', agent }, (response) => {
			response.resume();
			response.on('end', () =>
				resolve({ status: response.statusCode ?? 0, reusedSocket: sent.reusedSocket }),
			);
		});
		sent.on('error', reject);
		sent.end();
	});
}

describe("the jest workers' sandbox broker", () => {
	const saved = process.env.EMBROIDERY_WORKER_SANDBOXES;
	afterAll(() => {
		// Starting a broker names it for this worker; the worker's later files keep the global one.
		process.env.EMBROIDERY_WORKER_SANDBOXES = saved;
	});

	it('closes each connection after its answer, so a worker never writes to one the broker is closing', async () => {
		const broker = await startSandboxBroker();
		const agent = new Agent({ keepAlive: true });
		try {
			const first = await ask(broker.url, agent);
			const second = await ask(broker.url, agent);
			expect(first).toEqual({ status: 404, reusedSocket: false });
			// Kept alive, the second question would go out on the first one's socket.
			expect(second).toEqual({ status: 404, reusedSocket: false });
		} finally {
			agent.destroy();
			await broker.close();
		}
	});
});
