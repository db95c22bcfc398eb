import {
	FormatsResponseSchema,
	JobAcceptedSchema,
	JobResponseSchema,
	JobsListResponseSchema,
	ValidationErrorBodySchema,
	describeSchemaProblem,
} from '../../../../nodes/Embroidery/transport/schemas';

const id = '01J9Z3Q4W8Y6V5T2R1P0N9M8K7';

describe('response schemas from the spec', () => {
	test('a detailed job keeps unknown fields of open-ended objects', () => {
		const parsed = JobResponseSchema.parse({
			job: {
				id,
				status: 'completed',
				formats: ['pes'],
				warnings: [],
				downloadsUnlocked: false,
				metrics: { stitchCount: 1200, engineSpecific: { a: 1 } },
				outputs: [{ name: 'x.pes', locked: true, downloadUrl: null }],
				somethingNew: 'kept',
			},
		});
		expect(parsed.job.metrics).toEqual({ stitchCount: 1200, engineSpecific: { a: 1 } });
		expect(parsed.job.outputs?.[0]).toEqual({ name: 'x.pes', locked: true, downloadUrl: null });
		expect((parsed.job as Record<string, unknown>).somethingNew).toBe('kept');
	});

	test('a missing required field is named with its path', () => {
		const result = JobResponseSchema.safeParse({
			job: { id, status: 'queued', formats: ['pes'], warnings: [] },
		});
		expect(result.success).toBe(false);
		if (!result.success)
			expect(describeSchemaProblem(result.error)).toBe(
				'missing required field "job.downloadsUnlocked"',
			);
	});

	test(
		'a listing is read entry by entry: a field off the spec is left out and named, an entry ' +
			'without a usable id, workflow, status or lock state is left out whole',
		() => {
			const entry = (extra: Record<string, unknown>) => ({
				id,
				kind: 'conversion',
				status: 'completed',
				formats: ['pes'],
				downloadsUnlocked: false,
				...extra,
			});
			const file = { id: 'up1', name: 'a.png', downloadUrl: null, previewUrl: null };
			const listing = JobsListResponseSchema.parse({
				data: [
					entry({ source: { ...file, size: '12' } }),
					entry({ id: `${id.slice(0, 25)}B`, formats: 'pes', title: 3 }),
					entry({ id: `${id.slice(0, 25)}C`, output: { name: 'x.pes', downloadUrl: { a: 1 } } }),
					entry({ id: 'short', status: 'done' }),
					entry({ id: `${id.slice(0, 25)}D`, downloadsUnlocked: 'yes' }),
				],
			});
			expect(listing.data.map((item) => item.id)).toEqual([
				id,
				`${id.slice(0, 25)}B`,
				`${id.slice(0, 25)}C`,
			]);
			expect(listing.data[0].source).toEqual(file);
			expect(listing.data[1]).toMatchObject({ formats: [] });
			expect(listing.data[1]).not.toHaveProperty('title');
			expect(listing.data[2].output).toEqual({ name: 'x.pes', downloadUrl: { a: 1 } });
			expect(listing.unreadFields).toEqual({
				[id]: ['source.size: Expected number, received string'],
				[`${id.slice(0, 25)}B`]: [
					'title: Expected string, received number',
					'formats: Expected array, received string',
				],
			});
			expect(listing.leftOut).toEqual([
				{ position: 3, id: 'short', problem: 'field "id": a job id has exactly 26 characters' },
				{
					position: 4,
					id: `${id.slice(0, 25)}D`,
					problem: 'field "downloadsUnlocked": Expected boolean, received string',
				},
			]);
		},
	);

	test('wrong values are described with field and reason', () => {
		const result = JobAcceptedSchema.safeParse({
			message: 'ok',
			job: { id: 'short', status: 'queued', workflow: 'conversion' },
			jobs: [],
			freeUsage: { previewRemaining: 1, creditBalance: 0 },
		});
		expect(result.success).toBe(false);
		if (!result.success) expect(describeSchemaProblem(result.error)).toContain('field "job.id"');
		const status = JobResponseSchema.safeParse({
			job: { id, status: 'done', formats: [], warnings: [], downloadsUnlocked: true },
		});
		expect(status.success).toBe(false);
		if (!status.success)
			expect(describeSchemaProblem(status.error)).toContain('field "job.status"');
	});

	test('formats, 422 bodies and the creation answer parse as the spec shows them', () => {
		expect(
			FormatsResponseSchema.parse({
				data: [{ format: 'dst', label: 'Tajima', readable: true, writable: true, warning: null }],
				artworkInputs: ['png'],
			}).data[0].format,
		).toBe('dst');
		expect(
			ValidationErrorBodySchema.parse({ message: 'bad', errors: { format: ['x'] } }).errors.format,
		).toEqual(['x']);
		expect(ValidationErrorBodySchema.safeParse({ message: 'bad' }).success).toBe(false);
		const accepted = JobAcceptedSchema.parse({
			message: 'Accepted',
			job: { id, status: 'queued', workflow: 'digitising' },
			jobs: [{ id, status: 'queued', workflow: 'digitising' }],
			freeUsage: { previewRemaining: 2, creditBalance: 0, limited: true },
		});
		expect(accepted.freeUsage?.limited).toBe(true);
	});
});
