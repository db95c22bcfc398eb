/**
 * The trigger's Show Warnings (version 1.1, on by default) through n8n-core's real PollContext, against the
 * sandbox behind the variant service, which counts each request: listing entries carry no warnings (spec), so
 * each completed job costs one detail GET, and never a second one for its files or its full job.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { ActiveTriggerHarness, collectLoggedWarnings } from '../../../support/triggerRun';
import { binaryBuffer } from '../../../support/binaryData';
import { useSandbox, useVariantService } from '../../../support/sandboxFixture';
import { convert, newAccount, waitUntilEnded } from './support/sandboxJobs';
import type { Account } from './support/sandboxJobs';

jest.setTimeout(120_000);

const { sandbox, admin } = useSandbox();
const variant = useVariantService(sandbox);

afterEach(async () => {
	await admin.clearFaults();
});

/** JEF to EXP: EXP has no thread colours, so each job completes with a warning that says so. */
const warnedDesign = { file: 'Star.JEF', format: 'exp' };
const expWarning = expect.stringMatching(/EXP carries no thread colours/);
const detailRoute = 'GET /jobs/conversion/{id}';

/** An active trigger of a fresh account that talks to the variant service; its activation's requests are forgotten. */
async function activeTrigger(
	parameters: Record<string, unknown> = {},
	typeVersion = 1.1,
): Promise<{ account: Account; trigger: ActiveTriggerHarness }> {
	const account = await newAccount(admin, sandbox);
	const trigger = new ActiveTriggerHarness({
		parameters: { events: ['completed', 'failed'], workflow: 'both', ...parameters },
		credentials: { ...account.credentials, baseUrl: variant.baseUrl },
		typeVersion,
	});
	expect(await trigger.activate()).toBeNull();
	variant.requests.splice(0);
	return { account, trigger };
}

const idsOf = (items: INodeExecutionData[] | null) =>
	(items ?? []).map((item) => item.json.id as string);

describe('Embroidery Trigger version 1.1: Show Warnings', () => {
	it(
		'is on by default: each completed job carries its warnings, at one detail GET per completed ' +
			'job; a failed job costs its one GET as before',
		async () => {
			const { account, trigger } = await activeTrigger();
			const completed = await convert(account, 2, warnedDesign);
			await waitUntilEnded(account, completed);
			await admin.setFaults({ engineFailureRate: 1 });
			const failed = await convert(account, 1, warnedDesign);
			await waitUntilEnded(account, failed);
			await admin.clearFaults();
			variant.requests.splice(0);

			const items = (await trigger.poll()) ?? [];
			expect(idsOf(items).sort()).toEqual([...completed, ...failed].sort());
			for (const item of items.filter((each) => each.json.status === 'completed')) {
				expect(item.json).toMatchObject({
					workflow: 'conversion',
					warnings: [expWarning],
					sourceFile: expect.stringMatching(/^star-\d\.jef$/),
				});
			}
			const [failedItem] = items.filter((each) => each.json.status === 'failed');
			expect(typeof failedItem.json.failureCode).toBe('string');
			expect(variant.of('GET /jobs')).toHaveLength(1);
			expect(variant.of(detailRoute)).toHaveLength(3);
			for (const id of [...completed, ...failed])
				expect(variant.of(detailRoute).filter((request) => request.url.includes(id))).toHaveLength(
					1,
				);

			variant.requests.splice(0);
			expect(await trigger.poll()).toBeNull();
			expect(variant.requests.map((request) => request.route)).toEqual(['GET /jobs']);
			expect(trigger.failures).toEqual([]);
		},
	);

	it.each([
		['turned off', { showWarnings: false }, 1.1],
		['in a version 1 trigger, which keeps its output', {}, 1],
	])(
		'%s, completed jobs come from the listing alone: no warnings, no detail GET',
		async (_case, parameters, typeVersion) => {
			const { account, trigger } = await activeTrigger(parameters, typeVersion);
			const ids = await convert(account, 2, warnedDesign);
			await waitUntilEnded(account, ids);
			variant.requests.splice(0);

			const items = (await trigger.poll()) ?? [];
			expect(idsOf(items).sort()).toEqual([...ids].sort());
			for (const item of items) {
				expect(item.json.status).toBe('completed');
				expect(item.json).not.toHaveProperty('warnings');
			}
			expect(variant.requests.map((request) => request.route)).toEqual(['GET /jobs']);
		},
	);

	it.each([
		['Include Full Job', { includeFullJob: true }, 'asIs'],
		['Download Files, from a listing with file links', { downloadFiles: true }, 'asIs'],
		['Download Files, from a lean listing without file links', { downloadFiles: true }, 'lean'],
	] as const)(
		'with %s, the one detail GET per job serves the warnings too',
		async (_case, options, shape) => {
			const { account, trigger } = await activeTrigger({ options });
			const ids = await convert(account, 2, warnedDesign);
			await waitUntilEnded(account, ids);
			variant.answer(shape);
			variant.requests.splice(0);

			const items = (await trigger.poll()) ?? [];
			expect(idsOf(items).sort()).toEqual([...ids].sort());
			for (const item of items) {
				expect(item.json).toMatchObject({ status: 'completed', warnings: [expWarning] });
				if ('downloadFiles' in options)
					expect((await binaryBuffer(item.binary!.preview)).length).toBeGreaterThan(100);
			}
			expect(variant.of('GET /jobs')).toHaveLength(1);
			for (const id of ids)
				expect(variant.of(detailRoute).filter((request) => request.url.includes(id))).toHaveLength(
					1,
				);
			expect(trigger.failures).toEqual([]);
		},
	);

	it(
		'a job whose detail keeps failing is emitted after two more polls without warnings, with ' +
			'detailError kept by Simplify',
		async () => {
			const { account, trigger } = await activeTrigger();
			const [broken, healthy] = await convert(account, 2, warnedDesign);
			await waitUntilEnded(account, [broken, healthy]);
			variant.on((request) =>
				request.route === detailRoute && request.url.includes(broken)
					? { status: 500, body: { message: 'Server Error' } }
					: undefined,
			);

			const first = await collectLoggedWarnings(async () => await trigger.poll());
			expect(idsOf(first.value)).toEqual([healthy]);
			expect(first.value![0].json.warnings).toEqual([expWarning]);
			expect(first.warnings.join('\n')).toMatch(
				new RegExp(`poll failed, trying again at the next poll for conversion job ${broken}`),
			);
			expect(await trigger.poll()).toBeNull();
			const [late] = (await trigger.poll()) ?? [];
			expect(late.json).toMatchObject({
				id: broken,
				status: 'completed',
				detailError: 'The service failed: Server Error',
			});
			expect(late.json).not.toHaveProperty('warnings');
			expect(await trigger.poll()).toBeNull();
			expect(
				variant.of(detailRoute).filter((request) => request.url.includes(healthy)),
			).toHaveLength(1);
			expect(trigger.failures).toEqual([]);
		},
	);
});
