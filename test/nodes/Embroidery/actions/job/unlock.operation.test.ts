/**
 * Job > Unlock inspects the job before unlocking (spec: a detailed job's `unlock` is "unlock state, to be inspected
 * before unlocking"; unlock routes have a tight billing-action limit): n8n-core's real executions, a real sandbox
 * behind the counting variant proxy, every request counted.
 */

import { createAndWait, createConversion } from '../../../../support/jobParameters';
import { runNode } from '../../../../support/nodeRun';
import type { ApiCredentials } from '../../../../support/n8nCredentials';
import { newCredentials, useSandbox, useVariantService } from '../../../../support/sandboxFixture';
import { embroideryItem, itemsOf } from '../../../support/nodeItems';

jest.setTimeout(120_000);

const { sandbox, admin } = useSandbox();
const variant = useVariantService(sandbox);

async function account(): Promise<{ creds: ApiCredentials; creditBalance: () => Promise<number> }> {
	const creds = await newCredentials(admin, variant.baseUrl, {
		plan: 'credits',
		creditBalance: 100,
	});
	return {
		creds,
		creditBalance: async () => Number((await admin.usage(creds.accountId)).creditBalance),
	};
}

const unlockRoute = 'POST /jobs/conversion/{id}/unlock';

describe('Job > Unlock inspects the job first', () => {
	it('a job already unlocked is reported with fresh links; no unlock is sent and nothing is spent', async () => {
		const { creds, creditBalance } = await account();
		const [made] = itemsOf(
			await runNode({
				credentials: creds,
				parameters: createAndWait({
					downloadResults: ['outputs'],
					unlockBeforeDownload: true,
					timeout: 90,
				}),
				input: [embroideryItem('Star.DST')],
			}),
		);
		expect(made.json.downloadsUnlocked).toBe(true);
		const id = String(made.json.id);
		const balance = await creditBalance();
		variant.reset();
		const [unlocked] = itemsOf(
			await runNode({
				credentials: creds,
				parameters: { resource: 'job', operation: 'unlock', jobId: id, workflow: 'conversion' },
				input: [{}],
			}),
		);
		expect(variant.of(unlockRoute)).toHaveLength(0);
		expect(variant.of('GET /jobs/conversion/{id}')).toHaveLength(1);
		expect(unlocked.json).toMatchObject({
			id,
			workflow: 'conversion',
			status: 'completed',
			downloadsUnlocked: true,
		});
		expect(unlocked.json.message).toBe(
			'The job was already unlocked; no unlock was sent and nothing was spent',
		);
		// The links are the ones the job's detail handed out just now.
		const outputs = unlocked.json.outputs as Array<{ downloadUrl?: string }>;
		expect(
			outputs.some(
				(output) => typeof output.downloadUrl === 'string' && output.downloadUrl.length > 0,
			),
		).toBe(true);
		expect(await creditBalance()).toBe(balance);
	});

	it('a job not completed gets the 409 explanation, and no unlock is sent', async () => {
		const { creds, creditBalance } = await account();
		await admin.setFaults({ processingPaused: true });
		try {
			const [queued] = itemsOf(
				await runNode({
					credentials: creds,
					parameters: createConversion(),
					input: [embroideryItem('Star.DST')],
				}),
			);
			const id = String(queued.json.id);
			const balance = await creditBalance();
			variant.reset();
			const result = await runNode({
				credentials: creds,
				parameters: { resource: 'job', operation: 'unlock', jobId: id, workflow: 'conversion' },
				input: [{}, {}],
				onError: 'continueRegularOutput',
			});
			expect(variant.of(unlockRoute)).toHaveLength(0);
			// One look at the job serves both items that name it.
			expect(variant.of('GET /jobs/conversion/{id}')).toHaveLength(1);
			for (const [index, item] of result.items.entries()) {
				expect(item.json).toMatchObject({
					id,
					workflow: 'conversion',
					httpCode: '409',
					error:
						`The job can't be unlocked yet: job ${id} is queued, and only a completed job can ` +
						`be unlocked (no unlock was sent) [item ${index}]`,
					description: expect.stringMatching(
						/Only completed jobs can be unlocked\. Run Job > Wait for Completion first/,
					),
				});
			}
			expect(await creditBalance()).toBe(balance);
		} finally {
			await admin.clearFaults();
		}
	});

	it('a completed, locked job is unlocked with one request after one look', async () => {
		const { creds, creditBalance } = await account();
		const [made] = itemsOf(
			await runNode({
				credentials: creds,
				parameters: createAndWait({ timeout: 90 }),
				input: [embroideryItem('Star.DST')],
			}),
		);
		const id = String(made.json.id);
		const balance = await creditBalance();
		variant.reset();
		const [unlocked] = itemsOf(
			await runNode({
				credentials: creds,
				parameters: { resource: 'job', operation: 'unlock', jobId: id, workflow: 'conversion' },
				input: [{}],
			}),
		);
		expect(variant.requests.map((request) => request.route)).toEqual([
			'GET /jobs/conversion/{id}',
			unlockRoute,
		]);
		expect(unlocked.json).toMatchObject({ id, downloadsUnlocked: true });
		expect(await creditBalance()).toBeLessThan(balance);
	});
});
