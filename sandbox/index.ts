import { chmodSync, mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { signInUrl } from './http/pages/layout';
import { buildServer } from './http/server';
import { defaultWorkerMemoryMb, SandboxServices } from './services';
import type { TimeSource } from './services/clock';

export type { TimeSource } from './services/clock';

export interface SandboxOptions {
	/** Default 127.0.0.1. */
	host?: string;
	/** Default 8787; 0 picks a free port. */
	port?: number;
	/** Where SQLite and files live; a temporary folder (removed on close) when omitted. */
	dataDir?: string;
	adminToken?: string;
	demoKey?: string;
	/** Lifetime of signed file URLs, default 600 (10 minutes). */
	signedUrlTtlSeconds?: number;
	/** How long a job's source upload stays retryable and downloadable, default 86400 (24 hours). */
	sourceTtlSeconds?: number;
	/**
	 * How long a completed job's output and previews stay downloadable and on disk, default 7776000 (90 days);
	 * expired files are deleted from disk on the sandbox clock, like expired sources.
	 */
	outputRetentionSeconds?: number;
	/** Engine worker threads, default 2. */
	workers?: number;
	/** A job running longer is stopped and failed with `engine_timeout`; default 120. */
	jobTimeoutSeconds?: number;
	/** Heap ceiling of each engine thread in MB (a job past it fails with `engine_out_of_memory`); default 1024. */
	workerMemoryMb?: number;
	/**
	 * Whether each engine process digitises a small artwork of its own before it takes jobs, default true:
	 * a process's first job would otherwise run its code cold, up to twice as long (docs/sandbox.md).
	 */
	warmUpWorkers?: boolean;
	/** Log each request (fastify's logger). */
	logRequests?: boolean;
	/** v1 requests per minute per client address (the spec's network-level ceiling), default 1200; 0 = off. */
	networkRateLimit?: number;
	/**
	 * Where the sandbox's time comes from; the wall clock by default, a driven clock in tests
	 * (test/support/testClock.ts).
	 */
	time?: TimeSource;
}

export interface RunningSandbox {
	/** For example http://127.0.0.1:8787/api/v1 */
	baseUrl: string;
	/** For example http://127.0.0.1:8787 */
	origin: string;
	adminToken: string;
	demoKey: string;
	demoAccountId: string;
	dataDir: string;
	/**
	 * A new single-use sign-in link to the account pages (/account), valid 15 minutes, for the demo
	 * account unless another is named; `npm run sandbox` prints one at start.
	 */
	signInLink(accountId?: string): string;
	/** No v1 request is being answered and no job processed: a driven clock may skip ahead. */
	atRest(): boolean;
	/**
	 * Resolves once every engine process takes jobs: after its warm-up (`warmUpWorkers`), a few seconds
	 * from the start. A job sent before waits for it.
	 */
	enginesReady(): Promise<void>;
	/**
	 * Gives running jobs 3 s, kills the engine processes (unfinished jobs are queued again on the
	 * next start) and closes the database.
	 */
	close(): Promise<void>;
}

export const defaultSandboxOptions = {
	host: '127.0.0.1',
	port: 8787,
	signedUrlTtlSeconds: 600,
	sourceTtlSeconds: 86400,
	workers: 2,
	workerMemoryMb: defaultWorkerMemoryMb,
	warmUpWorkers: true,
};

/** Starts the whole service locally: HTTP API, control API, storage and engine workers. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
	const settings = { ...defaultSandboxOptions, ...definedOnly(options) };
	const temporary = options.dataDir === undefined;
	const dataDir = temporary
		? mkdtempSync(join(tmpdir(), 'embroidery-sandbox-'))
		: resolve(options.dataDir!);
	checkOptions(settings);
	// It holds the secret the admin token, the demo key and URL signatures derive from: owner only.
	mkdirSync(dataDir, { recursive: true, mode: 0o700 });
	chmodSync(dataDir, 0o700);

	const services = new SandboxServices({
		dataDir,
		workers: settings.workers,
		signedUrlTtlSeconds: settings.signedUrlTtlSeconds,
		sourceTtlSeconds: settings.sourceTtlSeconds,
		outputRetentionSeconds: options.outputRetentionSeconds,
		demoKey: options.demoKey,
		adminToken: options.adminToken,
		jobTimeoutMs: (options.jobTimeoutSeconds ?? 120) * 1000,
		workerMemoryMb: settings.workerMemoryMb,
		warmUpWorkers: settings.warmUpWorkers,
		time: options.time,
	});
	const app = await buildServer(services, {
		logger: options.logRequests ?? false,
		networkRateLimit: options.networkRateLimit,
	});
	try {
		await app.listen({ host: settings.host, port: settings.port });
	} catch (error) {
		await services.close();
		throw error;
	}
	const address = app.server.address();
	const port = typeof address === 'object' && address ? address.port : settings.port;
	const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
	const origin = `http://${host}:${port}`;
	let closing: Promise<void> | undefined;
	return {
		baseUrl: `${origin}/api/v1`,
		origin,
		adminToken: services.adminToken,
		demoKey: services.demoKey,
		demoAccountId: services.demoAccountId,
		dataDir,
		signInLink: (accountId = services.demoAccountId) =>
			signInUrl(origin, services.sessions.createSignInLink(accountId).token),
		atRest: () => services.clock.atRest,
		enginesReady: () => services.enginesReady(),
		close: () =>
			(closing ??= (async () => {
				await app.close();
				await services.close();
				if (temporary) rmSync(dataDir, { recursive: true, force: true });
			})()),
	};
}

function definedOnly<T extends object>(value: T): Partial<T> {
	return Object.fromEntries(
		Object.entries(value).filter(([, entry]) => entry !== undefined),
	) as Partial<T>;
}

function checkOptions(settings: typeof defaultSandboxOptions): void {
	const problems: string[] = [];
	if (!Number.isInteger(settings.port) || settings.port < 0 || settings.port > 65535)
		problems.push('port must be 0-65535');
	if (!Number.isInteger(settings.workers) || settings.workers < 1 || settings.workers > 64)
		problems.push('workers must be 1-64');
	if (
		!Number.isInteger(settings.workerMemoryMb) ||
		settings.workerMemoryMb < 64 ||
		settings.workerMemoryMb > 65536
	)
		problems.push('workerMemoryMb must be 64-65536');
	if (!(settings.signedUrlTtlSeconds > 0)) problems.push('signedUrlTtlSeconds must be positive');
	if (!(settings.sourceTtlSeconds > 0)) problems.push('sourceTtlSeconds must be positive');
	if (problems.length) throw new Error(`Invalid sandbox options: ${problems.join('; ')}.`);
}
