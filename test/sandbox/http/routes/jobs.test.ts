import { Api, damagedPes, isoDate, newClient } from '../../support/apiClient';
import { fixture } from '../../../support/embroideryFiles';
import { sandboxAdmin } from '../../../support/sandbox';
import { useSandbox } from '../../../support/sandboxFixture';

const suite = useSandbox({ workers: 2 });

function expectPrivateFile(file: any) {
	expect(typeof file.id).toBe('string');
	expect(typeof file.name).toBe('string');
	expect(typeof file.extension).toBe('string');
	expect(typeof file.mimeType).toBe('string');
	expect(Number.isInteger(file.size)).toBe(true);
	expect(file.checksum).toMatch(/^[0-9a-f]{64}$/);
	expect(file).toHaveProperty('downloadUrl');
	expect(file).toHaveProperty('previewUrl');
	for (const url of [file.downloadUrl, file.previewUrl]) {
		if (url !== null)
			expect(url).toMatch(
				/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/uploads\/[^/]+\/(download|preview)\?expires=\d+&signature=[0-9a-f]{64}$/,
			);
	}
}

describe('POST /jobs (conversion)', () => {
	it('accepts a source with 202 JobAccepted: one queued ULID job and the free usage', async () => {
		const api = await newClient(suite.sandbox);
		const response = await api.convert('Star.DST', 'pes');
		expect(response.status).toBe(202);
		const { message, job, jobs, freeUsage } = response.body;
		expect(typeof message).toBe('string');
		expect(job).toEqual({
			id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
			status: 'queued',
			workflow: 'conversion',
		});
		expect(jobs).toEqual([job]);
		expect(Number.isInteger(freeUsage.previewRemaining)).toBe(true);
		expect(Number.isInteger(freeUsage.creditBalance)).toBe(true);
	});

	it('creates one job per source sent as files[]', async () => {
		const api = await newClient(suite.sandbox);
		const response = await api.createJob({ workflow: 'conversion', format: 'pes' }, [
			{ field: 'files[]', name: 'Star.DST', bytes: fixture('Star.DST') },
			{ field: 'files[]', name: 'Star.EXP', bytes: fixture('Star.EXP') },
			{ field: 'files[]', name: 'Star.JEF.dst', bytes: fixture('Star.DST') },
		]);
		expect(response.status).toBe(202);
		const ids = response.body.jobs.map((job: any) => job.id);
		expect(new Set(ids).size).toBe(3);
		expect(response.body.job).toEqual(response.body.jobs[0]);
		for (const id of ids) expect((await api.waitForJob('conversion', id)).status).toBe('completed');
	});
});

describe('the Job resource through its life', () => {
	it('runs queued -> processing -> completed and shows every field', async () => {
		const api = await newClient(suite.sandbox);
		const { body } = await api.convert('Star.DST', 'pes');
		const job = await api.waitForJob('conversion', body.job.id);
		expect(job).toMatchObject({
			id: body.job.id,
			status: 'completed',
			provider: 'sandbox',
			formats: ['pes'],
			attemptCount: 1,
			failureCode: null,
			failureReason: null,
			downloadsUnlocked: false,
		});
		expect(Array.isArray(job.warnings)).toBe(true);
		expect(job.metrics).toMatchObject({ sourceFormat: 'dst', outputFormat: 'pes' });
		expect(job.createdAt).toMatch(isoDate);
		expect(job.completedAt).toMatch(isoDate);
		expect(job.unlock).toMatchObject({
			unlocked: false,
			canUnlock: true,
			method: 'credits',
			creditCost: 1,
		});
		expectPrivateFile(job.source);
		expect(job.source).toMatchObject({
			name: 'Star.DST',
			extension: 'dst',
			size: fixture('Star.DST').length,
		});
		expect(job.source.expiresAt).toMatch(isoDate);
		expect(job.source.downloadUrl).not.toBeNull();
		expect(job.outputs).toHaveLength(1);
		expectPrivateFile(job.outputs[0]);
		expect(job.outputs[0]).toMatchObject({
			name: 'Star.pes',
			extension: 'pes',
			format: 'pes',
			downloadUrl: null,
			locked: true,
		});
		expect(job.events.map((event: any) => event.type)).toEqual([
			'created',
			'processing',
			'completed',
		]);
		for (const event of job.events) expect(event.at).toMatch(isoDate);
	});

	it('fails an unreadable source with failureCode and failureReason', async () => {
		const api = await newClient(suite.sandbox);
		const { status, body } = await api.convert('Broken.pes', 'dst', damagedPes());
		expect(status).toBe(202);
		const job = await api.waitForJob('conversion', body.job.id);
		expect(job.status).toBe('failed');
		expect(job.failureCode).toBe('unreadable_source');
		expect(job.failureReason).toMatch(/PES/);
		expect(job.outputs).toEqual([]);
		expect(job.events.map((event: any) => event.type)).toEqual(['created', 'processing', 'failed']);
	});

	it('is 404 for an unknown id, a malformed id, or the other workflow', async () => {
		const api = await newClient(suite.sandbox);
		expect((await api.get('/jobs/conversion/01ARZ3NDEKTSV4RRFFQ69G5FAV')).status).toBe(404);
		expect((await api.get('/jobs/conversion/not-a-ulid')).status).toBe(404);
		const { body } = await api.convert('Star.DST', 'pes');
		const wrong = await api.get(`/jobs/digitising/${body.job.id}`);
		expect(wrong.status).toBe(404);
		expect(typeof wrong.body.message).toBe('string');
		expect((await api.post(`/jobs/digitising/${body.job.id}/retry`)).status).toBe(404);
		expect((await api.post(`/jobs/digitising/${body.job.id}/unlock`)).status).toBe(404);
	});

	it("is 403 for another account's job, on every job route", async () => {
		const owner = await newClient(suite.sandbox);
		const stranger = await newClient(suite.sandbox);
		const { body } = await owner.convert('Star.DST', 'pes');
		await owner.waitForJob('conversion', body.job.id);
		for (const response of [
			await stranger.get(`/jobs/conversion/${body.job.id}`),
			await stranger.post(`/jobs/conversion/${body.job.id}/retry`),
			await stranger.post(`/jobs/conversion/${body.job.id}/unlock`),
		]) {
			expect(response.status).toBe(403);
			expect(response.body.message).toMatch(/another account/);
		}
	});
});

describe('retry (rules 1 and 2)', () => {
	it('is 409 for a job that is not failed', async () => {
		const api = await newClient(suite.sandbox);
		const { body } = await api.convert('Star.DST', 'pes');
		await api.waitForJob('conversion', body.job.id);
		const response = await api.post(`/jobs/conversion/${body.job.id}/retry`);
		expect(response.status).toBe(409);
		expect(response.body.message).toMatch(/completed/);
	});

	it('puts a failed job back to queued with 202, keeps its attempt count, and records the retry', async () => {
		const api = await newClient(suite.sandbox);
		await suite.admin.setFaults({ engineFailureRate: 1 });
		const { body } = await api.convert('Star.DST', 'pes');
		const failed = await api.waitForJob('conversion', body.job.id);
		await suite.admin.setFaults({ engineFailureRate: 0 });
		expect(failed).toMatchObject({
			status: 'failed',
			failureCode: 'engine_error',
			attemptCount: 1,
		});

		const retried = await api.post(`/jobs/conversion/${body.job.id}/retry`);
		expect(retried.status).toBe(202);
		expect(typeof retried.body.message).toBe('string');
		expect(retried.body.job).toEqual({ id: body.job.id, status: 'queued', workflow: 'conversion' });
		const job = await api.waitForJob('conversion', body.job.id);
		expect(job).toMatchObject({
			status: 'completed',
			attemptCount: 2,
			failureCode: null,
			failureReason: null,
		});
		expect(job.events.map((event: any) => event.type)).toEqual([
			'created',
			'processing',
			'failed',
			'retried',
			'processing',
			'completed',
		]);
	});

	it('is 410 once the source upload has expired', async () => {
		const own = await suite.own({ sourceTtlSeconds: 300 });
		const api = await newClient(own);
		const { body } = await api.convert('Broken.pes', 'dst', damagedPes());
		expect((await api.waitForJob('conversion', body.job.id)).status).toBe('failed');
		await sandboxAdmin(own).advanceClock(301);
		const response = await api.post(`/jobs/conversion/${body.job.id}/retry`);
		expect(response.status).toBe(410);
		expect(response.body.message).toMatch(/expired/);
	});
});

describe('unlock (rule 3)', () => {
	it('is 409 for a job that is not completed', async () => {
		const api = await newClient(suite.sandbox);
		const { body } = await api.convert('Broken.pes', 'dst', damagedPes());
		await api.waitForJob('conversion', body.job.id);
		const response = await api.post(`/jobs/conversion/${body.job.id}/unlock`);
		expect(response.status).toBe(409);
		expect(response.body.message).toMatch(/failed/);
	});

	it('unlocks a completed job: 200, downloadsUnlocked, a download URL, one credit spent, unlocked event', async () => {
		const api = await newClient(suite.sandbox, { plan: 'credits', creditBalance: 3 });
		const { body } = await api.convert('Star.DST', 'pes');
		await api.waitForJob('conversion', body.job.id);
		const response = await api.post(`/jobs/conversion/${body.job.id}/unlock`);
		expect(response.status).toBe(200);
		expect(typeof response.body.message).toBe('string');
		const { job } = response.body;
		expect(job.downloadsUnlocked).toBe(true);
		expect(job.unlock).toMatchObject({ unlocked: true, method: 'credits', creditCost: 1 });
		expect(job.outputs[0].downloadUrl).toMatch(/\/download\?expires=\d+&signature=/);
		expect(job.events.at(-1).type).toBe('unlocked');
		expect((await api.get('/usage')).body.freeUsage.creditBalance).toBe(2);
		const again = await api.post(`/jobs/conversion/${body.job.id}/unlock`);
		expect(again.status).toBe(200);
		expect((await api.get('/usage')).body.freeUsage.creditBalance).toBe(2);
	});
});

describe('GET /jobs', () => {
	it('lists the 50 most recent jobs of the owner only, newest first, as JobListItem', async () => {
		// Its own sandbox with processing paused: 53 jobs need not run to be listed.
		const own = await suite.own();
		await sandboxAdmin(own).setFaults({ processingPaused: true });
		const api = await newClient(own, { plan: 'internal' });
		const other = await newClient(own);
		await other.convert('Star.DST', 'pes');
		const created: string[] = [];
		for (let batch = 0; batch < 6; batch++) {
			const files = Array.from({ length: batch === 5 ? 3 : 10 }, (_, i) => ({
				field: 'files[]',
				name: `Star-${batch}-${i}.DST`,
				bytes: fixture('Star.DST'),
			}));
			const response = await api.createJob({ workflow: 'conversion', format: 'pes' }, files);
			expect(response.status).toBe(202);
			created.push(...response.body.jobs.map((job: any) => job.id));
		}
		const listing = await api.get('/jobs');
		expect(listing.status).toBe(200);
		expect(listing.body.data).toHaveLength(50);
		expect(listing.body.data.map((item: any) => item.id)).toEqual(created.slice(-50).reverse());
		expect(listing.body.freeUsage.limited).toBe(false);
		const item = listing.body.data[0];
		expect(item).toMatchObject({
			kind: 'conversion',
			title: 'Star-5-2.DST',
			formats: ['pes'],
			downloadsUnlocked: false,
		});
		expect(item).toMatchObject({
			status: 'queued',
			preview: null,
			output: null,
			metrics: null,
			failureReason: null,
		});
		expectPrivateFile(item.source);
	});

	it('shows output and failure in list items once jobs finish', async () => {
		const api = await newClient(suite.sandbox);
		const done = (await api.convert('Star.DST', 'pes')).body.job.id;
		const broken = (await api.convert('Broken.pes', 'dst', damagedPes())).body.job.id;
		await api.waitForJob('conversion', done);
		await api.waitForJob('conversion', broken);
		const { data } = (await api.get('/jobs')).body;
		const completed = data.find((item: any) => item.id === done);
		const failed = data.find((item: any) => item.id === broken);
		expectPrivateFile(completed.output);
		expect(completed.output.downloadUrl).toBeNull();
		expect(completed.metrics).toMatchObject({ outputFormat: 'pes' });
		expect(failed).toMatchObject({ status: 'failed', output: null });
		expect(failed.failureReason).toMatch(/PES/);
	});
});

describe('unknown routes', () => {
	it('answers 404 with a message', async () => {
		const response = await new Api(suite.sandbox, suite.sandbox.demoKey).get('/nothing-here');
		expect(response.status).toBe(404);
		expect(typeof response.body.message).toBe('string');
	});

	it('answers 404 for a workflow other than the two, once the key is accepted', async () => {
		const id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
		const api = new Api(suite.sandbox, suite.sandbox.demoKey);
		for (const response of [
			await api.get(`/jobs/embroidering/${id}`),
			await api.post(`/jobs/embroidering/${id}/retry`),
			await api.post(`/jobs/embroidering/${id}/unlock`),
		]) {
			expect(response.status).toBe(404);
			expect(Object.keys(response.body)).toEqual(['message']);
		}
		expect((await new Api(suite.sandbox, 'wrong').get(`/jobs/embroidering/${id}`)).status).toBe(
			401,
		);
	});
});
