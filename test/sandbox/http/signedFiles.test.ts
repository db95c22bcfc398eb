import { createHash } from 'node:crypto';

import { Api, newClient } from '../support/apiClient';
import { fixture } from '../../support/embroideryFiles';
import { sandboxAdmin } from '../../support/sandbox';
import { useSandbox } from '../../support/sandboxFixture';

const suite = useSandbox({ workers: 2, signedUrlTtlSeconds: 600, sourceTtlSeconds: 3600 });

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function completedJob(api: Api) {
	const { body } = await api.convert('Star.DST', 'pes');
	return api.waitForJob('conversion', body.job.id);
}

describe('signed file URLs', () => {
	it('streams the source with Content-Type, Content-Length and a Content-Disposition file name', async () => {
		const api = await newClient(suite.sandbox);
		const job = await completedJob(api);
		const file = await api.fetchUrl(job.source.downloadUrl);
		expect(file.status).toBe(200);
		expect(file.headers.get('content-type')).toBe('application/octet-stream');
		expect(file.headers.get('content-length')).toBe(String(fixture('Star.DST').length));
		expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="Star\.DST"/);
		expect(file.bytes.equals(fixture('Star.DST'))).toBe(true);
		expect(sha256(file.bytes)).toBe(job.source.checksum);
	});

	it('keeps the output locked (downloadUrl null) until unlocked, then streams it', async () => {
		const api = await newClient(suite.sandbox);
		const job = await completedJob(api);
		expect(job.outputs[0].downloadUrl).toBeNull();
		const { body } = await api.post(`/jobs/conversion/${job.id}/unlock`);
		const output = body.job.outputs[0];
		const file = await api.fetchUrl(output.downloadUrl);
		expect(file.status).toBe(200);
		expect(file.headers.get('content-disposition')).toMatch(/filename="Star\.pes"/);
		expect(file.bytes.subarray(0, 4).toString('latin1')).toBe('#PES');
		expect(file.bytes.length).toBe(output.size);
		expect(sha256(file.bytes)).toBe(output.checksum);
	});

	it('serves a watermarked preview while locked and the original once unlocked', async () => {
		const api = await newClient(suite.sandbox);
		const job = await completedJob(api);
		expect(job.artifacts).toHaveLength(1);
		const locked = job.artifacts[0];
		expect(locked).toMatchObject({
			kind: 'preview',
			watermarked: true,
			mimeType: 'image/png',
			extension: 'png',
		});
		const lockedImage = await api.fetchUrl(locked.previewUrl);
		expect(lockedImage.status).toBe(200);
		expect(lockedImage.headers.get('content-type')).toBe('image/png');
		expect(lockedImage.headers.get('content-disposition')).toMatch(
			/^inline; filename="Star-preview\.png"/,
		);
		expect(sha256(lockedImage.bytes)).toBe(locked.checksum);
		// The source's and the output's preview URLs show the same locked image.
		expect(sha256((await api.fetchUrl(job.source.previewUrl)).bytes)).toBe(locked.checksum);
		expect(sha256((await api.fetchUrl(job.outputs[0].previewUrl)).bytes)).toBe(locked.checksum);

		const unlocked = (await api.post(`/jobs/conversion/${job.id}/unlock`)).body.job.artifacts[0];
		expect(unlocked.watermarked).toBe(false);
		expect(unlocked.checksum).not.toBe(locked.checksum);
		const original = await api.fetchUrl(unlocked.previewUrl);
		expect(sha256(original.bytes)).toBe(unlocked.checksum);
		// An old URL of the watermarked artifact now shows the original too: the lock state decides on each access.
		expect(sha256((await api.fetchUrl(locked.previewUrl)).bytes)).toBe(unlocked.checksum);
	});

	it('refuses a tampered signature, expiry or route with 403', async () => {
		const api = await newClient(suite.sandbox);
		const job = await completedJob(api);
		const url = new URL(job.source.downloadUrl);
		const signature = url.searchParams.get('signature')!;
		const tampered = new URL(url);
		tampered.searchParams.set(
			'signature',
			signature.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')),
		);
		const extended = new URL(url);
		extended.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
		const missing = new URL(url);
		missing.searchParams.delete('signature');
		const noExpiry = new URL(url);
		noExpiry.searchParams.delete('expires');
		// The right signature twice is a list, not a signature: 403 like the others, not 400.
		const repeated = new URL(url);
		repeated.searchParams.append('signature', signature);
		const otherRoute = new URL(url.href.replace('/download?', '/preview?'));
		for (const bad of [tampered, extended, missing, noExpiry, repeated, otherRoute]) {
			const response = await api.fetchUrl(bad.href);
			expect(response.status).toBe(403);
			expect(response.json.message).toMatch(/signature/i);
		}
	});

	it('refuses an expired URL with 403, and fresh URLs come with the next job request', async () => {
		const own = await suite.own({ signedUrlTtlSeconds: 60 });
		const api = await newClient(own);
		const job = await completedJob(api);
		await sandboxAdmin(own).advanceClock(61);
		const expired = await api.fetchUrl(job.source.downloadUrl);
		expect(expired.status).toBe(403);
		expect(expired.json.message).toMatch(/expired/);
		const fresh = (await api.get(`/jobs/conversion/${job.id}`)).body.job.source.downloadUrl;
		expect(fresh).not.toBe(job.source.downloadUrl);
		expect((await api.fetchUrl(fresh)).status).toBe(200);
	});

	it("refuses another account's file with 403, even with a valid URL", async () => {
		const owner = await newClient(suite.sandbox);
		const stranger = await newClient(suite.sandbox);
		const job = await completedJob(owner);
		for (const url of [job.source.downloadUrl, job.artifacts[0].previewUrl]) {
			const response = await stranger.fetchUrl(url);
			expect(response.status).toBe(403);
			expect(response.json.message).toMatch(/another account/);
		}
	});

	it('needs the key as well as the signature (401 without it)', async () => {
		const api = await newClient(suite.sandbox);
		const job = await completedJob(api);
		const response = await fetch(job.source.downloadUrl);
		expect(response.status).toBe(401);
	});

	it('answers 404 for an unknown file', async () => {
		const api = await newClient(suite.sandbox);
		const response = await api.get(
			'/uploads/01ARZ3NDEKTSV4RRFFQ69G5FAV/download?expires=9999999999&signature=00',
		);
		expect(response.status).toBe(404);
	});

	it('answers 410 for an expired source on download and preview (and retry, see jobs)', async () => {
		const own = await suite.own({ sourceTtlSeconds: 120, signedUrlTtlSeconds: 600 });
		const api = await newClient(own);
		const job = await completedJob(api);
		await sandboxAdmin(own).advanceClock(121);
		for (const url of [job.source.downloadUrl, job.source.previewUrl]) {
			const response = await api.fetchUrl(url);
			expect(response.status).toBe(410);
			expect(response.json.message).toMatch(/expired/);
		}
	});
});
