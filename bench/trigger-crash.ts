/**
 * What a hard crash of n8n (kill -9 of its whole process group) costs the Embroidery Trigger, measured in
 * real n8n: each ending emitted once, again after the restart (repeated), or never (lost).
 *
 * For each n8n under test (scripts/n8n.sh: 2.x on Node 24, 1.x on Node 22) and setting (2.x also with
 * durable poll cursors), one n8n with its own user folder polls the sandbox through a loopback proxy every
 * minute; its workflow (Embroidery Trigger -> HTTP Request) posts each emitted ending to a recorder that
 * this script runs. Per scenario one conversion job ends, n8n is killed at a chosen moment, started
 * again on the same user folder and database, and left to poll twice. The scenarios:
 *   in execution  the recorder holds the emitted execution's request; kill while it waits
 *   in poll       the proxy holds the poll's listing request; kill before the poll can emit
 *   at save       kill the moment the trigger's new state appears in n8n's database (read every ms)
 *   at row        kill the moment the emitted execution's row appears in n8n's database
 * Before each restart the script reads n8n's sqlite database: what the saved state says of the job
 * (static data, or poller_state with durable cursors) and which executions exist.
 *
 * Run: npm run bench:triggerCrash [-- --n8n=2.41.1,1.123.81 --settings=default,durable
 *      --scenarios=execution,poll,save,row]. Needs `npm run build` and both n8n installed (test/e2e/run.sh).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { sandboxCredential } from '../scripts/examples';
import type { Owner, WorkflowExport } from '../scripts/n8n';
import { cacheDir, LocalN8n, repoRoot, sleep, testedN8nVersions } from '../scripts/n8n';
import { createJob, waitForJobEnd } from '../scripts/sandbox-client';
import { startVariantService, type VariantService } from '../test/support/variantService';
import { listenOnLoopback } from '../test/support/loopback';
import { startSandbox, type RunningSandbox } from '../test/support/sandbox';
import { printTable } from './support/table';

const workflowId = 'triggerCrash01';
const triggerName = 'Embroidery Trigger';
const owner: Owner = {
	email: 'owner@example.com',
	password: 'Embroidery1',
	firstName: 'Crash',
	lastName: 'Bench',
};

type Scenario = 'execution' | 'poll' | 'save' | 'row';
type Setting = 'default' | 'durable';

const scenarioNames: Record<Scenario, string> = {
	execution: 'kill in emitted execution',
	poll: 'kill in poll (listing held)',
	save: 'kill when state is saved',
	row: 'kill when execution is saved',
};

/** n8n 2.41's durable poll cursors: the cursor and the execution committed in one transaction. */
const durableCursors = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};

interface Recorded {
	id: string;
	status: string;
	execution: string;
	atMs: number;
}

/** The loopback server the workflow posts each emitted ending to; while `holding`, it answers nothing. */
async function startRecorder() {
	const endings: Recorded[] = [];
	const state: { holding: boolean; arrived?: () => void } = { holding: false };
	const server = createServer((incoming, outgoing) => {
		let body = '';
		incoming.on('data', (chunk: Buffer) => (body += chunk.toString()));
		incoming.on('end', () => {
			const ending = JSON.parse(body || '{}') as Omit<Recorded, 'atMs'>;
			endings.push({ ...ending, atMs: Date.now() });
			if (state.holding) return state.arrived?.();
			outgoing.writeHead(200, { 'content-type': 'application/json' });
			outgoing.end('{}');
		});
	});
	const loopback = await listenOnLoopback(server, { keepAliveMs: 1000 });
	return {
		url: `${loopback.origin}/ending`,
		endings,
		/** Holds every request from now on; resolves when the first one arrives. */
		hold(): Promise<void> {
			state.holding = true;
			return new Promise((resolveArrival) => (state.arrived = resolveArrival));
		},
		answer(): void {
			state.holding = false;
		},
		close: loopback.close,
	};
}

type Recorder = Awaited<ReturnType<typeof startRecorder>>;

function crashWorkflow(
	credential: { id: string; name: string },
	recorderUrl: string,
): WorkflowExport {
	return {
		id: workflowId,
		name: 'Trigger crash bench',
		active: false,
		nodes: [
			{
				id: `${workflowId}-0`,
				name: triggerName,
				type: 'n8n-nodes-embroidery.embroideryTrigger',
				typeVersion: 1.2,
				position: [0, 0],
				parameters: {
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					events: ['completed', 'failed'],
					workflow: 'both',
					options: {},
				},
				credentials: { embroideryApi: credential },
			},
			{
				id: `${workflowId}-1`,
				name: 'Record ending',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [220, 0],
				parameters: {
					method: 'POST',
					url: recorderUrl,
					sendBody: true,
					specifyBody: 'json',
					jsonBody:
						'={{ JSON.stringify({ id: $json.id, status: $json.status, execution: $execution.id }) }}',
					options: { timeout: 600_000 },
				},
			},
		],
		connections: {
			[triggerName]: { main: [[{ node: 'Record ending', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** What n8n's database says, read while n8n is down (or between its writes). */
interface DatabaseView {
	/** The job's status in the trigger's saved state ("absent" when the state does not know it). */
	savedStatus: string;
	/** Where that state lives: workflow static data, or poller_state with durable cursors. */
	savedIn: string;
	/** The executions the scenario's poll started, by status, e.g. "1 running". */
	executions: string;
}

/** The newest execution id so far, so that a scenario counts only the executions it started. */
function lastExecutionId(userFolder: string): number {
	const database = new DatabaseSync(join(userFolder, '.n8n', 'database.sqlite'));
	try {
		const row = database.prepare('SELECT MAX(id) AS id FROM execution_entity').get() as {
			id: number | null;
		};
		return Number(row.id ?? 0);
	} finally {
		database.close();
	}
}

function readDatabase(userFolder: string, jobId: string, afterExecutionId: number): DatabaseView {
	const database = new DatabaseSync(join(userFolder, '.n8n', 'database.sqlite'));
	try {
		const statusIn = (
			json: string | null | undefined,
			path: (data: Record<string, unknown>) => unknown,
		) => {
			if (!json) return undefined;
			const state = path(JSON.parse(json) as Record<string, unknown>) as
				| { jobs?: Array<{ id: string; status: string }> }
				| undefined;
			if (!state?.jobs) return undefined;
			return state.jobs.find((job) => job.id === jobId)?.status ?? 'absent';
		};
		const workflow = database
			.prepare('SELECT staticData FROM workflow_entity WHERE id = ?')
			.get(workflowId) as { staticData?: string | null } | undefined;
		const fromStaticData = statusIn(workflow?.staticData, (data) => {
			const node = data[`node:${triggerName}`] as { state?: unknown } | undefined;
			return node?.state;
		});
		const hasPollerState = database
			.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'poller_state'")
			.get();
		const cursor = hasPollerState
			? (database
					.prepare('SELECT cursor FROM poller_state WHERE workflowId = ?')
					.get(workflowId) as { cursor?: string } | undefined)
			: undefined;
		const fromCursor = statusIn(cursor?.cursor, (data) => data.state);
		const counts = database
			.prepare(
				'SELECT status, COUNT(*) AS count FROM execution_entity WHERE workflowId = ? AND id > ? GROUP BY status',
			)
			.all(workflowId, afterExecutionId) as Array<{ status: string; count: number }>;
		return {
			savedStatus: fromCursor ?? fromStaticData ?? 'no state',
			savedIn: fromCursor !== undefined ? 'poller_state' : 'static data',
			executions: counts.map(({ status, count }) => `${count} ${status}`).join(', ') || 'none',
		};
	} finally {
		database.close();
	}
}

/** Processes still in a process group (Linux /proc): n8n's task runners would show up here. */
function groupMembers(groupId: number): number[] {
	const members: number[] = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			// Fields after the command name (which may hold spaces): state, ppid, pgrp.
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			if (Number(fields[2]) === groupId) members.push(Number(entry));
		} catch {
			// The process ended while being read.
		}
	}
	return members;
}

async function until<T>(
	what: string,
	check: () => T | undefined | Promise<T | undefined>,
	timeoutMs: number,
	everyMs = 500,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value !== undefined) return value;
		if (Date.now() > deadline)
			throw new Error(`${what} did not happen within ${timeoutMs / 1000} s`);
		await sleep(everyMs);
	}
}

interface Row {
	version: string;
	setting: Setting;
	scenario: Scenario;
	before: number;
	after: number;
	atCrash: DatabaseView;
	groupSize: number;
	seconds: number;
}

/** One n8n (version and setting) on a fresh user folder, run through the chosen scenarios one after another. */
class CrashRun {
	private n8n!: LocalN8n;

	constructor(
		private readonly version: string,
		private readonly setting: Setting,
		private readonly sandbox: RunningSandbox,
		private readonly proxy: VariantService,
		private readonly recorder: Recorder,
		private readonly root: string,
	) {}

	async open(): Promise<void> {
		const major = Number(this.version.split('.')[0]);
		const bin = join(cacheDir(), `n8n-${this.version}`, 'node_modules', 'n8n', 'bin', 'n8n');
		const node = join(cacheDir(), `node${major >= 2 ? 24 : 22}`, 'node_modules', '.bin', 'node');
		for (const path of [bin, node])
			if (!existsSync(path))
				throw new Error(
					`${path} is missing: run test/e2e/run.sh once to install n8n ${this.version}`,
				);
		// scripts/n8n.ts reads which n8n to run from these two.
		process.env.N8N_BIN = bin;
		process.env.N8N_NODE_BIN = node;
		this.n8n = await LocalN8n.create({
			userFolder: join(this.root, `n8n-${this.version}-${this.setting}`),
			encryptionKey: 'embroidery-trigger-crash',
			env: this.setting === 'durable' ? durableCursors : {},
		});
		await this.n8n.installPackage();
		const credential = sandboxCredential({
			baseUrl: this.proxy.baseUrl,
			demoKey: this.sandbox.demoKey,
		});
		await this.n8n.importCredentials([credential]);
		await this.n8n.importWorkflows([crashWorkflow(credential, this.recorder.url)]);
		await this.n8n.publishWorkflow(workflowId);
		await this.startAndPoll(1);
		// With durable cursors the activation's own poll saves nothing: the first scheduled poll takes the baseline.
		await until(
			"the trigger's first saved state",
			() =>
				readDatabase(this.n8n.userFolder, '', 0).savedStatus !== 'no state' ? true : undefined,
			150_000,
			1_000,
		);
	}

	async close(): Promise<void> {
		// Undefined when open() failed before n8n was set up.
		if (this.n8n !== undefined) await this.n8n.stop();
	}

	/** Starts n8n, signs in, waits for activation and for `listings` polls to have listed the jobs. */
	private async startAndPoll(listings: number): Promise<void> {
		const seen = this.proxy.requests.length;
		await this.n8n.start();
		await this.n8n.signIn(owner);
		await this.n8n.waitForActivation([workflowId]);
		await until(
			`${listings} answered listing(s) after the start`,
			() =>
				this.proxy.requests
					.slice(seen)
					.filter((request) => request.route === 'GET /jobs' && request.status === 200).length >=
				listings
					? true
					: undefined,
			150_000,
			1_000,
		);
		// The executions an emitting poll started reach the recorder within seconds.
		await sleep(10_000);
	}

	async run(scenario: Scenario): Promise<Row> {
		const startedAt = Date.now();
		const executionsBefore = lastExecutionId(this.n8n.userFolder);
		const design = {
			name: 'Star.JEF',
			bytes: await readFile(join(repoRoot, 'examples', 'files', 'Star.JEF')),
		};
		// Armed before the job exists, so no poll can emit its ending unobserved.
		const armed =
			scenario === 'execution'
				? this.recorder.hold()
				: scenario === 'poll'
					? this.holdNextListing()
					: this.nextJobFetch();
		const job = await createJob(this.sandbox, { workflow: 'conversion', format: 'pes' }, design);
		await waitForJobEnd(this.sandbox, job);
		await withTimeout(`the awaited request (${scenario})`, armed, 150_000);
		if (scenario === 'save' || scenario === 'row')
			await this.savedInDatabase(job.id, scenario, executionsBefore);
		const groupId = this.n8n.pid;
		if (groupId === undefined)
			throw new Error(`n8n exited before the crash; see ${this.n8n.logFile}`);
		const groupSize = groupMembers(groupId).length;
		await this.n8n.crash();
		await until(
			'the end of the killed process group',
			() => (groupMembers(groupId).length === 0 ? true : undefined),
			10_000,
			200,
		);
		const crashedAt = Date.now();
		const atCrash = readDatabase(this.n8n.userFolder, job.id, executionsBefore);
		this.recorder.answer();
		this.stopAnswering?.();
		this.releaseListing?.();
		await this.startAndPoll(2);
		const mine = this.recorder.endings.filter((ending) => ending.id === job.id);
		return {
			version: this.version,
			setting: this.setting,
			scenario,
			before: mine.filter((ending) => ending.atMs <= crashedAt).length,
			after: mine.filter((ending) => ending.atMs > crashedAt).length,
			atCrash,
			groupSize,
			seconds: Math.round((Date.now() - startedAt) / 1000),
		};
	}

	private releaseListing?: () => void;

	/** Removes the proxy's rule that waits for the awaited request, when it has not come. */
	private stopAnswering?: () => void;

	/**
	 * The proxy holds the next listing request until the crash is done; resolves when it arrives. The job
	 * may end before or while it is held: either way no poll has seen the ending when n8n is killed.
	 */
	private async holdNextListing(): Promise<void> {
		const released = new Promise<void>((resolveRelease) => (this.releaseListing = resolveRelease));
		await new Promise<void>((resolveArrival) => {
			this.stopAnswering = this.proxy.on(async (request) => {
				if (request.route !== 'GET /jobs') return undefined;
				this.stopAnswering?.();
				resolveArrival();
				await released;
				return { status: 503 };
			});
		});
	}

	/**
	 * Resolves when a poll fetches a job's detail: the trigger does so for an ended job, its last request
	 * before it emits.
	 */
	private async nextJobFetch(): Promise<void> {
		await new Promise<void>((resolveFetch) => {
			this.stopAnswering = this.proxy.on((request) => {
				if (request.route.startsWith('GET /jobs/conversion/')) {
					this.stopAnswering?.();
					resolveFetch();
				}
				return undefined;
			});
		});
	}

	/**
	 * After the poll fetched the ended job's detail, reads n8n's database every millisecond until the
	 * trigger's state says the job completed (`save`) or an execution of the workflow appears (`row`).
	 */
	private async savedInDatabase(
		jobId: string,
		what: 'save' | 'row',
		executionsBefore: number,
	): Promise<void> {
		const database = new DatabaseSync(join(this.n8n.userFolder, '.n8n', 'database.sqlite'));
		try {
			const staticData = database.prepare('SELECT staticData FROM workflow_entity WHERE id = ?');
			const hasCursor = database
				.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'poller_state'")
				.get();
			const cursor = hasCursor
				? database.prepare('SELECT cursor FROM poller_state WHERE workflowId = ?')
				: undefined;
			const execution = database.prepare(
				'SELECT id FROM execution_entity WHERE workflowId = ? AND id > ?',
			);
			// The state names the job with its status: its ending is recorded once "completed" appears by its id.
			const saysCompleted = (json: unknown) =>
				typeof json === 'string' &&
				new RegExp(`"id":"${jobId}"[^}]*"status":"completed"`).test(json);
			const deadline = Date.now() + 30_000;
			while (Date.now() < deadline) {
				try {
					if (what === 'row') {
						if (execution.get(workflowId, executionsBefore)) return;
					} else {
						const row = staticData.get(workflowId) as { staticData?: string } | undefined;
						const cursorRow = cursor?.get(workflowId) as { cursor?: string } | undefined;
						if (saysCompleted(row?.staticData) || saysCompleted(cursorRow?.cursor)) return;
					}
				} catch {
					// n8n is writing (SQLITE_BUSY): read again a millisecond later.
				}
				await sleep(1);
			}
			throw new Error(
				what === 'row'
					? `n8n saved no execution for job ${jobId} within 30 s`
					: `The trigger's state did not record job ${jobId} as completed within 30 s`,
			);
		} finally {
			database.close();
		}
	}
}

async function withTimeout<T>(what: string, promise: Promise<T>, timeoutMs: number): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(
			() => reject(new Error(`${what} did not happen within ${timeoutMs / 1000} s`)),
			timeoutMs,
		);
	});
	try {
		return await Promise.race([promise, timeout]);
	} finally {
		clearTimeout(timer);
	}
}

function verdict(row: Row): string {
	const total = row.before + row.after;
	if (total === 0) return 'lost';
	return total === 1 ? 'once' : 'repeated';
}

function option(name: string, fallback: string[]): string[] {
	const given = process.argv.find((arg) => arg.startsWith(`--${name}=`));
	return given ? given.slice(name.length + 3).split(',') : fallback;
}

async function main(): Promise<void> {
	const tested = testedN8nVersions();
	const versions = option('n8n', [tested.current, tested.previousMajor]);
	const settings = option('settings', ['default', 'durable']) as Setting[];
	const scenarios = option('scenarios', ['execution', 'poll', 'save', 'row']) as Scenario[];
	const root = await mkdtemp(join(tmpdir(), 'embroidery-trigger-crash-'));
	const sandbox = await startSandbox({ port: 0, dataDir: join(root, 'sandbox') });
	const proxy = await startVariantService(sandbox.origin);
	const recorder = await startRecorder();
	const rows: Row[] = [];
	try {
		for (const version of versions) {
			for (const setting of settings) {
				// Durable poll cursors are a 2.x setting.
				if (setting === 'durable' && Number(version.split('.')[0]) < 2) continue;
				const run = new CrashRun(version, setting, sandbox, proxy, recorder, root);
				try {
					await run.open();
					for (const scenario of scenarios) {
						const row = await run.run(scenario);
						rows.push(row);
						console.error(
							`${version} ${setting} ${scenario}: before ${row.before}, after ${row.after}, ` +
								`state ${row.atCrash.savedStatus} (${row.atCrash.savedIn}), executions ` +
								`${row.atCrash.executions}, ${row.seconds} s`,
						);
					}
				} finally {
					await run.close();
				}
			}
		}
	} finally {
		printTable(
			'Embroidery Trigger: one ending, n8n killed (SIGKILL to its process group) and restarted ' +
				`(${new Date().toISOString().slice(0, 10)})`,
			[
				'n8n',
				'setting',
				'scenario',
				'endings',
				'before crash',
				'after restart',
				'verdict',
				'saved state at crash',
				'executions at crash',
				'processes killed',
				's',
			],
			rows.map((row) => [
				row.version,
				row.setting,
				scenarioNames[row.scenario],
				1,
				row.before,
				row.after,
				verdict(row),
				`${row.atCrash.savedStatus} (${row.atCrash.savedIn})`,
				row.atCrash.executions,
				row.groupSize,
				row.seconds,
			]),
			[
				'before crash / after restart: requests the workflow made to the recorder for the job.',
				"saved state: the job as the trigger state in n8n's database says, read after the kill.",
			],
		);
		await recorder.close();
		await proxy.close();
		await sandbox.close();
		if (process.env.EMBROIDERY_KEEP !== '1') await rm(root, { recursive: true, force: true });
		else console.error(`Kept ${root}`);
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
