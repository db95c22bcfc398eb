import { clock } from '../../../../../nodes/Embroidery/transport/clock';
import { newClient, type Api } from '../../../../sandbox/support/apiClient';
import { fixture } from '../../../../support/embroideryFiles';
import type { AccountsAdmin, Plan, SandboxAddress } from '../../../../support/sandbox';

export interface Account {
	/** Creates and inspects jobs, with its own key so its requests do not count against the trigger's rate limit. */
	api: Api;
	credentials: { apiKey: string; baseUrl: string };
	keyId: string;
}

export async function newAccount(
	admin: AccountsAdmin,
	sandbox: SandboxAddress,
	plan: Plan = 'credits',
): Promise<Account> {
	const api = await newClient(sandbox, { plan, creditBalance: 1000 });
	const trigger = await admin.createKey(api.accountId, ['jobs:read']);
	return {
		api,
		credentials: { apiKey: trigger.key, baseUrl: sandbox.baseUrl },
		keyId: trigger.id,
	};
}

/** Conversions of the Star design, named star-0.dst, star-1.dst… (DST to PES unless `design` says otherwise). */
export async function convert(
	account: Account,
	count = 1,
	design = { file: 'Star.DST', format: 'pes' },
): Promise<string[]> {
	const ids: string[] = [];
	const extension = design.file.split('.').pop()!.toLowerCase();
	for (let start = 0; start < count; start += 10) {
		const files = Array.from({ length: Math.min(10, count - start) }, (_, index) => ({
			field: 'files[]',
			name: `star-${start + index}.${extension}`,
			bytes: fixture(design.file),
		}));
		const response = await account.api.createJob(
			{ workflow: 'conversion', format: design.format },
			files,
		);
		if (response.status !== 202)
			throw new Error(`POST /jobs answered ${response.status}: ${JSON.stringify(response.body)}`);
		ids.push(...(response.body.jobs as Array<{ id: string }>).map((job) => job.id));
	}
	return ids;
}

/**
 * Waits through the listing (one request a second, within the key's rate limit) until every job has ended, on
 * the clock in force: a driven test clock (test/support/testClock.ts) ends each wait once the sandbox is at rest.
 * A job the listing no longer shows (it lists the newest 50) is looked up on its own route: jobs need not end in
 * the order they were made, and a test that waited only for the listed ones once polled before an older one had
 * ended.
 */
export async function waitUntilEnded(
	account: Account,
	ids: string[],
	timeoutMs = 120_000,
): Promise<Map<string, string>> {
	const deadline = clock.now() + timeoutMs;
	const hasEnded = (status = '') => ['completed', 'failed'].includes(status);
	// An unlisted job once ended is not asked for again.
	const endedUnlisted = new Map<string, string>();
	for (;;) {
		const listing = await answered<{ data: JobStatus[] }>(account, '/jobs');
		const statuses = new Map<string, string>(listing!.data.map((job) => [job.id, job.status]));
		for (const id of ids.filter((unlisted) => !statuses.has(unlisted))) {
			const status = endedUnlisted.get(id) ?? (await ownStatus(account, id));
			if (hasEnded(status)) endedUnlisted.set(id, status);
			statuses.set(id, status);
		}
		const ended = ids.every((id) => hasEnded(statuses.get(id)));
		if (ended) return statuses;
		if (clock.now() > deadline) throw new Error(`Jobs still running after ${timeoutMs} ms`);
		await clock.sleep(1000);
	}
}

interface JobStatus {
	id: string;
	status: string;
}

/** A job's status from its own route, whichever its workflow. */
async function ownStatus(account: Account, id: string): Promise<string> {
	for (const workflow of ['conversion', 'digitising']) {
		const body = await answered<{ job: JobStatus }>(account, `/jobs/${workflow}/${id}`, [404]);
		if (body) return body.job.status;
	}
	throw new Error(`Job ${id} is in neither workflow`);
}

/** The body of a GET that answered 200, after waiting out any 429; null for a status in `absent`. */
async function answered<T>(
	account: Account,
	route: string,
	absent: number[] = [],
): Promise<T | null> {
	for (;;) {
		const { status, headers, body } = await account.api.get<T>(route);
		if (status === 429) {
			await clock.sleep(Number(headers.get('retry-after') ?? 1) * 1000);
			continue;
		}
		if (absent.includes(status)) return null;
		if (status !== 200) throw new Error(`GET ${route} answered ${status}: ${JSON.stringify(body)}`);
		return body;
	}
}

const logo = Buffer.from(
	'<svg xmlns="http://www.w3.org/2000/svg" width="120" height="120"><rect width="120" ' +
		'height="120" fill="#fff"/><circle cx="60" cy="60" r="45" fill="#c0392b"/><rect x="40" ' +
		'y="40" width="40" height="40" fill="#2c3e50"/></svg>',
);

/** One digitising job per artwork, sent in one request. */
export async function digitise(account: Account, count = 1): Promise<string[]> {
	const files = Array.from({ length: count }, (_, index) => ({
		field: 'files[]',
		name: `logo-${index}.svg`,
		bytes: logo,
	}));
	const response = await account.api.createJob(
		{ workflow: 'digitising', format: 'dst', width_mm: 40, colour_count: 3 },
		files,
	);
	if (response.status !== 202)
		throw new Error(`POST /jobs answered ${response.status}: ${JSON.stringify(response.body)}`);
	return (response.body.jobs as Array<{ id: string }>).map((job) => job.id);
}
