/** Warnings reach the user: a completed job's warnings on its item and as execution hints (helpers/jobHints). */
import { jobHints } from '../../../../nodes/Embroidery/helpers/jobHints';
import { runNode } from '../../../support/nodeRun';
import { itemsOf } from '../../support/nodeItems';
import { createAndWaitOnly, stars, useVariantSuite } from '../../support/variantSuite';

jest.setTimeout(120_000);

const { variant, credentials } = useVariantSuite();

describe('warnings reach the user', () => {
	it("by default each completed job's warnings are on its item and become execution hints", async () => {
		const creds = await credentials();
		variant.on((request) =>
			request.route === 'GET /jobs/conversion/{id}'
				? {
						rewrite: (body) => {
							(body.job as Record<string, unknown>).warnings = [
								'Thread 3 is approximated by the nearest colour.',
							];
							return body;
						},
					}
				: undefined,
		);
		const result = await runNode({
			credentials: creds,
			parameters: createAndWaitOnly(),
			input: stars(1),
		});
		const [item] = itemsOf(result);
		expect(item.json.warnings).toEqual(['Thread 3 is approximated by the nearest colour.']);
		const hints = result.run.data.resultData.runData.Embroidery[0].hints;
		expect(hints).toEqual([
			{
				message:
					`Job ${String(item.json.id)} has 1 warning: Thread 3 is approximated by the nearest ` +
					`colour. Check the design before you stitch it.`,
				type: 'warning',
				location: 'outputPane',
			},
			{
				message:
					`The machine files of job ${String(item.json.id)} are locked. Use Job > Unlock (it ` +
					`spends a subscription entitlement or credits), then download the files.`,
				type: 'info',
				location: 'outputPane',
			},
		]);
	});

	it('jobHints: one hint per job with warnings, the rest summed up', () => {
		const items = Array.from({ length: 12 }, (_, index) => ({
			json: {
				id: `J${index}`,
				status: 'completed',
				downloadsUnlocked: true,
				warnings: index === 0 ? [] : ['w'],
			},
		}));
		const hints = jobHints([...items, { json: { error: 'x' } }]);
		expect(hints).toHaveLength(11);
		expect(hints[0].message).toBe('Job J1 has 1 warning: w Check the design before you stitch it.');
		expect(hints[10].message).toBe('1 more jobs have warnings; see "warnings" on their items.');
	});
});
