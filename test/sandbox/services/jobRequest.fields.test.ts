import { Api, newClient } from '../support/apiClient';
import { fixture } from '../../support/embroideryFiles';
import { useWorkerSandbox } from '../../support/sandboxFixture';

let api: Api;

const suite = useWorkerSandbox();
beforeEach(async () => {
	api = await newClient(suite.sandbox, { plan: 'internal' });
});

const star = () => [{ name: 'Star.DST', bytes: fixture('Star.DST') }];
const png = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
	'base64',
);

/** Expects 422 ValidationError with messages under exactly the given fields. */
function expectInvalid(
	response: { status: number; body: any },
	fields: string[],
	pattern?: RegExp,
) {
	expect(response.status).toBe(422);
	expect(typeof response.body.message).toBe('string');
	expect(Object.keys(response.body.errors).sort()).toEqual([...fields].sort());
	for (const messages of Object.values(response.body.errors)) {
		expect(Array.isArray(messages)).toBe(true);
		for (const message of messages as unknown[]) expect(typeof message).toBe('string');
	}
	if (pattern) expect(Object.values(response.body.errors).flat().join(' ')).toMatch(pattern);
}

describe('POST /jobs fields (422 ValidationError)', () => {
	it('requires workflow', async () => {
		expectInvalid(await api.createJob({ format: 'pes' }, star()), ['workflow'], /required/);
	});

	it('rejects an unknown workflow', async () => {
		expectInvalid(await api.createJob({ workflow: 'embroidering', format: 'pes' }, star()), [
			'workflow',
		]);
	});

	it('requires format', async () => {
		expectInvalid(await api.createJob({ workflow: 'conversion' }, star()), ['format'], /required/);
	});

	it('rejects an unknown format', async () => {
		expectInvalid(
			await api.createJob({ workflow: 'conversion', format: 'gif' }, star()),
			['format'],
			/not supported/,
		);
	});

	it('rejects a format equal to the detected source format, under "format"', async () => {
		expectInvalid(await api.convert('Star.DST', 'dst'), ['format'], /differ/);
		// Detection is by content: a DST named .pes is still DST.
		expectInvalid(
			await api.convert('renamed.pes', 'dst', fixture('Star.DST')),
			['format'],
			/differ/,
		);
	});

	it('rejects a format equal to any source of a batch', async () => {
		const response = await api.createJob({ workflow: 'conversion', format: 'exp' }, [
			{ field: 'files[]', name: 'Star.DST', bytes: fixture('Star.DST') },
			{ field: 'files[]', name: 'Star.EXP', bytes: fixture('Star.EXP') },
		]);
		expectInvalid(response, ['format'], /differ/);
	});

	it('needs a source file', async () => {
		expectInvalid(await api.createJob({ workflow: 'conversion', format: 'pes' }, []), ['file']);
	});

	it('refuses file and files[] together', async () => {
		const response = await api.createJob({ workflow: 'conversion', format: 'pes' }, [
			{ field: 'file', name: 'Star.DST', bytes: fixture('Star.DST') },
			{ field: 'files[]', name: 'Star.EXP', bytes: fixture('Star.EXP') },
		]);
		expectInvalid(response, ['file'], /not both/);
	});

	it('refuses a source that is no embroidery file, under file or files', async () => {
		expectInvalid(
			await api.convert('notes.dst', 'pes', Buffer.from('just some text, not stitches')),
			['file'],
			/notes\.dst/,
		);
		const batch = await api.createJob({ workflow: 'conversion', format: 'pes' }, [
			{ field: 'files[]', name: 'Star.DST', bytes: fixture('Star.DST') },
			{ field: 'files[]', name: 'picture.png', bytes: png },
		]);
		expectInvalid(batch, ['files'], /picture\.png/);
	});

	it('refuses an empty file', async () => {
		expectInvalid(await api.convert('empty.dst', 'pes', Buffer.alloc(0)), ['file'], /empty/);
	});

	it('creates nothing when any part of the request is invalid', async () => {
		await api.createJob({ workflow: 'conversion', format: 'pes' }, [
			{ field: 'files[]', name: 'Star.DST', bytes: fixture('Star.DST') },
			{ field: 'files[]', name: 'bad.dst', bytes: Buffer.from('nope') },
		]);
		expect((await api.get('/jobs')).body.data).toEqual([]);
	});

	it('refuses a body that is not multipart', async () => {
		const response = await api.post(
			'/jobs',
			JSON.stringify({ workflow: 'conversion', format: 'pes' }),
			{
				'Content-Type': 'application/json',
			},
		);
		expectInvalid(response, ['file'], /multipart/);
		const urlEncoded = await api.post('/jobs', 'workflow=conversion&format=pes', {
			'Content-Type': 'application/x-www-form-urlencoded',
		});
		expectInvalid(urlEncoded, ['file'], /multipart/);
	});

	it(
		'validates digitising fields: width_mm 10-300, colour_count 1-24 (both required), palette, ' +
			'stitch limit',
		async () => {
			const art = [{ name: 'logo.png', bytes: png }];
			const base = { workflow: 'digitising', format: 'dst' };
			const required = await api.createJob(base, art);
			expect(required.status).toBe(422);
			expect(required.body.errors.width_mm).toEqual([expect.stringMatching(/required/)]);
			expect(required.body.errors.colour_count).toEqual([expect.stringMatching(/required/)]);
			const bounds: Array<[Record<string, string | number>, string]> = [
				[{ width_mm: 9.99, colour_count: 3 }, 'width_mm'],
				[{ width_mm: 300.5, colour_count: 3 }, 'width_mm'],
				[{ width_mm: 'wide', colour_count: 3 }, 'width_mm'],
				[{ width_mm: 80, colour_count: 0 }, 'colour_count'],
				[{ width_mm: 80, colour_count: 25 }, 'colour_count'],
				[{ width_mm: 80, colour_count: 2.5 }, 'colour_count'],
				[{ width_mm: 80, colour_count: 3, thread_palette_key: 'gunold' }, 'thread_palette_key'],
				[{ width_mm: 80, colour_count: 3, maximum_stitch_count: 0 }, 'maximum_stitch_count'],
				[{ width_mm: 80, colour_count: 3, maximum_stitch_count: 250001 }, 'maximum_stitch_count'],
				[{ width_mm: 80, colour_count: 3, maximum_stitch_count: 10.5 }, 'maximum_stitch_count'],
			];
			for (const [fields, field] of bounds) {
				const response = await api.createJob({ ...base, ...fields }, art);
				expect(response.status).toBe(422);
				expect(response.body.errors[field]).toEqual([expect.any(String)]);
			}
		},
	);

	it('validates maximum_stitch_count on conversion too', async () => {
		const response = await api.createJob(
			{ workflow: 'conversion', format: 'pes', maximum_stitch_count: 250001 },
			star(),
		);
		expectInvalid(response, ['maximum_stitch_count'], /250000/);
	});
});

describe('limits', () => {
	it('takes 10 files per request but not 11', async () => {
		const files = (count: number) =>
			Array.from({ length: count }, (_, i) => ({
				field: 'files[]',
				name: `Star-${i}.DST`,
				bytes: fixture('Star.DST'),
			}));
		expectInvalid(
			await api.createJob({ workflow: 'conversion', format: 'pes' }, files(11)),
			['files'],
			/At most 10/,
		);
		const accepted = await api.createJob({ workflow: 'conversion', format: 'pes' }, files(10));
		expect(accepted.status).toBe(202);
		expect(accepted.body.jobs).toHaveLength(10);
	});

	it('refuses a conversion source over 50 MB while streaming it', async () => {
		const big = Buffer.concat([
			fixture('Star.DST'),
			Buffer.alloc(50 * 1024 * 1024 + 1 - fixture('Star.DST').length),
		]);
		const response = await api.convert('Huge.DST', 'pes', big);
		expectInvalid(response, ['file'], /larger than 50 MB/);
	});

	it('takes a conversion source of exactly 50 MB as far as size goes', async () => {
		const exact = Buffer.concat([
			Buffer.from('not embroidery'),
			Buffer.alloc(50 * 1024 * 1024 - 14),
		]);
		expectInvalid(
			await api.convert('Exact.DST', 'pes', exact),
			['file'],
			/not a readable embroidery/,
		);
	});

	it('refuses a digitising source over 20 MB', async () => {
		const big = Buffer.concat([png, Buffer.alloc(20 * 1024 * 1024 + 1 - png.length)]);
		const response = await api.createJob(
			{ workflow: 'digitising', format: 'dst', width_mm: 80, colour_count: 3 },
			[{ name: 'Huge.png', bytes: big }],
		);
		expect(response.status).toBe(422);
		expect(response.body.errors.file).toEqual([expect.stringMatching(/larger than 20 MB/)]);
	});
});
