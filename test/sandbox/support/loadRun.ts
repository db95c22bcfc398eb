import type { RunningSandbox } from '../../support/sandbox';
import { sandboxAdmin } from '../../support/sandbox';
import { fixture } from '../../support/embroideryFiles';

export interface LoadOptions {
	keys: number;
	jobsPerKey: number;
	/** How often each client lists its jobs while waiting, in ms. */
	pollEveryMs: number;
	timeoutMs: number;
}

export interface LoadResult {
	submitted: number;
	accepted: number;
	completed: number;
	failed: number;
	lost: string[];
	duplicateIds: number;
	/** 429s seen by clients that stayed within the documented limits: should be 0. */
	unexpected429: number;
	requests: number;
	submitSeconds: number;
	totalSeconds: number;
	/** created -> completed, from the jobs' own timestamps. */
	latencyMs: { p50: number; p95: number; max: number };
}

/**
 * Many clients at once over loopback: each key submits its sources concurrently,
 * then waits by listing its jobs, as a careful client would (within 60 requests a minute).
 */
export async function runLoad(sandbox: RunningSandbox, options: LoadOptions): Promise<LoadResult> {
	const admin = sandboxAdmin(sandbox);
	const source = new Uint8Array(fixture('Star.DST'));
	const formats = ['pes', 'exp', 'jef', 'xxx', 'u01', 'vp3', 'pec'];
	let requests = 0;
	let unexpected429 = 0;
	const call = async (key: string, path: string, init: RequestInit = {}) => {
		requests++;
		const response = await fetch(sandbox.baseUrl + path, {
			...init,
			headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' },
		});
		if (response.status === 429) unexpected429++;
		return { status: response.status, body: (await response.json()) as any };
	};
	const available = new Set<string>(
		(await call(sandbox.demoKey, '/formats')).body.data
			.filter((f: any) => f.writable)
			.map((f: any) => f.format),
	);
	const targets = formats.filter((format) => available.has(format));

	const clients = await Promise.all(
		Array.from({ length: options.keys }, () => admin.createAccountWithKey({ plan: 'internal' })),
	);
	const started = Date.now();
	const acceptedIds: string[][] = await Promise.all(
		clients.map(async ({ key }, k) => {
			const responses = await Promise.all(
				Array.from({ length: options.jobsPerKey }, (_, i) => {
					const form = new FormData();
					form.append('workflow', 'conversion');
					form.append('format', targets[(k + i) % targets.length]);
					form.append('file', new Blob([source]), `Star-${k}-${i}.DST`);
					return call(key, '/jobs', { method: 'POST', body: form });
				}),
			);
			return responses.filter((r) => r.status === 202).map((r) => r.body.job.id as string);
		}),
	);
	const submitSeconds = (Date.now() - started) / 1000;

	const finished = new Map<string, any>();
	await Promise.all(
		clients.map(async ({ key }, k) => {
			const mine = new Set(acceptedIds[k]);
			const deadline = Date.now() + options.timeoutMs;
			while (Date.now() < deadline) {
				const { status, body } = await call(key, '/jobs');
				if (status === 200) {
					for (const item of body.data) {
						if (mine.has(item.id) && (item.status === 'completed' || item.status === 'failed'))
							finished.set(item.id, item);
					}
					if ([...mine].every((id) => finished.has(id))) return;
				}
				await new Promise((resolve) => setTimeout(resolve, options.pollEveryMs));
			}
		}),
	);
	const totalSeconds = (Date.now() - started) / 1000;

	const all = acceptedIds.flat();
	const latencies: number[] = [];
	for (const [index, { key }] of clients.entries()) {
		for (const id of acceptedIds[index].slice(0, 3)) {
			const { body } = await call(key, `/jobs/conversion/${id}`);
			if (body.job?.completedAt)
				latencies.push(Date.parse(body.job.completedAt) - Date.parse(body.job.createdAt));
		}
	}
	latencies.sort((a, b) => a - b);
	const pick = (share: number) =>
		latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))] ?? NaN;
	return {
		submitted: options.keys * options.jobsPerKey,
		accepted: all.length,
		completed: [...finished.values()].filter((item) => item.status === 'completed').length,
		failed: [...finished.values()].filter((item) => item.status === 'failed').length,
		lost: all.filter((id) => !finished.has(id)),
		duplicateIds: all.length - new Set(all).size,
		unexpected429,
		requests,
		submitSeconds,
		totalSeconds,
		latencyMs: { p50: pick(0.5), p95: pick(0.95), max: latencies.at(-1) ?? NaN },
	};
}

/** Fires `count` requests from one key at the same moment; how many got each status. */
export async function burst(
	sandbox: RunningSandbox,
	key: string,
	count: number,
	path = '/formats',
): Promise<Record<number, number>> {
	const statuses = await Promise.all(
		Array.from({ length: count }, () =>
			fetch(sandbox.baseUrl + path, {
				headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' },
			}).then(async (response) => {
				await response.arrayBuffer();
				return response.status;
			}),
		),
	);
	const counts: Record<number, number> = {};
	for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
	return counts;
}
