/**
 * What the sandbox reads of an upload's content: its form fields within bounds, its files' formats
 * off the HTTP thread.
 */
import * as artwork from '../../../sandbox/digitiser/detect';
import * as registry from '../../../sandbox/engine/registry';
import { fixture } from '../../support/embroideryFiles';
import { newClient } from '../support/apiClient';
import { useWorkerSandbox } from '../../support/sandboxFixture';

// The detectors as this (the HTTP) thread loads them, watched; worker threads load their own copies. (The
// modules' exports are read-only bindings, so they are wrapped where they are loaded, not spied on after.)
jest.mock('../../../sandbox/engine/registry', () => {
	const actual = jest.requireActual<typeof registry>('../../../sandbox/engine/registry');
	return { ...actual, identifyFormat: jest.fn(actual.identifyFormat) };
});
jest.mock('../../../sandbox/digitiser/detect', () => {
	const actual = jest.requireActual<typeof artwork>('../../../sandbox/digitiser/detect');
	return { ...actual, detectArtwork: jest.fn(actual.detectArtwork) };
});

const suite = useWorkerSandbox();

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

describe('content detection of uploads', () => {
	it('runs off the HTTP thread: the process serving HTTP never calls the detectors', async () => {
		const formats = jest.mocked(registry.identifyFormat);
		const images = jest.mocked(artwork.detectArtwork);
		formats.mockClear();
		images.mockClear();
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
		expect(refused.body.errors.file).toEqual([expect.stringMatching(/not a readable embroidery/)]);
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
	});
});

describe('a file whose name says another format', () => {
	it('reads a file by its magic and warns the job that its name says otherwise', async () => {
		const api = await newClient(suite.sandbox);
		const accepted = await api.createJob({ workflow: 'conversion', format: 'pes' }, [
			{ name: 'Star.exp', bytes: fixture('Star.DST') },
		]);
		expect(accepted.status).toBe(202);
		const job = await api.waitForJob('conversion', accepted.body.jobs[0].id);
		expect(job.status).toBe('completed');
		expect(job.source).toMatchObject({ extension: 'dst' });
		expect(job.warnings).toContain(
			'Star.exp is named as Melco EXP, but its content is Tajima DST: it was read as Tajima DST.',
		);
	});

	it('refuses a file without a magic that is not the format its name says, listing what is read', async () => {
		const api = await newClient(suite.sandbox);
		const refused = await api.createJob({ workflow: 'conversion', format: 'pes' }, [
			{ name: 'Star.jef', bytes: fixture('Star.EXP') },
		]);
		expect(refused.status).toBe(422);
		expect(refused.body.errors.file).toEqual([
			expect.stringMatching(
				new RegExp(
					'^Star\\.jef is not a readable embroidery machine file: its name says Janome JEF, but its ' +
						'content is not Janome JEF \\(it would read as Melco EXP\\)\\. This service reads .*Tajima DST',
				),
			),
		]);
		expect((await api.get('/jobs')).body.data).toEqual([]);
	});
});
