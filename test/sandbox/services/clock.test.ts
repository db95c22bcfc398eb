/**
 * Time as a dependency (test/support/testClock.ts): the driven clock itself, and the sandbox on it: its rate
 * windows and injected latency read it, and work in progress holds it.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer, get, type IncomingMessage } from 'node:http';

import { clock as nodeClock } from '../../../nodes/Embroidery/transport/clock';
import { listenOnLoopback } from '../../support/loopback';
import { useOwnSandboxes } from '../../support/sandboxFixture';
import { sandboxAdmin } from '../../support/sandbox';
import { TestClock, useTestClock } from '../../support/testClock';
import { fixture } from '../../support/embroideryFiles';
import { newClient } from '../support/apiClient';

describe('the driven clock', () => {
	it('ends a wait when the test advances past it, earliest first, and keeps the others', async () => {
		const clock = new TestClock();
		const started = clock.now();
		const woken: string[] = [];
		const long = clock.sleep(60_000).then(() => woken.push('60 s'));
		const short = clock.sleep(30_000).then(() => woken.push('30 s'));
		const later = clock.sleep(120_000).then(() => woken.push('120 s'));
		clock.advance(61_000);
		await Promise.all([long, short]);
		expect(woken).toEqual(['30 s', '60 s']);
		expect(clock.now() - started).toBeGreaterThanOrEqual(61_000);
		expect(clock.nextWakeAt).toBeGreaterThanOrEqual(started + 120_000);
		clock.advance(60_000);
		await later;
		expect(woken).toEqual(['30 s', '60 s', '120 s']);
	});

	it('ends a wait at once when its signal fires', async () => {
		const clock = new TestClock();
		const controller = new AbortController();
		const waiting = clock.sleep(60_000, controller.signal);
		controller.abort(new Error('Stopped'));
		await expect(waiting).rejects.toThrow('Stopped');
		expect(clock.nextWakeAt).toBeUndefined();
	});

	it('skips a wait while driven, and not while something is busy', async () => {
		const clock = new TestClock();
		let busy = true;
		const stop = clock.drive({ busy: () => busy });
		try {
			const realStart = Date.now();
			let done = false;
			const waiting = clock.sleep(60_000).then(() => (done = true));
			await new Promise((resolve) => setTimeout(resolve, 200));
			expect(done).toBe(false);
			busy = false;
			await waiting;
			expect(Date.now() - realStart).toBeLessThan(30_000);
			expect(clock.skipped).toBeGreaterThan(55_000);
		} finally {
			stop();
		}
	});

	it("does not skip while an answer's body is still arriving", async () => {
		const clock = new TestClock();
		// A server whose time is its own (another process's, say): the answer's head at once, its body's
		// end 300 ms of real time later.
		const server = createServer((_request, response) => {
			response.writeHead(200, { 'content-type': 'text/plain' });
			response.write('head ');
			setTimeout(() => response.end('and body'), 300);
		});
		const loopback = await listenOnLoopback(server);
		const stop = clock.drive();
		try {
			// A client's time limit, as a download's: it must not fire while the body is on its way.
			let limitFired = false;
			const limit = clock.sleep(60_000).then(() => (limitFired = true));
			const body = await new Promise<string>((resolve, reject) => {
				get(`${loopback.origin}/`, (response) => {
					let text = '';
					response.setEncoding('utf8');
					response.on('data', (chunk: string) => (text += chunk));
					response.on('end', () => resolve(text));
				}).on('error', reject);
			});
			expect(body).toBe('head and body');
			expect(limitFired).toBe(false);
			// Once nothing is under way, the limit is skipped to.
			await limit;
			expect(clock.skipped).toBeGreaterThan(55_000);
		} finally {
			stop();
			await loopback.close();
		}
	});

	it('watches each answer once, however many test files of a worker loaded it', async () => {
		// Jest loads the clock's module afresh for each test file of a worker; the HTTP channels stay.
		for (let file = 0; file < 12; file++)
			jest.isolateModules(() => require('../../support/testClock'));
		const server = createServer((_request, response) => {
			response.write('head ');
			setTimeout(() => response.end('and body'), 50);
		});
		const loopback = await listenOnLoopback(server);
		// Subscribed after every load, so it sees the listeners all of them added to the answer.
		let endListeners = -1;
		const count = (message: unknown) =>
			(endListeners = (message as { response: IncomingMessage }).response.listenerCount('end'));
		subscribe('http.client.response.finish', count);
		try {
			await new Promise<void>((resolve, reject) => {
				get(`${loopback.origin}/`, (response) => response.resume().on('end', resolve)).on(
					'error',
					reject,
				);
			});
			expect(endListeners).toBe(1);
		} finally {
			unsubscribe('http.client.response.finish', count);
			await loopback.close();
		}
	});

	it('keeps real time while paused', async () => {
		const clock = new TestClock();
		const stop = clock.drive();
		const resume = clock.pause();
		try {
			let done = false;
			const waiting = clock.sleep(60_000).then(() => (done = true));
			await new Promise((resolve) => setTimeout(resolve, 200));
			expect(done).toBe(false);
			resume();
			await waiting;
			expect(clock.skipped).toBeGreaterThan(55_000);
		} finally {
			stop();
		}
	});
});

describe('the sandbox on a driven clock', () => {
	const clock = new TestClock();
	const sandboxes = useOwnSandboxes();
	useTestClock(clock);

	it("is the node's clock while in force", () => {
		const before = clock.skipped;
		clock.advance(5_000);
		expect(Math.abs(nodeClock.now() - clock.now())).toBeLessThan(1_000);
		expect(clock.skipped).toBe(before + 5_000);
	});

	it('counts its rate window on that clock: a full minute frees when the clock moves on, not before', async () => {
		const sandbox = await sandboxes.own({ time: clock, networkRateLimit: 0 });
		const api = await newClient(sandbox);
		const statuses: number[] = [];
		for (let request = 0; request < 61; request++)
			statuses.push((await api.get('/formats')).status);
		expect(statuses.filter((status) => status === 200)).toHaveLength(60);
		expect(statuses[60]).toBe(429);
		clock.advance(61_000);
		expect((await api.get('/formats')).status).toBe(200);
	});

	it(
		'waits out injected latency on that clock, and is ' +
			'at rest only when nothing is answered or processed',
		async () => {
			const sandbox = await sandboxes.own({ time: clock });
			const api = await newClient(sandbox);
			const admin = sandboxAdmin(sandbox);
			expect(sandbox.atRest()).toBe(true);
			// A minute of latency passes as soon as nothing else goes on (the request waiting on it holds nothing).
			await admin.setFaults({ latencyMs: 60_000 });
			const realStart = Date.now();
			const skippedBefore = clock.skipped;
			expect((await api.get('/formats')).status).toBe(200);
			expect(Date.now() - realStart).toBeLessThan(30_000);
			expect(clock.skipped - skippedBefore).toBeGreaterThanOrEqual(55_000);
			await admin.clearFaults();

			// A job being processed holds the clock: the sandbox is not at rest until it has ended.
			await admin.setFaults({ processingPaused: true });
			const created = await api.convert('Star.DST', 'pes', fixture('Star.DST'));
			expect(created.status).toBe(202);
			expect(sandbox.atRest()).toBe(true);
			await admin.setFaults({ processingPaused: false });
			expect(sandbox.atRest()).toBe(false);
			const job = await api.waitForJob('conversion', String(created.body.job.id), 120_000);
			expect(job.status).toBe('completed');
			for (let waited = 0; !sandbox.atRest() && waited < 5_000; waited += 20)
				await new Promise((resolve) => setTimeout(resolve, 20));
			expect(sandbox.atRest()).toBe(true);
		},
	);
});
