import { createHmac, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';

import { abilities } from '../domain/accounts';
import { AccountsTable } from '../storage/accounts';
import { openDatabase, transaction } from '../storage/database';
import { FileStore } from '../storage/fileStore';
import { JobsTable } from '../storage/jobs';
import { KeysTable } from '../storage/keys';
import { MetaTable } from '../storage/meta';
import { SessionsTable, SignInLinksTable } from '../storage/sessions';
import { UploadsTable } from '../storage/uploads';
import { AccountService } from './accounts';
import { AuthService } from './auth';
import { BillingService } from './billing';
import { SandboxClock, type TimeSource } from './clock';
import { noFaults, type Faults } from './faults';
import { FileService } from './files';
import { FileSweeper, sweepIntervalMs } from './fileSweeper';
import { JobRunner } from './jobRunner';
import { JobService } from './jobs';
import { SessionService } from './sessions';
import { UrlSigner } from './signing';
import { SourceInspector } from './workers/inspector';
import { WorkerPool } from './workers/pool';

export interface ServiceOptions {
	dataDir: string;
	workers: number;
	signedUrlTtlSeconds: number;
	sourceTtlSeconds: number;
	/** How long a completed job's output and previews are kept; 90 days by default. */
	outputRetentionSeconds?: number;
	/** Fixed demo key; by default one derived from the data directory's secret, stable across restarts. */
	demoKey?: string;
	/** Fixed admin token; by default derived like the demo key. */
	adminToken?: string;
	jobTimeoutMs?: number;
	/** Heap ceiling of each engine process, in MB. */
	workerMemoryMb?: number;
	/** Whether each engine process warms up before it takes jobs (workers/warmUp.ts); off unless set. */
	warmUpWorkers?: boolean;
	/** Where failures with no request to answer are logged; console.error by default. */
	report?: (error: unknown) => void;
	/** The wall clock by default; tests may drive it. */
	time?: TimeSource;
}

export const defaultWorkerMemoryMb = 1024;
export const defaultOutputRetentionSeconds = 90 * 24 * 60 * 60;

/** The sandbox's state and behaviour, wired together; the HTTP layer only talks to this. */
export class SandboxServices {
	readonly clock: SandboxClock;
	readonly accounts: AccountService;
	readonly auth: AuthService;
	readonly billing: BillingService;
	readonly jobs: JobService;
	readonly files: FileService;
	readonly runner: JobRunner;
	readonly sessions: SessionService;
	readonly adminToken: string;
	readonly demoKey: string;
	faults: Faults = { ...noFaults };
	demoAccountId = '';

	private readonly db: DatabaseSync;
	private readonly store: FileStore;
	private readonly meta: MetaTable;
	private readonly pool: WorkerPool;
	private readonly inspector: SourceInspector;
	private readonly secret: string;
	private readonly sweeper: FileSweeper;
	private readonly sweepTimer: NodeJS.Timeout;
	private readonly report: (error: unknown) => void;

	constructor(options: ServiceOptions) {
		this.db = openDatabase(join(options.dataDir, 'sandbox.db'));
		this.meta = new MetaTable(this.db);
		this.secret = this.meta.get('secret') ?? randomBytes(32).toString('hex');
		this.meta.set('secret', this.secret);
		this.clock = new SandboxClock(Number(this.meta.get('clockOffsetMs') ?? 0), options.time);
		this.adminToken = options.adminToken ?? this.derive('admin-token');
		this.demoKey = options.demoKey ?? `emb_sandbox_demo_${this.derive('demo-key').slice(0, 32)}`;

		const accountsTable = new AccountsTable(this.db);
		const keys = new KeysTable(this.db);
		const jobsTable = new JobsTable(this.db);
		const uploads = new UploadsTable(this.db);
		this.store = new FileStore(options.dataDir);
		this.accounts = new AccountService(accountsTable, this.clock);
		this.auth = new AuthService(keys, accountsTable, this.clock);
		this.billing = new BillingService(this.accounts, accountsTable, this.clock);
		this.sessions = new SessionService(
			this.db,
			new SignInLinksTable(this.db),
			new SessionsTable(this.db),
			accountsTable,
			this.clock,
		);
		this.pool = new WorkerPool(
			Math.max(1, options.workers),
			options.jobTimeoutMs ?? 120_000,
			options.workerMemoryMb ?? defaultWorkerMemoryMb,
			(jobId) => this.runner.givesWay(jobId),
			undefined,
			options.warmUpWorkers ?? false,
		);
		this.report = options.report ?? ((error) => console.error('[sandbox]', error));
		this.inspector = new SourceInspector(options.workerMemoryMb ?? defaultWorkerMemoryMb);
		this.runner = new JobRunner({
			db: this.db,
			jobs: jobsTable,
			uploads,
			store: this.store,
			pool: this.pool,
			clock: this.clock,
			faults: () => this.faults,
			outputRetentionSeconds: options.outputRetentionSeconds ?? defaultOutputRetentionSeconds,
			report: this.report,
		});
		this.jobs = new JobService({
			db: this.db,
			jobs: jobsTable,
			uploads,
			billing: this.billing,
			store: this.store,
			clock: this.clock,
			queue: this.runner,
			inspect: (request, accountId) => this.inspector.inspect(request, accountId),
			sourceTtlSeconds: options.sourceTtlSeconds,
		});
		this.files = new FileService({
			uploads,
			jobs: jobsTable,
			store: this.store,
			signer: new UrlSigner(this.secret),
			clock: this.clock,
			urlTtlSeconds: options.signedUrlTtlSeconds,
		});
		this.ensureDemoAccount();
		this.runner.recover();
		this.runner.kick();
		this.sweeper = new FileSweeper(this.db, uploads, this.store, this.clock);
		this.sweepExpiredFiles();
		this.sweepTimer = setInterval(() => this.sweepExpiredFiles(), sweepIntervalMs).unref();
	}

	advanceClock(seconds: number): number {
		const now = this.clock.advance(seconds);
		this.meta.set('clockOffsetMs', String(this.clock.offsetMs));
		this.sweepExpiredFiles();
		return now;
	}

	/** Deletes expired files from disk (never throws: failures go to the log). */
	sweepExpiredFiles(): void {
		try {
			this.sweeper.sweep();
		} catch (error) {
			this.report(error);
		}
	}

	/** Back to a fresh sandbox: no accounts, jobs or files but the demo account and key; clock and faults cleared. */
	async reset(): Promise<void> {
		await this.runner.drain(10_000);
		try {
			// All or nothing: a failing DELETE leaves every row (and the clock) as it was.
			transaction(this.db, () => {
				for (const table of [
					'job_events',
					'usage',
					'jobs',
					'uploads',
					'api_keys',
					'sessions',
					'sign_in_links',
					'accounts',
				])
					this.db.exec(`DELETE FROM ${table}`);
				this.meta.set('clockOffsetMs', '0');
			});
			this.store.clear();
			this.clock.offsetMs = 0;
			this.faults = { ...noFaults };
			this.ensureDemoAccount();
		} finally {
			this.runner.resume();
		}
	}

	/** Resolves once every engine process takes jobs: warmed up, unless `warmUpWorkers` is off. */
	enginesReady(): Promise<void> {
		return this.pool.ready();
	}

	/**
	 * Gives running jobs 3 s to finish, then kills the engine processes: a job still running stays
	 * `processing` and the next start queues it again (recover()), so a stop takes seconds, not a job's length.
	 */
	async close(): Promise<void> {
		clearInterval(this.sweepTimer);
		await this.runner.drain(3_000);
		await Promise.all([this.pool.close(), this.inspector.close()]);
		this.db.close();
	}

	private ensureDemoAccount(): void {
		const stored = this.meta.get('demoAccountId');
		if (stored && this.accounts.find(stored)) {
			this.demoAccountId = stored;
		} else {
			this.demoAccountId = this.accounts.createAccount({
				name: 'Demo account',
				plan: 'credits',
				creditBalance: 100,
			}).id;
			this.meta.set('demoAccountId', this.demoAccountId);
		}
		this.auth.ensureKey(this.demoAccountId, this.demoKey, abilities);
	}

	private derive(purpose: string): string {
		return createHmac('sha256', this.secret).update(purpose).digest('hex');
	}
}
