/**
 * The few calls the demo and the e2e suite make to the sandbox directly, as any client of the
 * service would (v1 with the demo key), plus its control API for injecting an engine failure.
 */
import type { ControlAccess } from '../sandbox/controlAccess';
import { sleep } from './n8n';

export interface SandboxAccess {
	baseUrl: string;
	demoKey: string;
}

/** How long a 429 answer asks to wait (its Retry-After seconds, at least 1), in milliseconds. */
function retryAfterMs(response: Response): number {
	return Math.max(1, Number(response.headers.get('retry-after')) || 1) * 1000;
}

/**
 * A request to the service's v1 API with the demo key, the way any client would make it; a 429 (the key's 60
 * requests a minute, which a busy machine's longer polls or the files before may have used up) is waited out
 * as it says, until `until` (2 min from now unless given), and any other answer returned as it came.
 */
export async function sandboxRequest(
	sandbox: SandboxAccess,
	method: 'GET' | 'POST',
	path: string,
	options: { body?: FormData; timeoutMs?: number; until?: number } = {},
): Promise<Response> {
	const until = options.until ?? Date.now() + 120_000;
	// Bounds that only keep a dead sandbox from hanging the caller: a clean-clone run with a digitiser bench
	// beside it (a load average near 20 on 2 cores) once had no answer within 30-60 s.
	const timeoutMs = options.timeoutMs ?? 120_000;
	for (;;) {
		let response: Response;
		try {
			response = await fetch(`${sandbox.baseUrl}${path}`, {
				method,
				headers: { Authorization: `Bearer ${sandbox.demoKey}`, Accept: 'application/json' },
				body: options.body,
				signal: AbortSignal.timeout(timeoutMs),
			});
		} catch (error) {
			if ((error as Error).name !== 'TimeoutError') throw error;
			throw new Error(
				`${method} ${path} had no answer from the sandbox within ${timeoutMs / 1000} s.`,
			);
		}
		if (response.status !== 429 || Date.now() >= until) return response;
		await response.body?.cancel();
		await sleep(retryAfterMs(response));
	}
}

/**
 * Uploads a file as a new job straight to the service's v1 API, the way any client would; a 429 (the key's
 * 60 requests a minute, which a busy machine's longer polls use up) is waited out as it says, for up to 2 min.
 */
export async function createJob(
	sandbox: SandboxAccess,
	fields: Record<string, string>,
	file: { name: string; bytes: Uint8Array },
): Promise<{ id: string; workflow: string }> {
	const form = new FormData();
	for (const [name, value] of Object.entries(fields)) form.append(name, value);
	form.append('file', new Blob([new Uint8Array(file.bytes)]), file.name);
	const response = await sandboxRequest(sandbox, 'POST', '/jobs', {
		body: form,
		timeoutMs: 180_000,
	});
	const body = (await response.json().catch(() => ({}))) as {
		job?: { id: string; workflow: string };
		message?: string;
	};
	if (response.status !== 202 || !body.job)
		throw new Error(`Creating a job answered ${response.status}: ${body.message}`);
	return body.job;
}

/** Polls the job (bounded) until it is completed or failed. */
export async function waitForJobEnd(
	sandbox: SandboxAccess,
	job: { id: string; workflow: string },
	timeoutMs = 120_000,
): Promise<Record<string, unknown>> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		// A busy machine stretches a job, and its polls can meet the key's rate limit: waited out as told.
		const response = await sandboxRequest(sandbox, 'GET', `/jobs/${job.workflow}/${job.id}`, {
			until: deadline,
		});
		const body = (await response.json().catch(() => ({}))) as {
			job?: Record<string, unknown>;
			message?: string;
		};
		const detail = body.job;
		if (!response.ok || !detail)
			throw new Error(
				`Reading job ${job.id} answered ${response.status}: ${body.message ?? 'no job'}`,
			);
		if (detail.status === 'completed' || detail.status === 'failed') return detail;
		if (Date.now() > deadline)
			throw new Error(
				`Job ${job.id} is still ${String(detail.status)} after ${timeoutMs / 1000} s`,
			);
		// Once a second: the key's 60 reads a minute are shared with the workflow the test runs.
		await sleep(1_000);
	}
}

/** Makes the sandbox's engine fail every job it starts (1) or none (0), through its control API. */
export async function setEngineFailureRate(
	sandbox: { origin: string; adminToken: string },
	rate: number,
): Promise<void> {
	const response = await fetch(`${sandbox.origin}/__sandbox/faults`, {
		method: 'PUT',
		headers: { 'X-Sandbox-Admin': sandbox.adminToken, 'Content-Type': 'application/json' },
		body: JSON.stringify({ engineFailureRate: rate }),
		signal: AbortSignal.timeout(30_000),
	});
	if (!response.ok)
		throw new Error(`Setting the sandbox's engine failure rate answered ${response.status}`);
}

/**
 * A new one-time sign-in link to an account's pages (the demo account's unless another is named),
 * from the control API of the sandbox `access` records.
 */
export async function requestSignInLink(
	access: ControlAccess,
	accountId = access.demoAccountId,
): Promise<{ url: string; expiresAt: string }> {
	let response: Response;
	try {
		response = await fetch(`${access.origin}/__sandbox/accounts/${accountId}/sign-in-links`, {
			method: 'POST',
			headers: { 'X-Sandbox-Admin': access.adminToken },
			signal: AbortSignal.timeout(30_000),
		});
	} catch (error) {
		throw new Error(
			`The sandbox at ${access.origin} does not answer (${describeFailure(error)}); ` +
				`process ${access.pid} ran it. Is npm start (or npm run sandbox) still running?`,
		);
	}
	if (response.status !== 201)
		throw new Error(
			`The sandbox at ${access.origin} refused a sign-in link (${response.status}): ${await response.text()}`,
		);
	return (await response.json()) as { url: string; expiresAt: string };
}

/** "ECONNREFUSED" for a refused connection, else the error's message. */
function describeFailure(error: unknown): string {
	const cause = (error as { cause?: { code?: string } }).cause;
	return cause?.code ?? (error as Error).message;
}
