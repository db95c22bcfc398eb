import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import {
	createServer,
	request as httpRequest,
	type ClientRequest,
	type IncomingMessage,
} from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import * as artwork from '../../sandbox/digitiser/artwork';
import * as registry from '../../sandbox/engine/registry';
import { writePattern } from '../../sandbox/engine';
import {
	billionLaughs,
	driftingXxx,
	explodingPattern,
	longDst,
	pngBomb,
	randomSource,
} from '../../bench/fuzz-inputs';
import { fixture, newClient } from './client';
import { sandboxAdmin, type RunningSandbox } from '../support/sandbox';
import { useSandbox } from '../support/sandboxFixture';
import { listenOnLoopback, type Loopback } from '../support/loopback';
import { descendants } from '../support/sandboxProcess';

const suite = useSandbox({ workers: 1 });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` holds or the deadline passes; returns whether it held. */
async function eventually(check: () => boolean, timeoutMs = 5000): Promise<boolean> {
	const deadline = Date.now() + timeoutMs;
	while (!check()) {
		if (Date.now() > deadline) return false;
		await sleep(25);
	}
	return true;
}

/** Starts a POST whose Content-Length announces `declaredBytes`; the caller writes the body. */
function announcedPost(
	url: string,
	headers: Record<string, string>,
	declaredBytes: number,
	onResponse: (response: IncomingMessage) => void,
): ClientRequest {
	const target = new URL(url);
	return httpRequest(
		{
			host: target.hostname,
			port: target.port,
			path: target.pathname,
			method: 'POST',
			headers: { ...headers, 'content-length': String(declaredBytes) },
		},
		onResponse,
	);
}

/**
 * Starts a raw POST that announces `declaredBytes` of body, writes `sentBytes` of it after `head`,
 * then cuts the connection. Resolves with the status if the server answered first, else null.
 */
function cutOffPost(
	url: string,
	headers: Record<string, string>,
	head: Buffer,
	declaredBytes: number,
	sentBytes: number,
): Promise<number | null> {
	return new Promise((resolve) => {
		const req = announcedPost(url, headers, declaredBytes, (response) => {
			response.resume();
			response.on('end', () => resolve(response.statusCode ?? null));
		});
		req.on('error', () => resolve(null));
		req.write(head);
		let written = head.length;
		const chunk = Buffer.alloc(256 * 1024, 0x41);
		const pump = () => {
			while (written < sentBytes) {
				const size = Math.min(chunk.length, sentBytes - written);
				written += size;
				if (!req.write(chunk.subarray(0, size))) return void req.once('drain', pump);
			}
			setTimeout(() => req.destroy(), 100);
		};
		pump();
	});
}

/** A job upload of `head` (multipart, `boundary`) announced as 20 MB and cut off after 5 MB. */
function cutOffJobUpload(api: { key: string | null }, boundary: string, head: Buffer): Promise<number | null> {
	return cutOffPost(
		`${suite.sandbox.baseUrl}/jobs`,
		{ authorization: `Bearer ${api.key ?? ''}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
		head,
		20 * 1024 * 1024,
		5 * 1024 * 1024,
	);
}

describe('an upload whose connection drops mid-file', () => {
	it('leaves no temporary file, creates no job and counts no quota', async () => {
		const api = await newClient(suite.sandbox, { plan: 'free' });
		const before = (await api.get('/usage')).body.freeUsage;
		const boundary = 'cut-off-upload';
		const head = Buffer.from(
			[
				`--${boundary}`,
				'Content-Disposition: form-data; name="workflow"',
				'',
				'conversion',
				`--${boundary}`,
				'Content-Disposition: form-data; name="format"',
				'',
				'pes',
				`--${boundary}`,
				'Content-Disposition: form-data; name="file"; filename="big.dst"',
				'Content-Type: application/octet-stream',
				'',
				'',
			].join('\r\n'),
		);
		const tmp = join(suite.sandbox.dataDir, 'tmp');
		const answered = cutOffJobUpload(api, boundary, head);
		// The partial file exists while the upload streams...
		expect(await eventually(() => readdirSync(tmp).length > 0)).toBe(true);
		expect(await answered).toBeNull();
		// ...and is gone as soon as the connection is cut, not at the next restart.
		expect(await eventually(() => readdirSync(tmp).length === 0, 2000)).toBe(true);
		expect((await api.get('/jobs')).body.data).toEqual([]);
		expect((await api.get('/usage')).body.freeUsage).toEqual(before);
		// The key still works normally afterwards.
		expect((await api.convert('Star.DST', 'pes')).status).toBe(202);
	});

	it('during the second file of a request, the first complete, leaves no file, no job and no quota used', async () => {
		// A credits account: the free plan takes one source per request.
		const api = await newClient(suite.sandbox);
		const before = (await api.get('/usage')).body.freeUsage;
		const boundary = 'cut-off-second-file';
		const part = (headers: string[], body: Buffer | string) =>
			Buffer.concat([Buffer.from([`--${boundary}`, ...headers, '', ''].join('\r\n')), Buffer.from(body)]);
		const head = Buffer.concat([
			part(['Content-Disposition: form-data; name="workflow"'], 'conversion\r\n'),
			part(['Content-Disposition: form-data; name="format"'], 'pes\r\n'),
			part(
				['Content-Disposition: form-data; name="files[]"; filename="first.dst"', 'Content-Type: application/octet-stream'],
				Buffer.concat([fixture('Star.DST'), Buffer.from('\r\n')]),
			),
			part(
				['Content-Disposition: form-data; name="files[]"; filename="second.dst"', 'Content-Type: application/octet-stream'],
				'',
			),
		]);
		const tmp = join(suite.sandbox.dataDir, 'tmp');
		const files = join(suite.sandbox.dataDir, 'files', api.accountId);
		const answered = cutOffJobUpload(api, boundary, head);
		// Both files stream to the temporary folder: the first one whole, the second in part...
		expect(await eventually(() => readdirSync(tmp).length === 2)).toBe(true);
		expect(await answered).toBeNull();
		// ...and both are gone once the connection is cut.
		expect(await eventually(() => readdirSync(tmp).length === 0, 2000)).toBe(true);
		expect(existsSync(files) ? readdirSync(files) : []).toEqual([]);
		expect((await api.get('/jobs')).body.data).toEqual([]);
		expect((await api.get('/usage')).body.freeUsage).toEqual(before);
	});
});

/**
 * POSTs a body of `declaredBytes` (announced by Content-Length) and keeps sending it until the server
 * closes the connection; resolves with the answer's status and how much of the body went out first.
 */
function refusedPost(
	url: string,
	headers: Record<string, string>,
	declaredBytes: number,
): Promise<{ status: number | null; sentBytes: number }> {
	return new Promise((resolve) => {
		let status: number | null = null;
		let sentBytes = 0;
		const req = announcedPost(url, headers, declaredBytes, (response) => {
			status = response.statusCode ?? null;
			response.resume();
		});
		req.on('error', () => undefined);
		req.on('close', () => resolve({ status, sentBytes }));
		const chunk = Buffer.alloc(64 * 1024, 0x41);
		const pump = () => {
			while (sentBytes < declaredBytes) {
				sentBytes += chunk.length;
				if (!req.write(chunk)) return void req.once('drain', pump);
			}
			req.end();
		};
		pump();
	});
}

describe('bodies before authentication', () => {
	const sixtyMb = 60 * 1024 * 1024;
	/** Far below the announced size: the server answered and closed instead of reading on. */
	const readAtMost = 16 * 1024 * 1024;

	it('refuses an unauthenticated 60 MB body with 413 at once and closes the connection', async () => {
		for (const contentType of [
			'application/octet-stream',
			'application/json',
			'application/x-www-form-urlencoded',
		]) {
			const { status, sentBytes } = await refusedPost(
				`${suite.sandbox.baseUrl}/jobs`,
				{ 'content-type': contentType },
				sixtyMb,
			);
			expect([contentType, status]).toEqual([contentType, 413]);
			expect(sentBytes).toBeLessThan(readAtMost);
		}
	});

	it('answers an unauthenticated 60 MB upload with 401 without reading it', async () => {
		const { status, sentBytes } = await refusedPost(
			`${suite.sandbox.baseUrl}/jobs`,
			{ 'content-type': 'multipart/form-data; boundary=x' },
			sixtyMb,
		);
		expect(status).toBe(401);
		expect(sentBytes).toBeLessThan(readAtMost);
	});

	it('refuses a multipart body larger than any job request (10 files of 50 MB) with 413 at once', async () => {
		const api = await newClient(suite.sandbox);
		const { status, sentBytes } = await refusedPost(
			`${suite.sandbox.baseUrl}/jobs`,
			{ authorization: `Bearer ${api.key}`, 'content-type': 'multipart/form-data; boundary=x' },
			600 * 1024 * 1024,
		);
		expect(status).toBe(413);
		expect(sentBytes).toBeLessThan(readAtMost);
	});
});

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

describe('recording a finished job', () => {
	it('fails the job with recording_failed, keeps no half-recorded outputs and rejects no promise when a write throws', async () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-recording-'));
		const rejections: unknown[] = [];
		const onRejection = (reason: unknown) => rejections.push(reason);
		process.on('unhandledRejection', onRejection);
		const own = await suite.own({ dataDir });
		try {
			const api = await newClient(own);
			// A real SQLite failure on the last of the three result rows (output and preview come first).
			const db = new DatabaseSync(join(dataDir, 'sandbox.db'));
			db.exec(`CREATE TRIGGER refuse_results BEFORE INSERT ON uploads
				WHEN NEW.role = 'preview_watermarked'
				BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END;`);
			db.close();

			const { body } = await api.convert('Star.DST', 'pes');
			const job = await api.waitForJob('conversion', body.job.id);
			expect(job).toMatchObject({
				status: 'failed',
				failureCode: 'recording_failed',
				outputs: [],
			});
			expect(job.failureReason).toMatch(/disk full \(test\)/);
			expect(job.events.map((event: any) => event.type)).toEqual([
				'created',
				'processing',
				'failed',
			]);
			// The engine's files went with the rows: only the source stays in the account's folder.
			expect(readdirSync(join(dataDir, 'files', api.accountId))).toHaveLength(1);
			expect(rejections).toEqual([]);

			// The sandbox keeps serving, and the job runs once the database accepts writes again.
			const fix = new DatabaseSync(join(dataDir, 'sandbox.db'));
			fix.exec('DROP TRIGGER refuse_results');
			fix.close();
			expect((await api.post(`/jobs/conversion/${body.job.id}/retry`)).status).toBe(202);
			expect((await api.waitForJob('conversion', body.job.id)).status).toBe('completed');
		} finally {
			process.off('unhandledRejection', onRejection);
			await own.close();
			rmSync(dataDir, { recursive: true, force: true });
		}
	});
});

describe('unlocking', () => {
	it('charges nothing when recording the unlock fails: charge, unlock and event are one transaction', async () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-unlock-'));
		const own = await suite.own({ dataDir });
		try {
			const api = await newClient(own, { plan: 'credits', creditBalance: 5 });
			const { body } = await api.convert('Star.DST', 'pes');
			await api.waitForJob('conversion', body.job.id);
			const db = new DatabaseSync(join(dataDir, 'sandbox.db'));
			db.exec(`CREATE TRIGGER refuse_unlock BEFORE INSERT ON job_events
				WHEN NEW.type = 'unlocked'
				BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END;`);
			const refused = await api.post(`/jobs/conversion/${body.job.id}/unlock`);
			expect(refused.status).toBe(500);
			expect((await api.get('/usage')).body.freeUsage.creditBalance).toBe(5);
			expect((await api.get(`/jobs/conversion/${body.job.id}`)).body.job.downloadsUnlocked).toBe(
				false,
			);
			db.exec('DROP TRIGGER refuse_unlock');
			db.close();
			expect((await api.post(`/jobs/conversion/${body.job.id}/unlock`)).status).toBe(200);
			expect((await api.get('/usage')).body.freeUsage.creditBalance).toBe(4);
		} finally {
			await own.close();
			rmSync(dataDir, { recursive: true, force: true });
		}
	});
});

describe('engine processes', () => {
	it('fail a job whose process runs out of memory with engine_out_of_memory, and replace the process', async () => {
		const own = await suite.own({ workerMemoryMb: 64 });
		const api = await newClient(own);
		await sandboxAdmin(own).setFaults({ workerOutOfMemoryRate: 1 });
		const { body } = await api.convert('Star.DST', 'pes');
		const job = await api.waitForJob('conversion', body.job.id);
		expect(job).toMatchObject({
			status: 'failed',
			failureCode: 'engine_out_of_memory',
		});
		expect(job.failureReason).toMatch(/64 MB/);
		await sandboxAdmin(own).clearFaults();
		// The one process died; its replacement runs the next jobs.
		for (let i = 0; i < 2; i++) {
			const next = (await api.convert('Star.DST', 'pes')).body.job.id;
			expect((await api.waitForJob('conversion', next)).status).toBe('completed');
		}
	});

	it('fail the job of a process killed mid-job with engine_error, never leave it processing, and run the next job', async () => {
		const engineProcesses = () =>
			descendants(process.pid).filter((pid) => {
				try {
					return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('bootstrap.js');
				} catch {
					return false;
				}
			});
		const others = new Set(engineProcesses());
		const own = await suite.own({ workers: 1 });
		const api = await newClient(own);
		const [engine] = engineProcesses().filter((pid) => !others.has(pid));
		expect(engine).toBeGreaterThan(0);
		// Two million stitches: seconds of work, so the process is killed while it runs the job.
		const { body } = await api.createJob({ workflow: 'conversion', format: 'pes' }, [
			{ field: 'files[]', name: 'long.dst', bytes: longDst(1_999_990) },
		]);
		const processing = async () =>
			(await api.get(`/jobs/conversion/${body.job.id}`)).body.job.status === 'processing';
		const deadline = Date.now() + 10_000;
		while (!(await processing())) {
			expect(Date.now()).toBeLessThan(deadline);
			await sleep(50);
		}
		process.kill(engine, 'SIGKILL');
		const job = await api.waitForJob('conversion', body.job.id, 30_000);
		expect(job).toMatchObject({ status: 'failed', failureCode: 'engine_error', outputs: [] });
		expect(job.failureReason).toBe('The engine crashed: the engine process exited with SIGKILL.');
		expect(job.events.map((event: any) => event.type)).toEqual(['created', 'processing', 'failed']);
		// A new process took the dead one's place and runs the next job.
		const replacements = engineProcesses().filter((pid) => !others.has(pid));
		expect(replacements).toHaveLength(1);
		expect(replacements).not.toContain(engine);
		const next = (await api.convert('Star.DST', 'pes')).body.job.id;
		expect((await api.waitForJob('conversion', next)).status).toBe('completed');
	});
});

describe('a timed-out job', () => {
	it('fails with engine_timeout, its engine process is stopped and replaced, and no file it wrote stays behind', async () => {
		const own = await suite.own({ jobTimeoutSeconds: 2 });
		const api = await newClient(own);
		// Two million stitches: reading, writing and previews take far longer than 2 s.
		const { body } = await api.createJob({ workflow: 'conversion', format: 'pes' }, [
			{ field: 'files[]', name: 'long.dst', bytes: longDst(1_999_990) },
		]);
		const job = await api.waitForJob('conversion', body.job.id, 60_000);
		expect(job).toMatchObject({ status: 'failed', failureCode: 'engine_timeout' });
		// The replacement runs the next job, and the stopped one writes nothing more.
		const next = (await api.convert('Star.DST', 'pes')).body.job.id;
		expect((await api.waitForJob('conversion', next)).status).toBe('completed');
		await new Promise((resolve) => setTimeout(resolve, 1000));
		const db = new DatabaseSync(join(own.dataDir, 'sandbox.db'), { readOnly: true });
		try {
			const named = new Set(
				(db.prepare('SELECT path FROM uploads').all() as Array<{ path: string }>).map((row) => row.path),
			);
			const stored = readdirSync(join(own.dataDir, 'files'), { recursive: true, withFileTypes: true })
				.filter((entry) => entry.isFile())
				.map((entry) => join(entry.parentPath, entry.name).slice(join(own.dataDir, 'files').length + 1));
			// The long source, Star.DST and the completed job's output and two previews.
			expect(stored.sort()).toEqual([...named].sort());
			expect(stored).toHaveLength(5);
		} finally {
			db.close();
		}
	});
});

describe('the engine ceilings, over HTTP', () => {
	/** Milliseconds from the job's `processing` event to its `failed` one. */
	const processingMs = (job: any) => {
		const at = (type: string) => Date.parse(job.events.find((event: any) => event.type === type).at);
		return at('failed') - at('processing');
	};

	it('fail a small XXX file of metre-long moves converted to DST with pattern_too_large, before writing', async () => {
		const api = await newClient(suite.sandbox);
		const source = writePattern(explodingPattern(randomSource(13), 60_000), 'xxx').bytes;
		expect(source.length).toBeLessThan(310_000);
		const created = await api.createJob({ workflow: 'conversion', format: 'dst' }, [
			{ name: 'explode.xxx', bytes: source },
		]);
		expect(created.status).toBe(202);
		const job = await api.waitForJob('conversion', created.body.job.id, 60_000);
		expect(job).toMatchObject({ status: 'failed', failureCode: 'pattern_too_large', outputs: [] });
		expect(job.failureReason).toMatch(
			/^Written as DST, this design of 60,002 entries would need [\d,]+ records: its moves \(up to [\d.]+ m long\) must be split into steps of at most 12\.1 mm\. A conversion may write at most [\d,]+ records/,
		);
		// Refused from the count of records, not after writing tens of megabytes.
		expect(processingMs(job)).toBeLessThan(5000);
	});

	it('refuse an XXX file whose moves drift past the pattern model as unreadable_source instead of wrapping', async () => {
		const api = await newClient(suite.sandbox);
		// 70,000 moves of 3.2 m one way would wrap a 32-bit position (2^31 / 32,000 is about 67,109).
		const created = await api.createJob({ workflow: 'conversion', format: 'dst' }, [
			{ name: 'drift.xxx', bytes: driftingXxx(70_000) },
		]);
		expect(created.status).toBe(202);
		const job = await api.waitForJob('conversion', created.body.job.id, 60_000);
		expect(job).toMatchObject({ status: 'failed', failureCode: 'unreadable_source', outputs: [] });
		expect(job.failureReason).toMatch(
			/The file is damaged: its moves lead [\d.]+ m from its origin, beyond the 10\.0 m on each axis/,
		);
		expect(processingMs(job)).toBeLessThan(5000);
	});
});

describe('hostile SVG artwork', () => {
	it('is failed fast with artwork_too_large when it embeds a PNG bomb (7000 x 7000 of zeros, 49 megapixels in a few KB)', async () => {
		const api = await newClient(suite.sandbox);
		const bomb = pngBomb(7000).toString('base64');
		const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><rect width="90" height="90" fill="#a33"/><image width="200" height="200" href="data:image/png;base64,${bomb}"/></svg>`;
		const started = Date.now();
		const created = await api.createJob(
			{ workflow: 'digitising', format: 'pes', width_mm: 60, colour_count: 3 },
			[{ name: 'bomb.svg', bytes: Buffer.from(svg) }],
		);
		expect(created.status).toBe(202);
		const job = await api.waitForJob('digitising', created.body.job.id, 60_000);
		expect(job).toMatchObject({ status: 'failed', failureCode: 'artwork_too_large' });
		expect(job.failureReason).toMatch(/embeds images of more than 16 megapixels/);
		// Refused from the declared size, not after decoding: well inside any job timeout.
		expect(Date.now() - started).toBeLessThan(20_000);
	});
});

describe('SVG artwork that reaches outside itself or expands without end, over HTTP', () => {
	const recorder: { server?: Loopback; connections: number; requests: string[] } = {
		connections: 0,
		requests: [],
	};
	beforeAll(async () => {
		const server = createServer((request, response) => {
			recorder.requests.push(`${request.method} ${request.url}`);
			response.end();
		});
		server.on('connection', () => recorder.connections++);
		recorder.server = await listenOnLoopback(server);
	});
	afterAll(async () => {
		await recorder.server?.close();
	});

	const passwd = readFileSync('/etc/passwd', 'utf8');
	const svg = (body: string, prolog = '') =>
		`<?xml version="1.0"?>\n${prolog}<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="200"><rect width="90" height="90" fill="#a33"/>${body}</svg>`;
	/** One 4 KB entity (the longest accepted) used 1,000 times: 4.1 million characters, past the 4 million allowed. */
	const flatExpansion = () =>
		svg(
			`<text x="0" y="20">${'&wide;'.repeat(1000)}</text>`,
			`<!DOCTYPE svg [<!ENTITY wide "${'ha'.repeat(2048)}">]>`,
		);
	const cases: Array<{ name: string; artwork: () => string; reason: RegExp }> = [
		{
			name: 'an <image href> on a loopback server',
			artwork: () =>
				svg(`<image width="200" height="200" href="${recorder.server!.origin}/logo.png"/>`),
			reason: /<image> refers to "http:\/\/127\.0\.0\.1:\d+\/logo\.png" outside the SVG/,
		},
		{
			name: 'an <image xlink:href> on a loopback server',
			artwork: () =>
				svg(`<image width="200" height="200" xlink:href="${recorder.server!.origin}/logo.png"/>`),
			reason: /<image> refers to "http:\/\/127\.0\.0\.1:\d+\/logo\.png" outside the SVG/,
		},
		{
			name: 'an <image href> of file:///etc/passwd',
			artwork: () => svg('<image width="200" height="200" href="file:///etc/passwd"/>'),
			reason: /<image> refers to "file:\/\/\/etc\/passwd" outside the SVG/,
		},
		{
			name: 'an <image xlink:href> of file:///etc/passwd',
			artwork: () => svg('<image width="200" height="200" xlink:href="file:///etc/passwd"/>'),
			reason: /<image> refers to "file:\/\/\/etc\/passwd" outside the SVG/,
		},
		{
			name: 'a CSS url() of file:///etc/passwd in a style attribute',
			artwork: () => svg('<circle cx="50" cy="50" r="40" style="fill: url(file:///etc/passwd)"/>'),
			reason: /<circle> refers to "file:\/\/\/etc\/passwd" outside the SVG with url\(\)/,
		},
		{
			name: 'a CSS url() of a loopback server in a <style> sheet',
			artwork: () =>
				svg(`<style>circle { fill: url('${recorder.server!.origin}/paint.svg#p'); }</style><circle cx="50" cy="50" r="40"/>`),
			reason: /<style> refers to "http:\/\/127\.0\.0\.1:\d+\/paint\.svg#p" outside the SVG with url\(\)/,
		},
		{
			name: 'a fill="url(file:///etc/passwd)" attribute',
			artwork: () => svg('<circle cx="50" cy="50" r="40" fill="url(file:///etc/passwd#p)"/>'),
			reason: /<circle> refers to "file:\/\/\/etc\/passwd#p" outside the SVG with url\(\)/,
		},
		{
			name: 'an external entity (XXE) of /etc/passwd',
			artwork: () =>
				svg(
					'<text x="10" y="50">&xxe;</text>',
					'<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
				),
			reason: /declares an external entity \(&xxe;\), which would read a file or a web address/,
		},
		{
			name: 'an external entity of a loopback server',
			artwork: () =>
				svg(
					'<text x="10" y="50">&remote;</text>',
					`<!DOCTYPE svg [<!ENTITY remote SYSTEM "${recorder.server!.origin}/entity.txt">]>`,
				),
			reason: /declares an external entity \(&remote;\)/,
		},
		{
			name: 'a billion laughs (nine levels of ten references each)',
			artwork: () => svg('<text x="0" y="20">&lol9;</text>', billionLaughs(9)),
			reason: /its entity &lol1; refers to other entities or holds markup \(the "billion laughs" pattern\)/,
		},
		{
			name: 'an entity expanded past 4 million characters',
			artwork: flatExpansion,
			reason: /its entities expand to more than 4 million characters/,
		},
		{
			name: 'elements nested 300 deep',
			artwork: () => svg(`${'<g>'.repeat(300)}<rect width="10" height="10"/>${'</g>'.repeat(300)}`),
			reason: /it nests elements more than 256 deep/,
		},
		{
			name: '<use> references that fan out into a million drawn elements',
			artwork: () => {
				let defs = '<rect id="u0" width="2" height="2" fill="#0a0"/>';
				for (let level = 1; level <= 6; level++)
					defs += `<g id="u${level}">${`<use href="#u${level - 1}"/>`.repeat(10)}</g>`;
				return svg(`<defs>${defs}</defs><use href="#u6"/>`);
			},
			reason: /its <use> and url\(#…\) references multiply into more than 200000 drawn elements/,
		},
		{
			name: 'a <use> cycle',
			artwork: () =>
				svg('<defs><g id="a"><use href="#b"/><circle r="20" cx="50" cy="50"/></g><g id="b"><use href="#a"/></g></defs><use href="#a"/>'),
			reason: /refers back to itself through <use> or url\(#…\), an endless loop/,
		},
	];

	it.each(cases)(
		'fails $name with unreadable_artwork, connects nowhere and shows no file content',
		async ({ artwork, reason }) => {
			// The check below could not fail if the file it looks for were empty.
			expect(passwd).toContain('root:');
			const api = await newClient(suite.sandbox);
			const created = await api.createJob(
				{ workflow: 'digitising', format: 'pes', width_mm: 60, colour_count: 3 },
				[{ name: 'hostile.svg', bytes: Buffer.from(artwork()) }],
			);
			expect(created.status).toBe(202);
			const job = await api.waitForJob('digitising', created.body.job.id, 60_000);
			expect(job).toMatchObject({ status: 'failed', failureCode: 'unreadable_artwork', outputs: [] });
			expect(job.failureReason).toMatch(/^The SVG artwork was refused: /);
			expect(job.failureReason).toMatch(reason);
			const answer = JSON.stringify(job);
			expect(answer).not.toContain('root:');
			expect(answer).not.toContain(passwd.split('\n')[0]);
			expect(recorder).toMatchObject({ connections: 0, requests: [] });
		},
	);

	it('the recorder does take connections: the checks above would see one', async () => {
		const response = await fetch(`${recorder.server!.origin}/probe`);
		expect(response.status).toBe(200);
		expect(recorder.requests).toEqual(['GET /probe']);
		expect(recorder.connections).toBe(1);
	});
});

describe('content detection of uploads', () => {
	it('runs off the HTTP thread: the process serving HTTP never calls the detectors', async () => {
		// Spies only watch this (the HTTP) thread's modules; worker threads load their own copies.
		const formats = jest.spyOn(registry, 'detectFormat');
		const images = jest.spyOn(artwork, 'detectArtwork');
		try {
			const api = await newClient(suite.sandbox);
			const png = Buffer.from(
				'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
				'base64',
			);
			const accepted = await api.createJob({ workflow: 'conversion', format: 'pes' }, [
				{ field: 'files[]', name: 'Star.DST', bytes: fixture('Star.DST') },
				{ field: 'files[]', name: 'Star.EXP', bytes: fixture('Star.EXP') },
			]);
			expect(accepted.status).toBe(202);
			const job = await api.waitForJob('conversion', accepted.body.jobs[1].id);
			expect(job.source).toMatchObject({
				extension: 'exp',
				checksum: expect.stringMatching(/^[0-9a-f]{64}$/),
			});
			const refused = await api.createJob({ workflow: 'conversion', format: 'pes' }, [
				{ name: 'logo.png', bytes: png },
			]);
			expect(refused.status).toBe(422);
			expect(refused.body.errors.file).toEqual([
				expect.stringMatching(/not a readable embroidery/),
			]);
			const digitising = await api.createJob(
				{
					workflow: 'digitising',
					format: 'pes',
					width_mm: 50,
					colour_count: 2,
				},
				[{ name: 'logo.png', bytes: png }],
			);
			expect(digitising.status).toBe(202);
			expect(formats).not.toHaveBeenCalled();
			expect(images).not.toHaveBeenCalled();
		} finally {
			formats.mockRestore();
			images.mockRestore();
		}
	});
});

describe('the data folder', () => {
	const mode = (path: string) => statSync(path).mode & 0o777;

	it('is private to its owner (0700), whether new, already there, or temporary', async () => {
		expect(mode(suite.sandbox.dataDir)).toBe(0o700);
		const parent = mkdtempSync(join(tmpdir(), 'sandbox-data-'));
		try {
			const existing = join(parent, 'existing');
			mkdirSync(existing, { mode: 0o755 });
			chmodSync(existing, 0o755);
			for (const dataDir of [join(parent, 'new', 'nested'), existing]) {
				const own = await suite.own({ dataDir });
				await own.close();
				expect([dataDir, mode(dataDir)]).toEqual([dataDir, 0o700]);
			}
		} finally {
			rmSync(parent, { recursive: true, force: true });
		}
	});
});

describe('form fields', () => {
	it('refuses a field over 1 KB and more than 20 fields with 422 instead of cutting them short', async () => {
		const api = await newClient(suite.sandbox);
		const star = [{ name: 'Star.DST', bytes: fixture('Star.DST') }];
		const long = await api.createJob(
			{ workflow: 'conversion', format: 'pes', title: 'x'.repeat(2000) },
			star,
		);
		expect(long.status).toBe(422);
		expect(long.body.errors.title).toEqual([expect.stringMatching(/longer than 1024 bytes/)]);
		const many = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`extra${i}`, 'x']));
		const crowded = await api.createJob({ workflow: 'conversion', format: 'pes', ...many }, star);
		expect(crowded.status).toBe(422);
		expect((await api.get('/jobs')).body.data).toEqual([]);
	});
});

describe('creating jobs', () => {
	it('keeps no source file when the inserts fail: the rows roll back and the moved files go with them', async () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-create-'));
		const own = await suite.own({ dataDir });
		try {
			const api = await newClient(own);
			const db = new DatabaseSync(join(dataDir, 'sandbox.db'));
			// The second job's insert fails, after both sources were moved into the store.
			db.exec(`CREATE TRIGGER refuse_second_job BEFORE INSERT ON jobs
				WHEN (SELECT COUNT(*) FROM uploads WHERE account_id = NEW.account_id) >= 2
				BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END;`);
			const refused = await api.createJob({ workflow: 'conversion', format: 'pes' }, [
				{ field: 'files[]', name: 'one.dst', bytes: fixture('Star.DST') },
				{ field: 'files[]', name: 'two.dst', bytes: fixture('Star.DST') },
			]);
			expect(refused.status).toBe(500);
			expect(readdirSync(join(dataDir, 'files', api.accountId))).toEqual([]);
			expect(readdirSync(join(dataDir, 'tmp'))).toEqual([]);
			expect((await api.get('/jobs')).body.data).toEqual([]);
			db.exec('DROP TRIGGER refuse_second_job');
			db.close();
		} finally {
			await own.close();
			rmSync(dataDir, { recursive: true, force: true });
		}
	});
});
