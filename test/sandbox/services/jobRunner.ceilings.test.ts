/** The engine's ceilings on a pattern's size and extent, met by jobs created over HTTP. */
import { writePattern } from '../../../sandbox/engine';
import { driftingXxx, explodingPattern, randomSource } from '../../../bench/fuzz-inputs';
import { newClient } from '../support/apiClient';
import { useWorkerSandbox } from '../../support/sandboxFixture';

const suite = useWorkerSandbox();

describe('the engine ceilings, over HTTP', () => {
	/** Milliseconds from the job's `processing` event to its `failed` one. */
	const processingMs = (job: any) => {
		const at = (type: string) =>
			Date.parse(job.events.find((event: any) => event.type === type).at);
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
		const job = await api.waitForJob('conversion', created.body.job.id);
		expect(job).toMatchObject({ status: 'failed', failureCode: 'pattern_too_large', outputs: [] });
		expect(job.failureReason).toMatch(
			new RegExp(
				'^Written as DST, this design of 60,002 entries would need [\\d,]+ ' +
					'records: its moves \\(up to [\\d.]+ m long\\) must be split into ' +
					'steps of at most 12\\.1 mm\\. A conversion may write at most [\\d,]+ records',
			),
		);
		// Refused from the count of records, not after writing tens of megabytes.
		expect(processingMs(job)).toBeLessThan(5000);
	});

	it(
		'refuse an XXX file whose moves drift past the ' +
			'pattern model at upload (422) instead of wrapping',
		async () => {
			const api = await newClient(suite.sandbox);
			// 70,000 moves of 3.2 m one way would wrap a 32-bit position (2^31 / 32,000 is about 67,109).
			const created = await api.createJob({ workflow: 'conversion', format: 'dst' }, [
				{ name: 'drift.xxx', bytes: driftingXxx(70_000) },
			]);
			// XXX has no magic, so the upload check reads the whole file: refused before any job or charge.
			expect(created.status).toBe(422);
			expect(JSON.stringify(created.body)).toMatch(
				/drift\.xxx.*its moves lead [\d.]+ m from its origin, beyond the 10\.0 m on each axis/,
			);
		},
	);
});
