/**
 * Upload bodies cut short, over HTTP: by the client mid-file (nothing of the request stays behind), and by
 * the sandbox before authentication or past the largest job request (refused at once, not read to the end).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { fixture } from '../../support/embroideryFiles';
import { newClient } from '../support/apiClient';
import { useSandbox } from '../../support/sandboxFixture';
import { eventually } from '../../support/realTime';
import { announcedPost } from '../support/rawUpload';

const suite = useSandbox({ workers: 1 });

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
function cutOffJobUpload(
	api: { key: string | null },
	boundary: string,
	head: Buffer,
): Promise<number | null> {
	return cutOffPost(
		`${suite.sandbox.baseUrl}/jobs`,
		{
			authorization: `Bearer ${api.key ?? ''}`,
			'content-type': `multipart/form-data; boundary=${boundary}`,
		},
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
		// Written by hand: the body stops mid-file under a Content-Length it never reaches, which fetch refuses.
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
		expect(await eventually(() => readdirSync(tmp).length > 0, 60_000)).toBe(true);
		expect(await answered).toBeNull();
		// ...and is gone once the connection is cut, not at the next restart (a process of 2 busy cores
		// may wait seconds for its turn).
		expect(await eventually(() => readdirSync(tmp).length === 0, 60_000)).toBe(true);
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
		// Written by hand, as above: the second file is cut off mid-way.
		const part = (headers: string[], body: Buffer | string) =>
			Buffer.concat([
				Buffer.from([`--${boundary}`, ...headers, '', ''].join('\r\n')),
				Buffer.from(body),
			]);
		const head = Buffer.concat([
			part(['Content-Disposition: form-data; name="workflow"'], 'conversion\r\n'),
			part(['Content-Disposition: form-data; name="format"'], 'pes\r\n'),
			part(
				[
					'Content-Disposition: form-data; name="files[]"; filename="first.dst"',
					'Content-Type: application/octet-stream',
				],
				Buffer.concat([fixture('Star.DST'), Buffer.from('\r\n')]),
			),
			part(
				[
					'Content-Disposition: form-data; name="files[]"; filename="second.dst"',
					'Content-Type: application/octet-stream',
				],
				'',
			),
		]);
		const tmp = join(suite.sandbox.dataDir, 'tmp');
		const files = join(suite.sandbox.dataDir, 'files', api.accountId);
		const answered = cutOffJobUpload(api, boundary, head);
		// Both files stream to the temporary folder: the first one whole, the second in part...
		expect(await eventually(() => readdirSync(tmp).length === 2, 60_000)).toBe(true);
		expect(await answered).toBeNull();
		// ...and both are gone once the connection is cut.
		expect(await eventually(() => readdirSync(tmp).length === 0, 60_000)).toBe(true);
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
