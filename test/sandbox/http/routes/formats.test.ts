import { listFormats } from '../../../../sandbox/engine';
import { Api, newClient } from '../../support/apiClient';
import { fixture } from '../../../support/embroideryFiles';
import { useSandbox } from '../../../support/sandboxFixture';

const suite = useSandbox({ workers: 1 });

describe('GET /formats', () => {
	it('lists every format with exactly the Format fields, and the artwork inputs', async () => {
		const response = await new Api(suite.sandbox, suite.sandbox.demoKey).get('/formats');
		expect(response.status).toBe(200);
		expect(Object.keys(response.body).sort()).toEqual(['artworkInputs', 'data']);
		expect(response.body.artworkInputs).toEqual(['jpg', 'jpeg', 'png', 'svg', 'webp']);
		const keys = response.body.data.map((format: any) => format.format).sort();
		expect(keys).toEqual(
			listFormats()
				.map((format) => format.format)
				.sort(),
		);
		// The formats customers bring: the eight first ones, the shared Star set's 17 and more.
		expect(keys).toEqual(
			expect.arrayContaining(['dst', 'exp', 'jef', 'pec', 'pes', 'u01', 'vp3', 'xxx']),
		);
		expect(
			response.body.data.filter((format: any) => format.readable).length,
		).toBeGreaterThanOrEqual(25);
		for (const format of response.body.data) {
			expect(Object.keys(format).sort()).toEqual([
				'format',
				'label',
				'readable',
				'warning',
				'writable',
			]);
			expect(typeof format.label).toBe('string');
			expect(typeof format.readable).toBe('boolean');
			expect(typeof format.writable).toBe('boolean');
			expect(format.warning === null || typeof format.warning === 'string').toBe(true);
		}
	});
});

describe('errors have the Error shape', () => {
	it('answers { message } only, for 401, 403, 404 and 409', async () => {
		const api = await newClient(suite.sandbox, { plan: 'credits' }, ['jobs:read', 'jobs:write']);
		const { body } = await api.convert('Star.DST', 'pes');
		const answers = [
			await new Api(suite.sandbox, null).get('/formats'),
			await api.get('/formats'),
			await api.get('/jobs/conversion/01ARZ3NDEKTSV4RRFFQ69G5FAV'),
			await api.post(`/jobs/conversion/${body.job.id}/retry`),
		];
		expect(answers.map((answer) => answer.status)).toEqual([401, 403, 404, 409]);
		for (const answer of answers) {
			expect(Object.keys(answer.body)).toEqual(['message']);
			expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
		}
	});

	it('names an unexpected file field in a 422', async () => {
		const api = await newClient(suite.sandbox);
		const response = await api.createJob({ workflow: 'conversion', format: 'pes' }, [
			{ field: 'upload', name: 'Star.DST', bytes: fixture('Star.DST') },
		]);
		expect(response.status).toBe(422);
		expect(response.body.errors.upload).toEqual([expect.stringMatching(/"file" or "files\[\]"/)]);
	});

	it('accepts POSTs without a body but with a JSON content type', async () => {
		const api = await newClient(suite.sandbox);
		const response = await api.post('/jobs/conversion/01ARZ3NDEKTSV4RRFFQ69G5FAV/retry', '', {
			'Content-Type': 'application/json',
		});
		expect(response.status).toBe(404);
	});
});

describe('engine time limit', () => {
	it('stops a job that runs too long with engine_timeout, and keeps serving', async () => {
		const own = await suite.own({ jobTimeoutSeconds: 0.001 });
		const api = await newClient(own);
		for (let i = 0; i < 2; i++) {
			const { body } = await api.convert('Star.DST', 'pes');
			const job = await api.waitForJob('conversion', body.job.id);
			expect(job).toMatchObject({ status: 'failed', failureCode: 'engine_timeout' });
			expect(job.failureReason).toMatch(/longer than/);
		}
	});
});
