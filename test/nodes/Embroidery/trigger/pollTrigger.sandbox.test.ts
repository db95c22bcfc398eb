import { createHash } from 'node:crypto';

import type { INodeExecutionData } from 'n8n-workflow';

import {
	ActiveTriggerHarness,
	collectLoggedWarnings,
	testTriggerManually,
} from '../../../support/triggerRun';
import { ACTIVATION_POLL_DELAY_MS } from '../../../../nodes/Embroidery/trigger/pollLimits';
import { useClock, wallClock } from '../../../../nodes/Embroidery/transport/clock';
import { binaryBuffer } from '../../../support/binaryData';
import { useSandbox } from '../../../support/sandboxFixture';
import type { Faults } from '../../../support/sandbox';
import { convert, digitise, newAccount, waitUntilEnded, type Account } from './support/sandboxJobs';

jest.setTimeout(120_000);

// Real time on purpose: the trigger's poll keeps a time budget on the node's clock, and these polls download
// files through n8n's binary store, which a driven clock cannot see; a skip would end a poll early.
const { sandbox, admin } = useSandbox();

afterEach(async () => {
	await admin.clearFaults();
});

async function withFaults<T>(faults: Faults, fn: () => Promise<T>): Promise<T> {
	await admin.setFaults(faults);
	try {
		return await fn();
	} finally {
		await admin.clearFaults();
	}
}

/**
 * One conversion that the trigger's next poll sees unfinished: the sandbox starts no job until that poll is
 * done (a Star converts in tens of milliseconds, often before a poll can follow its upload).
 */
async function convertSeenUnfinished(
	account: Account,
	trigger: ActiveTriggerHarness,
): Promise<string> {
	return await withFaults({ processingPaused: true }, async () => {
		const [id] = await convert(account, 1);
		expect(await trigger.poll()).toBeNull();
		return id;
	});
}

function idsOf(items: INodeExecutionData[]): string[] {
	return items.map((item) => item.json.id as string);
}

function sha256(bytes: Buffer): string {
	return createHash('sha256').update(bytes).digest('hex');
}

const both = { events: ['completed', 'failed'], workflow: 'both' };

let restoreClock: (() => void) | undefined;
afterEach(() => {
	restoreClock?.();
	restoreClock = undefined;
});

/**
 * The node's clock from now on runs a minute and more ahead of the sandbox's, as if the user activated the workflow
 * that much after the jobs so far ended: they lie before the activation poll's window (ACTIVATION_POLL_DELAY_MS).
 */
function aMinuteLater(): void {
	const ahead = ACTIVATION_POLL_DELAY_MS + 1_000;
	restoreClock = useClock({ now: () => wallClock.now() + ahead, sleep: wallClock.sleep });
}

describe('Embroidery Trigger in an active workflow against the sandbox', () => {
	it(
		'emits each job that ends exactly once with its watermarked preview, never the jobs that ' +
			'ended before activation',
		async () => {
			const account = await newAccount(admin, sandbox);
			const before = await convert(account, 1);
			await waitUntilEnded(account, before);
			const trigger = new ActiveTriggerHarness({
				parameters: { ...both, options: { downloadFiles: true } },
				credentials: account.credentials,
			});
			aMinuteLater();
			expect(await trigger.activate()).toBeNull();

			const ids = await convert(account, 3);
			await waitUntilEnded(account, ids);
			const items = (await trigger.poll()) ?? [];
			expect(idsOf(items).sort()).toEqual([...ids].sort());
			for (const item of items) {
				expect(item.json).toMatchObject({
					workflow: 'conversion',
					status: 'completed',
					outputsLocked: true,
				});
				expect(item.binary?.preview).toBeDefined();
				expect(item.binary?.output).toBeUndefined();
				const preview = await binaryBuffer(item.binary!.preview);
				expect(preview.length).toBeGreaterThan(100);
				expect(item.binary!.preview.mimeType).toMatch(/^image\//);
			}
			expect(await trigger.poll()).toBeNull();
			expect(await trigger.restart()).toBeNull();
			expect(await trigger.poll()).toBeNull();
			expect(idsOf(trigger.emittedItems()).sort()).toEqual([...ids].sort());
			expect(trigger.failures).toEqual([]);
		},
	);

	it('downloads the machine file of a job unlocked before the poll, intact', async () => {
		const account = await newAccount(admin, sandbox, 'internal');
		const trigger = new ActiveTriggerHarness({
			parameters: {
				events: ['completed'],
				workflow: 'conversion',
				options: { downloadFiles: true, includeFullJob: true },
			},
			credentials: account.credentials,
		});
		await trigger.activate();
		const [id] = await convert(account, 1);
		await waitUntilEnded(account, [id]);
		const unlocked = await account.api.post(`/jobs/conversion/${id}/unlock`);
		expect(unlocked.status).toBe(200);
		const [item] = (await trigger.poll()) ?? [];
		expect(item.json).toMatchObject({
			id,
			workflow: 'conversion',
			status: 'completed',
			downloadsUnlocked: true,
		});
		expect(item.json.events).toEqual(
			expect.arrayContaining([expect.objectContaining({ type: 'completed' })]),
		);
		expect(item.json.outputsLocked).toBeUndefined();
		const output = await binaryBuffer(item.binary!.output);
		const expected = (unlocked.body.job.outputs as Array<{ checksum: string }>)[0].checksum;
		expect(sha256(output)).toBe(expected);
		expect(item.binary!.output.fileName).toMatch(/\.pes$/i);
	});

	it('watches only digitising jobs when asked, and fetches their full job from the digitising route', async () => {
		const account = await newAccount(admin, sandbox);
		const trigger = new ActiveTriggerHarness({
			parameters: {
				events: ['completed', 'failed'],
				workflow: 'digitising',
				options: { includeFullJob: true },
			},
			credentials: account.credentials,
		});
		await trigger.activate();
		const conversions = await convert(account, 2);
		const digitised = await digitise(account, 2);
		await waitUntilEnded(account, [...conversions, ...digitised], 120_000);
		const items = (await trigger.poll()) ?? [];
		expect(idsOf(items).sort()).toEqual([...digitised].sort());
		for (const item of items) {
			expect(item.json.workflow).toBe('digitising');
			expect(Array.isArray(item.json.warnings)).toBe(true);
			expect(item.json.events).toEqual(
				expect.arrayContaining([expect.objectContaining({ type: item.json.status })]),
			);
		}
		expect(await trigger.poll()).toBeNull();
	});

	it('emits failures with failureCode and failureReason, and respects the event filter', async () => {
		const account = await newAccount(admin, sandbox);
		const failuresOnly = new ActiveTriggerHarness({
			parameters: { events: ['failed'], workflow: 'both' },
			credentials: account.credentials,
		});
		await failuresOnly.activate();
		const completed = await convert(account, 1);
		const failed = await withFaults({ engineFailureRate: 1 }, async () => {
			const created = await convert(account, 2);
			await waitUntilEnded(account, created);
			return created;
		});
		await waitUntilEnded(account, completed);
		const items = (await failuresOnly.poll()) ?? [];
		expect(idsOf(items).sort()).toEqual([...failed].sort());
		for (const item of items) {
			expect(item.json.status).toBe('failed');
			expect(typeof item.json.failureCode).toBe('string');
			expect(typeof item.json.failureReason).toBe('string');
			expect(item.binary).toBeUndefined();
		}
		expect(await failuresOnly.poll()).toBeNull();
	});

	it('emits a job seen queued by a poll whose state n8n never saved, after a restart, once', async () => {
		const account = await newAccount(admin, sandbox);
		const trigger = new ActiveTriggerHarness({
			parameters: both,
			credentials: account.credentials,
		});
		await trigger.activate();
		const id = await convertSeenUnfinished(account, trigger);
		const savedBefore = JSON.stringify(trigger.savedStaticData());
		await waitUntilEnded(account, [id]);
		expect(await trigger.restart()).toEqual([
			expect.objectContaining({ json: expect.objectContaining({ id }) }),
		]);
		expect(JSON.stringify(trigger.savedStaticData())).not.toBe(savedBefore);
		expect(await trigger.restart()).toBeNull();
		expect(await trigger.poll()).toBeNull();
		expect(idsOf(trigger.emittedItems())).toEqual([id]);
	});

	it('does not emit what ended while the workflow was deactivated, once the user activates it again', async () => {
		const account = await newAccount(admin, sandbox);
		const trigger = new ActiveTriggerHarness({
			parameters: both,
			credentials: account.credentials,
		});
		await trigger.activate();
		const [whileActive] = await convert(account, 1);
		await waitUntilEnded(account, [whileActive]);
		expect(idsOf((await trigger.poll()) ?? [])).toEqual([whileActive]);
		const pending = await convertSeenUnfinished(account, trigger);
		// Deactivated: no polls. The job ends meanwhile; then the user publishes the workflow again.
		await waitUntilEnded(account, [pending]);
		aMinuteLater();
		expect(await trigger.activate('activate')).toBeNull();
		expect(await trigger.poll()).toBeNull();
		const [afterwards] = await convert(account, 1);
		await waitUntilEnded(account, [afterwards]);
		expect(idsOf((await trigger.poll()) ?? [])).toEqual([afterwards]);
		// A republish of the active workflow carries on where it was.
		const [acrossUpdate] = await convert(account, 1);
		await waitUntilEnded(account, [acrossUpdate]);
		expect(idsOf((await trigger.activate('update')) ?? [])).toEqual([acrossUpdate]);
	});

	it('follows up a job that left the 50-job listing before the trigger saw it end', async () => {
		const account = await newAccount(admin, sandbox);
		const trigger = new ActiveTriggerHarness({
			parameters: both,
			credentials: account.credentials,
		});
		await trigger.activate();
		// The first poll sees the job unfinished (it emits nothing), so only a follow-up can find its ending.
		const first = await convertSeenUnfinished(account, trigger);
		const later = await convert(account, 50);
		const statuses = await waitUntilEnded(account, later, 90_000);
		expect(statuses.has(first)).toBe(false);
		const items = (await trigger.poll()) ?? [];
		expect(idsOf(items).sort()).toEqual([first, ...later].sort());
		expect(new Set(idsOf(items)).size).toBe(51);
		expect(await trigger.poll()).toBeNull();
	});

	it('after a successful poll, reports a revoked key through n8n once and keeps polling', async () => {
		const account = await newAccount(admin, sandbox);
		const trigger = new ActiveTriggerHarness({
			parameters: both,
			credentials: account.credentials,
		});
		await trigger.activate();
		await admin.revokeKey(account.keyId);
		expect(await trigger.poll()).toBeNull();
		expect(trigger.failures.map((error) => error.message)).toEqual([
			expect.stringMatching(/^Authentication failed/),
		]);
		expect(JSON.stringify(trigger.failures[0])).not.toContain(account.credentials.apiKey);
		// Reported once: the next failing poll is only logged.
		const { warnings } = await collectLoggedWarnings(async () => await trigger.poll());
		expect(trigger.failures).toHaveLength(1);
		expect(warnings.join('\n')).toMatch(
			/poll failed, trying again at the next poll: Authentication failed/,
		);
		expect(warnings.join('\n')).not.toContain(account.credentials.apiKey);
		// A new activation with the broken key throws, so the user sees it when publishing.
		await expect(trigger.restart()).rejects.toThrow(/Authentication failed/);
	});

	it('lets only one of two overlapping polls emit, so a slow poll never doubles an ending', async () => {
		const account = await newAccount(admin, sandbox);
		const trigger = new ActiveTriggerHarness({
			parameters: { ...both, options: { downloadFiles: true } },
			credentials: account.credentials,
		});
		await trigger.activate();
		const ids = await convert(account, 3);
		await waitUntilEnded(account, ids);
		const [first, second] = await Promise.all([trigger.poll(), trigger.poll()]);
		expect([first, second].filter((emission) => emission !== null)).toHaveLength(1);
		expect(await trigger.poll()).toBeNull();
		expect(idsOf(trigger.emittedItems()).sort()).toEqual([...ids].sort());
	});

	it('starts from a fresh baseline when the credential changes', async () => {
		const first = await newAccount(admin, sandbox);
		const second = await newAccount(admin, sandbox);
		await waitUntilEnded(second, await convert(second, 2));
		const trigger = new ActiveTriggerHarness({
			parameters: both,
			credentials: first.credentials,
			credentialId: 'first',
		});
		await trigger.activate();
		trigger.useCredential(second.credentials, 'second');
		expect(await trigger.restart()).toBeNull();
		expect(await trigger.poll()).toBeNull();
		const [id] = await convert(second, 1);
		await waitUntilEnded(second, [id]);
		expect(idsOf((await trigger.poll()) ?? [])).toEqual([id]);
	});
});

describe("Embroidery Trigger under n8n's poll cursor (each poll reads its own copy of the static data)", () => {
	it(
		'emits a job that ends after the user activated the workflow once, and reports a later ' +
			'refused key through n8n',
		async () => {
			const account = await newAccount(admin, sandbox);
			const before = await convert(account, 1);
			await waitUntilEnded(account, before);
			const trigger = new ActiveTriggerHarness({
				parameters: both,
				credentials: account.credentials,
				pollCursor: true,
			});
			aMinuteLater();
			expect(await trigger.activate('activate')).toBeNull();
			const id = await convertSeenUnfinished(account, trigger);
			await waitUntilEnded(account, [id]);
			expect(idsOf((await trigger.poll()) ?? [])).toEqual([id]);
			expect(await trigger.poll()).toBeNull();
			await admin.revokeKey(account.keyId);
			expect(await trigger.poll()).toBeNull();
			expect(trigger.failures.map((error) => error.message)).toEqual([
				expect.stringMatching(/^Authentication failed/),
			]);
			expect(idsOf(trigger.emittedItems())).toEqual([id]);
		},
	);
});

describe('Embroidery Trigger in a manual test run', () => {
	it(
		'returns the most recent matching job (a failure with its failureCode and failureReason) ' +
			'and moves no state',
		async () => {
			const account = await newAccount(admin, sandbox);
			const ids = await convert(account, 2);
			await waitUntilEnded(account, ids);
			const result = await testTriggerManually({
				parameters: { ...both, options: { downloadFiles: true } },
				credentials: account.credentials,
			});
			expect(result).toHaveLength(1);
			expect(result![0]).toHaveLength(1);
			const [sample] = result![0];
			expect(sample.json).toMatchObject({
				id: ids[1],
				workflow: 'conversion',
				status: 'completed',
			});
			expect(sample.binary?.preview).toBeDefined();

			const failed = await withFaults({ engineFailureRate: 1 }, async () => {
				const created = await convert(account, 1);
				await waitUntilEnded(account, created);
				return created;
			});
			const [[newestFailure]] = (await testTriggerManually({
				parameters: both,
				credentials: account.credentials,
			})) ?? [[]];
			expect(newestFailure.json).toMatchObject({
				id: failed[0],
				workflow: 'conversion',
				status: 'failed',
			});
			expect(typeof newestFailure.json.failureCode).toBe('string');
			expect(typeof newestFailure.json.failureReason).toBe('string');
			const [[newestCompleted]] = (await testTriggerManually({
				parameters: { events: ['completed'], workflow: 'both' },
				credentials: account.credentials,
			})) ?? [[]];
			expect(newestCompleted.json.id).toBe(ids[1]);
		},
	);

	it('throws a clear error when no job matches or a parameter is wrong', async () => {
		const account = await newAccount(admin, sandbox);
		const ids = await convert(account, 1);
		await waitUntilEnded(account, ids);
		await expect(
			testTriggerManually({
				parameters: { events: ['failed'], workflow: 'both' },
				credentials: account.credentials,
			}),
		).rejects.toThrow(
			'None of the 50 most recent jobs is a conversion or digitising job that failed',
		);
		await expect(
			testTriggerManually({
				parameters: { events: ['completed'], workflow: 'digitising' },
				credentials: account.credentials,
			}),
		).rejects.toThrow('None of the 50 most recent jobs is a digitising job that completed');
		await expect(
			testTriggerManually({
				parameters: { events: ['completed'], workflow: 'embroidering' },
				credentials: account.credentials,
			}),
		).rejects.toThrow('Workflow is "embroidering", which is not a workflow');
		await expect(
			testTriggerManually({
				parameters: { events: [], workflow: 'both' },
				credentials: account.credentials,
			}),
		).rejects.toThrow('Choose at least one event to trigger on');
	});
});
