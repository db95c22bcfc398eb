import {
	sandboxAdmin,
	type Ability,
	type NewAccount,
	type SandboxAddress,
} from '../../support/sandbox';

import { fixture } from '../../support/embroideryFiles';

export interface ApiResponse<T = any> {
	status: number;
	headers: Headers;
	body: T;
}

export interface Upload {
	field?: string;
	name: string;
	bytes: Uint8Array;
}

/** A plain v1 client over real HTTP (Node's fetch), the way an outside program calls the service. */
export class Api {
	constructor(
		readonly sandbox: SandboxAddress,
		readonly key: string | null,
	) {}

	headers(extra: Record<string, string> = {}): Record<string, string> {
		return {
			Accept: 'application/json',
			...(this.key === null ? {} : { Authorization: `Bearer ${this.key}` }),
			...extra,
		};
	}

	async get<T = any>(path: string, headers?: Record<string, string>): Promise<ApiResponse<T>> {
		return this.send<T>('GET', path, undefined, headers);
	}

	async post<T = any>(
		path: string,
		body?: FormData | string,
		headers?: Record<string, string>,
	): Promise<ApiResponse<T>> {
		return this.send<T>('POST', path, body, headers);
	}

	/** POST /jobs with the given fields and files (each under `file` unless `field` says otherwise). */
	async createJob<T = any>(
		fields: Record<string, string | number>,
		uploads: Upload[],
	): Promise<ApiResponse<T>> {
		const form = new FormData();
		for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
		for (const upload of uploads)
			form.append(upload.field ?? 'file', new Blob([new Uint8Array(upload.bytes)]), upload.name);
		return this.post<T>('/jobs', form);
	}

	async convert(name: string, format: string, bytes = fixture(name)): Promise<ApiResponse> {
		return this.createJob({ workflow: 'conversion', format }, [{ name, bytes }]);
	}

	/**
	 * Polls a job until it is completed or failed, backing off so the per-key rate limit holds. The deadline only
	 * catches a job that never ends: 4 minutes, which a few seconds of engine work still meets on 2 cores shared
	 * with other runs (digitising jobs three at a time outran 60 s at load average 70, issue 42).
	 */
	async waitForJob(workflow: string, id: string, timeoutMs = 240_000): Promise<any> {
		const deadline = Date.now() + timeoutMs;
		for (let delay = 40; ; delay = Math.min(1000, delay * 1.5)) {
			const response = await this.get(`/jobs/${workflow}/${id}`);
			if (response.status === 429) {
				await new Promise((resolve) =>
					setTimeout(resolve, Number(response.headers.get('retry-after')) * 1000),
				);
				continue;
			}
			if (response.status !== 200)
				throw new Error(
					`Polling ${id} answered ${response.status}: ${JSON.stringify(response.body)}`,
				);
			const { job } = response.body;
			if (job.status === 'completed' || job.status === 'failed') return job;
			if (Date.now() > deadline)
				throw new Error(`Job ${id} still ${job.status} after ${timeoutMs} ms`);
			await new Promise((resolve) => setTimeout(resolve, delay));
		}
	}

	/** Fetches a complete URL (a signed file URL) with this key; the body as bytes. */
	async fetchUrl(
		url: string,
	): Promise<{ status: number; headers: Headers; bytes: Buffer; json?: any }> {
		const response = await fetch(url, { headers: this.headers() });
		const bytes = Buffer.from(await response.arrayBuffer());
		const json = response.headers.get('content-type')?.includes('json')
			? JSON.parse(bytes.toString())
			: undefined;
		return { status: response.status, headers: response.headers, bytes, json };
	}

	private async send<T>(
		method: string,
		path: string,
		body?: FormData | string,
		headers?: Record<string, string>,
	): Promise<ApiResponse<T>> {
		const response = await fetch(this.sandbox.baseUrl + path, {
			method,
			headers: this.headers(headers),
			body,
		});
		const text = await response.text();
		return {
			status: response.status,
			headers: response.headers,
			body: (text ? JSON.parse(text) : undefined) as T,
		};
	}
}

/** A new account of the given plan with a key holding all four abilities, ready to call. */
export async function newClient(
	sandbox: SandboxAddress,
	account: NewAccount = { plan: 'credits' },
	abilities?: Ability[],
): Promise<Api & { accountId: string; keyId: string }> {
	const { accountId, keyId, key } = await sandboxAdmin(sandbox).createAccountWithKey(
		account,
		abilities,
	);
	return Object.assign(new Api(sandbox, key), { accountId, keyId });
}

/**
 * Star.pes with end codes (0xFF) written over part of its stitches: detected as PES at upload, refused when
 * the engine runs, since its stitch section declares far more bytes than come before the end (a PES merely
 * cut short is read up to the cut, with a warning).
 */
export function damagedPes(): Buffer {
	const bytes = Buffer.from(fixture('Star.pes'));
	// The PEC block starts where the PES header's offset says; its stitches follow its 532-byte header.
	const stitches = bytes.readUInt32LE(8) + 532;
	return bytes.fill(0xff, stitches + 40, stitches + 60);
}

export const isoDate = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
