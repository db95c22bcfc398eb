/**
 * n8n's Retry On Fail runs the node's whole execute() again, in the same execution, after an error (and in n8n 2.x
 * with Continue On Fail on, also when the first output item carries an `error`): n8n-core's real WorkflowExecute
 * drives the tries here. However many tries, each input item makes one job, and each job is unlocked (charged) once.
 */
import type { INodeParameters } from 'n8n-workflow';

import {
	keepAfterLastTryMs,
	keepFailedExecutionMs,
	rememberedExecutions,
} from '../../../../nodes/Embroidery/helpers/earlierTries';
import { defaultRetryPolicy, useClock, wallClock } from '../../../../nodes/Embroidery/transport';
import { createAndWait, createConversion } from '../../../support/jobParameters';
import { runNode } from '../../../support/nodeRun';
import type { ApiCredentials } from '../../../support/n8nCredentials';
import type { InputItem } from '../../../support/nodeRun';
import {
	newCredentials,
	useWorkerSandbox,
	useVariantService,
} from '../../../support/sandboxFixture';
import type { Behaviour } from '../../../support/variantService';
import { embroideryItem } from '../../support/nodeItems';

jest.setTimeout(180_000);

const { sandbox, admin } = useWorkerSandbox();
const variant = useVariantService(sandbox);

/** Three tries, one second apart (n8n waits at least that long: a wait of 0 is read as 1000 ms). */
const retryOnFail = { maxTries: 3, waitBetweenTries: 1000 };

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

/** Create with Wait, Unlock Before Download and the machine file downloaded. */
const createUnlockDownload = (extra: INodeParameters = {}): INodeParameters =>
	createAndWait({
		downloadResults: ['outputs'],
		unlockBeforeDownload: true,
		timeout: 90,
		...extra,
	});

const stars = (count: number): InputItem[] =>
	Array.from({ length: count }, (_, index) => embroideryItem(index % 2 ? 'Star.JEF' : 'Star.DST'));

const downloadsFail = () =>
	variant.on((request) =>
		request.method === 'GET' && request.route.startsWith('GET /uploads/')
			? { status: 503 }
			: undefined,
	);

describe('Retry On Fail with downloads answering 503', () => {
	it('creates one job per item and unlocks (charges) each once, however many tries', async () => {
		const { creds, creditBalance } = await account();
		const before = await creditBalance();
		downloadsFail();
		const result = await runNode({
			credentials: creds,
			parameters: createUnlockDownload(),
			input: stars(2),
			retryOnFail,
		});
		expect(result.error).toBeDefined();
		// One request per item (Batching: One Request per Item), in the first try only.
		expect(variant.of('POST /jobs')).toHaveLength(2);
		// Item 0's download ends each try before item 1 is reached: its job is unlocked once, in the first try.
		const unlocks = variant.of('POST /jobs/conversion/{id}/unlock').map((request) => request.url);
		expect(unlocks).toHaveLength(1);
		// Every try reached the downloads: the retries ran, and carried on with the same jobs.
		const downloads = variant.requests.filter((request) =>
			request.route.startsWith('GET /uploads/'),
		);
		expect(downloads.length).toBeGreaterThanOrEqual(
			retryOnFail.maxTries * defaultRetryPolicy.maxAttempts,
		);
		expect(await sandboxJobs(creds)).toHaveLength(2);
		// Charged once: what one unlock costs.
		expect(before - (await creditBalance())).toBe(await unlockCost(creds));
	});

	it('with Continue On Fail on (n8n 2 retries an error item too), still one job and one unlock', async () => {
		const { creds } = await account();
		downloadsFail();
		const result = await runNode({
			credentials: creds,
			parameters: createUnlockDownload(),
			input: stars(1),
			retryOnFail,
			onError: 'continueRegularOutput',
		});
		const [id] = (await sandboxJobs(creds)).map((job) => job.id);
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({
			id,
			workflow: 'conversion',
			error: expect.any(String),
		});
		expect(variant.of('POST /jobs')).toHaveLength(1);
		expect(variant.of('POST /jobs/conversion/{id}/unlock')).toHaveLength(1);
	});

	it('the try after a failed one downloads the job it already made, once the service answers again', async () => {
		const { creds } = await account();
		// The first try's download fails every time the transport asks; from the second try on the service answers.
		let failures = defaultRetryPolicy.maxAttempts;
		variant.on((request) =>
			request.route.startsWith('GET /uploads/') && failures-- > 0 ? { status: 503 } : undefined,
		);
		const result = await runNode({
			credentials: creds,
			parameters: createUnlockDownload(),
			input: stars(1),
			retryOnFail,
		});
		expect(result.error).toBeUndefined();
		const [id] = (await sandboxJobs(creds)).map((job) => job.id);
		expect(result.items[0].json).toMatchObject({
			id,
			status: 'completed',
			downloadsUnlocked: true,
		});
		expect(result.items[0].binary?.data).toBeDefined();
		expect(
			variant.requests.filter((request) => request.route.startsWith('GET /uploads/')).length,
		).toBeGreaterThan(defaultRetryPolicy.maxAttempts);
		expect(variant.of('POST /jobs')).toHaveLength(1);
		expect(variant.of('POST /jobs/conversion/{id}/unlock')).toHaveLength(1);
	});
});

describe('an unlock whose answer was lost is not sent again by a retry', () => {
	it('the unlock took effect: the retry downloads the unlocked job, with no second unlock', async () => {
		const { creds, creditBalance } = await account();
		const before = await creditBalance();
		variant.on((request) => (request.route.endsWith('/unlock') ? { dropAnswer: true } : undefined));
		const result = await runNode({
			credentials: creds,
			parameters: createUnlockDownload(),
			input: stars(1),
			retryOnFail,
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ status: 'completed', downloadsUnlocked: true });
		expect(result.items[0].binary?.data).toBeDefined();
		expect(variant.of('POST /jobs')).toHaveLength(1);
		expect(variant.of('POST /jobs/conversion/{id}/unlock')).toHaveLength(1);
		expect(before - (await creditBalance())).toBe(await unlockCost(creds));
	});

	it('the job still shows locked: the retry refuses to unlock again and says what to check', async () => {
		const { creds, creditBalance } = await account();
		const before = await creditBalance();
		variant.on((request) => (request.route.endsWith('/unlock') ? { status: 503 } : undefined));
		const result = await runNode({
			credentials: creds,
			parameters: createUnlockDownload(),
			input: stars(1),
			retryOnFail,
		});
		const [id] = (await sandboxJobs(creds)).map((job) => job.id);
		expect(result.error?.message).toBe(
			`An earlier try of this node sent the unlock of job ${id} and got no answer; it was not sent again [item 0]`,
		);
		expect(result.error?.description).toMatch(/Job > Get/);
		expect(variant.of('POST /jobs')).toHaveLength(1);
		expect(variant.of('POST /jobs/conversion/{id}/unlock')).toHaveLength(1);
		expect(await creditBalance()).toBe(before);
	});
});

describe('a creation whose answer was lost is not sent again by a retry', () => {
	it('the retry refuses the item, naming what happened, and the service saw one request', async () => {
		const { creds } = await account();
		variant.on((request) => (request.route === 'POST /jobs' ? { dropAnswer: true } : undefined));
		const result = await runNode({
			credentials: creds,
			parameters: createConversion(),
			input: stars(1),
			retryOnFail,
		});
		expect(variant.of('POST /jobs')).toHaveLength(1);
		expect(result.error?.message).toMatch(
			/An earlier try of this node sent the file of item 0 and got no usable answer/,
		);
		expect(result.error?.description).toMatch(/Job > Get Many/);
		// The one request did make a job; nothing made a second.
		expect(await sandboxJobs(creds)).toHaveLength(1);
	});

	it('a creation the service refused (4xx) is sent again by the retry', async () => {
		const { creds } = await account();
		let refusals = 1;
		variant.on((request) =>
			request.route === 'POST /jobs' && refusals-- > 0
				? { status: 422, body: { message: 'Refused once.', errors: {} } }
				: undefined,
		);
		const result = await runNode({
			credentials: creds,
			parameters: createConversion(),
			input: stars(1),
			retryOnFail,
		});
		expect(result.error).toBeUndefined();
		expect(variant.of('POST /jobs')).toHaveLength(2);
		expect(await sandboxJobs(creds)).toHaveLength(1);
	});
});

describe('Job > Retry under Retry On Fail with Continue On Fail', () => {
	/** Two real jobs; the variant answers their retries, as the service would for one failed and one completed job. */
	async function twoJobs(creds: ApiCredentials): Promise<[string, string]> {
		const created = await runNode({
			credentials: creds,
			parameters: createConversion(),
			input: stars(2),
		});
		const [first, second] = created.items.map((item) => String(item.json.id));
		return [first, second];
	}

	const retryRuns = (creds: ApiCredentials, ids: string[]) =>
		runNode({
			credentials: creds,
			parameters: { resource: 'job', operation: 'retry' },
			input: ids.map((id) => ({ json: { id, workflow: 'conversion' } })),
			retryOnFail,
			onError: 'continueRegularOutput',
		});

	const retriesOf = (id: string) =>
		variant.of('POST /jobs/conversion/{id}/retry').filter((request) => request.url.includes(id));

	/** The completed job's retry is refused (409); the other job's retry gets `answer`. */
	const retriesAnswer = (completed: string, answer: Behaviour) =>
		variant.on((request) => {
			if (request.route !== 'POST /jobs/conversion/{id}/retry') return undefined;
			if (!request.url.includes(completed)) return answer;
			return { status: 409, body: { message: 'Only failed jobs can be retried.', errors: {} } };
		});

	it('the first item is refused (409): n8n runs the node three times, the other job is retried once', async () => {
		const { creds } = await account();
		const [completed, failed] = await twoJobs(creds);
		retriesAnswer(completed, {
			status: 200,
			body: {
				message: 'Job queued again.',
				job: { id: failed, status: 'queued', workflow: 'conversion' },
			},
		});
		const result = await retryRuns(creds, [completed, failed]);
		// n8n ran the node again for the first item's error: it asked for that job's retry in every try.
		expect(retriesOf(completed)).toHaveLength(retryOnFail.maxTries);
		expect(retriesOf(failed)).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({ httpCode: '409' });
		expect(result.items[1].json).toMatchObject({ id: failed, status: 'queued' });
	});

	it('a retry whose answer was lost is not sent again; the item says to check the job', async () => {
		const { creds } = await account();
		const [completed, failed] = await twoJobs(creds);
		retriesAnswer(completed, { dropAnswer: true });
		const result = await retryRuns(creds, [completed, failed]);
		expect(retriesOf(failed)).toHaveLength(1);
		expect(result.items[1].json.error).toBe(
			`An earlier try of this node sent the retry of job ${failed} and got no answer; it was ` +
				`not sent again [item 1]`,
		);
		expect(result.items[1].json.description).toMatch(/Job > Get/);
	});
});

describe("n8n's Retry of a failed execution (a new execution, mode retry)", () => {
	it('does not create or unlock again: it carries on with the jobs the failed execution made', async () => {
		const { creds, creditBalance } = await account();
		const before = await creditBalance();
		// The download fails for good (410): the execution fails after its creation and unlock.
		variant.on((request) =>
			request.route.startsWith('GET /uploads/') ? { status: 410 } : undefined,
		);
		const failed = await runNode({
			credentials: creds,
			parameters: createUnlockDownload(),
			input: stars(1),
		});
		expect(failed.error?.description).toMatch(/Job > Get/);
		variant.reset();
		const retried = await runNode({
			credentials: creds,
			parameters: createUnlockDownload(),
			input: stars(1),
			retryOf: failed,
		});
		expect(retried.error).toBeUndefined();
		const [job] = await sandboxJobs(creds);
		expect(retried.items[0].json).toMatchObject({ id: job.id, downloadsUnlocked: true });
		expect(retried.items[0].binary?.data).toBeDefined();
		expect(variant.of('POST /jobs')).toHaveLength(0);
		expect(variant.of('POST /jobs/conversion/{id}/unlock')).toHaveLength(0);
		expect(await sandboxJobs(creds)).toHaveLength(1);
		expect(before - (await creditBalance())).toBe(await unlockCost(creds));
	});
});

describe('what is remembered, and for how long', () => {
	it('a run without retries creates anew each execution; records are dropped a while after the last try', async () => {
		const { creds } = await account();
		let offsetMs = 0;
		const restore = useClock({ now: () => wallClock.now() + offsetMs, sleep: wallClock.sleep });
		try {
			const remembered = rememberedExecutions();
			await runNode({ credentials: creds, parameters: createConversion(), input: stars(1) });
			await runNode({ credentials: creds, parameters: createConversion(), input: stars(1) });
			// Two executions, two jobs: the record is per execution, not per file.
			expect(variant.of('POST /jobs')).toHaveLength(2);
			expect(rememberedExecutions()).toBe(remembered + 2);
			const usage = { resource: 'account', operation: 'getUsage' };
			offsetMs = keepAfterLastTryMs + 1000;
			await runNode({ credentials: creds, parameters: usage, input: [{}] });
			// The two executions that succeeded are forgotten; those whose node failed wait for n8n's Retry.
			expect(rememberedExecutions()).toBeLessThanOrEqual(remembered);
			offsetMs = keepFailedExecutionMs + 1000;
			await runNode({ credentials: creds, parameters: usage, input: [{}] });
			expect(rememberedExecutions()).toBe(0);
		} finally {
			restore();
		}
	});
});

/** The account's jobs, read from the sandbox directly (not through the node or the variant). */
async function sandboxJobs(
	creds: ApiCredentials,
): Promise<Array<{ id: string; downloadsUnlocked: boolean }>> {
	const response = await fetch(`${sandbox.baseUrl}/jobs`, {
		headers: { Authorization: `Bearer ${creds.apiKey}`, Accept: 'application/json' },
	});
	return ((await response.json()) as { data: Array<{ id: string; downloadsUnlocked: boolean }> })
		.data;
}

async function unlockCost(creds: ApiCredentials): Promise<number> {
	const response = await fetch(`${sandbox.baseUrl}/usage`, {
		headers: { Authorization: `Bearer ${creds.apiKey}`, Accept: 'application/json' },
	});
	return Number(
		((await response.json()) as { freeUsage: { conversionCreditCost: number } }).freeUsage
			.conversionCreditCost,
	);
}
