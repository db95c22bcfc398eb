import sharp from 'sharp';

import { newClient } from '../support/apiClient';
import { useWorkerSandbox } from '../../support/sandboxFixture';

const suite = useWorkerSandbox();

const logo = Buffer.from(
	'<svg xmlns="http://www.w3.org/2000/svg" width="200" height="120">' +
		('<rect x="10" y="10" width="180" height="100" fill="#1f4e79"/><circle cx="100" cy="60" ' +
			'r="35" fill="#e0a526"/></svg>'),
);
const fields = { workflow: 'digitising', format: 'pes', width_mm: 60, colour_count: 3 };

describe('digitising jobs', () => {
	it('digitise artwork into the chosen format, with metrics, previews and the requested size', async () => {
		const api = await newClient(suite.sandbox);
		const created = await api.createJob({ ...fields, thread_palette_key: 'madeira' }, [
			{ name: 'logo.svg', bytes: logo },
		]);
		expect(created.status).toBe(202);
		expect(created.body.job).toMatchObject({ status: 'queued', workflow: 'digitising' });
		const job = await api.waitForJob('digitising', created.body.job.id);
		expect(job).toMatchObject({
			status: 'completed',
			formats: ['pes'],
			widthMm: 60,
			colourCount: 3,
			attemptCount: 1,
		});
		expect(job.metrics.stitchCount).toBeGreaterThan(100);
		expect(job.metrics.widthMm).toBeGreaterThan(50);
		expect(job.metrics.widthMm).toBeLessThanOrEqual(61);
		// width_mm is the finished width of the design (the logo's 10 px margin does not count).
		expect(Math.abs(job.metrics.widthMm - 60)).toBeLessThanOrEqual(0.5);
		expect(job.metrics.requestedWidthMm).toBe(60);
		expect(job.metrics.colourBlocks).toEqual([
			expect.objectContaining({ jumps: expect.any(Number), trims: expect.any(Number) }),
			expect.objectContaining({ jumps: expect.any(Number), trims: expect.any(Number) }),
		]);
		expect(job.events).toContainEqual(
			expect.objectContaining({
				message: `Wrote logo.pes (${job.metrics.widthMm} x ${job.metrics.heightMm} mm).`,
			}),
		);
		expect(job.source).toMatchObject({
			name: 'logo.svg',
			extension: 'svg',
			mimeType: 'image/svg+xml',
		});
		expect(job.outputs[0]).toMatchObject({ name: 'logo.pes', format: 'pes', downloadUrl: null });
		expect(job.artifacts[0]).toMatchObject({
			kind: 'preview',
			watermarked: true,
			mimeType: 'image/png',
		});
		expect(job.unlock).toMatchObject({ creditCost: 2 });
		const listed = (await api.get('/jobs')).body.data[0];
		expect(listed).toMatchObject({ id: job.id, kind: 'digitising', title: 'logo.svg' });
	});

	it('accepts PNG, JPEG and WebP artwork, judged by content', async () => {
		const api = await newClient(suite.sandbox);
		const base = sharp({ create: { width: 120, height: 80, channels: 3, background: '#c0392b' } });
		for (const [name, bytes] of [
			['art.png', await base.clone().png().toBuffer()],
			['art.jpg', await base.clone().jpeg().toBuffer()],
			['art.webp', await base.clone().webp().toBuffer()],
		] as const) {
			const response = await api.createJob({ ...fields, colour_count: 1 }, [{ name, bytes }]);
			expect(response.status).toBe(202);
		}
	});

	it('refuses artwork that is no image with 422 under file', async () => {
		const api = await newClient(suite.sandbox);
		const response = await api.createJob(fields, [
			{ name: 'logo.png', bytes: Buffer.from('GIF89a not accepted') },
		]);
		expect(response.status).toBe(422);
		expect(response.body.errors.file).toEqual([expect.stringMatching(/logo\.png is not JPG/)]);
	});

	it(
		'fails damaged artwork with unreadable_artwork, and a stitch cap it cannot meet with ' +
			'stitch_limit_exceeded',
		async () => {
			const api = await newClient(suite.sandbox);
			const damaged = Buffer.concat([
				Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
				Buffer.alloc(64, 7),
			]);
			const broken = (await api.createJob(fields, [{ name: 'broken.png', bytes: damaged }])).body
				.job.id;
			const capped = (
				await api.createJob({ ...fields, maximum_stitch_count: 1 }, [
					{ name: 'logo.svg', bytes: logo },
				])
			).body.job.id;
			const brokenJob = await api.waitForJob('digitising', broken);
			expect(brokenJob).toMatchObject({ status: 'failed', failureCode: 'unreadable_artwork' });
			expect(brokenJob.failureReason).toEqual(expect.any(String));
			const cappedJob = await api.waitForJob('digitising', capped);
			expect(cappedJob).toMatchObject({ status: 'failed', failureCode: 'stitch_limit_exceeded' });
		},
	);

	it(
		'warns when the finished design is larger than the ' +
			"format's largest hoop, saying the width that fits",
		async () => {
			const api = await newClient(suite.sandbox);
			// A square frame: past PES's 130 x 180 mm hoop at 150 mm wide either way up, with little to sew (three
			// filled 150 mm squares took a minute of the suite).
			const frame = Buffer.from(
				'<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">' +
					'<rect x="2" y="2" width="96" height="96" fill="none" stroke="#1f4e79" stroke-width="4"/></svg>',
			);
			const order = async (format: string, widthMm: number) => {
				const created = await api.createJob(
					{ ...fields, format, width_mm: widthMm, colour_count: 1 },
					[{ name: 'frame.svg', bytes: frame }],
				);
				return api.waitForJob('digitising', created.body.job.id);
			};
			const [tooWide, fitting, roomier] = await Promise.all([
				order('pes', 150),
				order('pes', 100),
				order('vp3', 150),
			]);
			expect(tooWide).toMatchObject({ status: 'completed' });
			const hoopWarnings = (job: { warnings: string[] }) =>
				job.warnings.filter((text) => /hoop/.test(text));
			expect(hoopWarnings(tooWide)).toEqual([
				`The design is ${tooWide.metrics.widthMm} x ${tooWide.metrics.heightMm} mm, ` +
					`larger than the 130 x 180 mm hoop, ` +
					'the largest the PES files written here declare. ' +
					"Choose a width_mm of at most 130 mm for this design's proportions, " +
					'or a format whose machines have bigger hoops (JEF, VP3, XXX take it as it is).',
			]);
			expect(tooWide.metrics.widthMm).toBe(150);
			expect(fitting).toMatchObject({ status: 'completed' });
			expect(hoopWarnings(fitting)).toEqual([]);
			expect(hoopWarnings(roomier)).toEqual([]);
		},
	);
});
