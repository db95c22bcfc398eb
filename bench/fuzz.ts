/**
 * npm run bench:fuzz [files] [artworks] [seed] [perFormat]: first every reader's own samples mutated
 * `perFormat` times each through the engine's job path (fuzz-readers.ts, a table per format); then every
 * shared sample damaged and spliced `perFormat` times, counting completed garbage (fuzz-garbage.ts); then mutated
 * and generated embroidery files and hostile artworks through the real job path. The sandbox runs as its own
 * process (`sandbox/cli.ts`); every file is sent with POST /jobs (10 a request) and followed with GET /jobs
 * until its job ends. The report: jobs, inputs not accounted for, crashes, jobs left non-terminal, the
 * sandbox's peak RSS, the slowest job and leftover temporary files.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { detectFormat, listFormats } from '../sandbox/engine';
import { embroideryFiles, hostileArtworks, randomSource, type FuzzFile } from './fuzz-inputs';
import { fuzzGarbage, garbageTotal, printGarbageTable } from './fuzz-garbage';
import { fuzzReaders, printReaderTable, readersHeld } from './fuzz-readers';
import { descendants, spawnSandbox } from '../test/support/sandboxProcess';

export interface FuzzOptions {
	files: number;
	artworks: number;
	seed: number;
	/** Engine worker threads of the sandbox (default 2, as `npm run sandbox`). */
	workers?: number;
	/**
	 * Stops a job after this many seconds (the sandbox's own default, 120, when omitted). The sandbox
	 * then starts through `startSandbox`, which `sandbox/cli.ts` wraps, since the CLI has no flag for it.
	 */
	jobTimeoutSeconds?: number;
	/** Gives up waiting for jobs to end after this long (they then count as non-terminal). */
	timeoutMs?: number;
	/** Progress lines while it runs. */
	log?: (line: string) => void;
}

export interface FuzzReport {
	files: number;
	artworks: number;
	requests: number;
	/** Files the sandbox refused at upload (422: not a readable file, or artwork it does not take; or another 4xx). */
	refusedAtUpload: number;
	/** Files of requests that got no answer or a 5xx (each also a crash). */
	lostWithRequest: number;
	/** Files still waiting to be sent when the run ended (its deadline passed or the sandbox exited). */
	notSent: number;
	/** Jobs the sandbox answered 202 for. */
	jobs: number;
	/** Jobs recorded in the sandbox's database (read once it has stopped). */
	recordedJobs: number;
	/**
	 * Inputs neither recorded as a job, refused at upload, lost with their request nor left unsent:
	 * files + artworks - recorded jobs - refused - lost - not sent. Anything but 0 is a bookkeeping error
	 * of the run or the sandbox (a job created for a refused file, a file dropped from a request).
	 */
	unaccounted: number;
	/** Files sent in requests the sandbox answered 202 with fewer jobs than files: part of `unaccounted`. */
	missingFromAcceptedRequests: number;
	/** Jobs by outcome: `completed` or the failure code. */
	outcomes: Record<string, number>;
	/** Jobs the engine did not fail on purpose (engine_error), 5xx answers, and the sandbox process dying. */
	crashes: number;
	crashExamples: string[];
	serverErrors: number;
	refusedByRateLimit: number;
	nonTerminal: number;
	peakRssMb: number;
	slowest: { seconds: number; file: string; origin: string; outcome: string } | null;
	leftoverTempFiles: number;
	storedFiles: number;
	expectedStoredFiles: number;
	/** Files in the store that no upload record names: written by a job and then forgotten. */
	orphanFiles: number;
	/**
	 * Seconds from SIGTERM to the sandbox's exit, or null when it had not exited after
	 * `stopGraceSeconds` and was killed.
	 */
	stopSeconds: number | null;
	seconds: number;
}

const batchSize = 10;
/** Per key and rolling minute the sandbox allows 60 requests and 20 creations: stay under both. */
const requestGapMs = 1100;
const createGapMs = 3100;
/** GET /jobs lists a key's 50 newest jobs: a key keeps every unfinished job among them. */
const listingSize = 50;

interface Batch {
	workflow: 'conversion' | 'digitising';
	format: string;
	files: FuzzFile[];
}

interface Tracked {
	id: string;
	file: FuzzFile;
	done: boolean;
}

interface Sandbox {
	child: ChildProcess;
	baseUrl: string;
	origin: string;
	adminToken: string;
	dataDir: string;
	exited: boolean;
}

/** How long the sandbox may take to stop after SIGTERM before it is killed (and the report says so). */
const stopGraceSeconds = 30;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The same start as the CLI's, with a job timeout of its own; prints what the CLI prints. */
const startWithTimeout =
	`
const { startSandbox } = require('./sandbox/index.ts');
const [dataDir, workers, jobTimeoutSeconds] = process.argv.slice(1);
startSandbox({ port: 0, dataDir, workers: Number(workers), jobTimeoutSeconds: ` +
	`Number(jobTimeoutSeconds), networkRateLimit: 0 }).then((sandbox) => {
	console.log('Base URL: ' + sandbox.baseUrl + '\\nAdmin token: ' + sandbox.adminToken + '\\nPress Ctrl+C to stop.');
	process.once('SIGTERM', () => sandbox.close().then(() => process.exit(0)));
});`;

/** `node --import tsx sandbox/cli.ts`: the sandbox process, whose engine processes are its children. */
async function startSandbox(workers: number, jobTimeoutSeconds?: number): Promise<Sandbox> {
	const dataDir = mkdtempSync(join(tmpdir(), 'embroidery-fuzz-'));
	const args =
		jobTimeoutSeconds === undefined
			? [
					'sandbox/cli.ts',
					'--port',
					'0',
					'--data',
					dataDir,
					'--workers',
					String(workers),
					'--network-rate-limit',
					'0',
				]
			: ['-e', startWithTimeout, dataDir, String(workers), String(jobTimeoutSeconds)];
	const { child, printed } = await spawnSandbox(['--import', 'tsx', ...args]);
	const sandbox = { child, dataDir, exited: false } as Sandbox;
	child.once('exit', () => (sandbox.exited = true));
	sandbox.baseUrl = printed.baseUrl;
	sandbox.origin = sandbox.baseUrl.replace(/\/api\/v1$/, '');
	sandbox.adminToken = printed.adminToken;
	return sandbox;
}

function statusKb(pid: number, field: string): number {
	try {
		const status = readFileSync(`/proc/${pid}/status`, 'utf8');
		return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
	} catch {
		return 0;
	}
}

/**
 * Follows the resident memory of the sandbox with its engine processes: their summed RSS, sampled every
 * 0.5 s, and their summed high-water marks (VmHWM). The engine processes live as long as the sandbox
 * unless one is replaced, so the sum of high-water marks also counts a peak that came and went between
 * two samples; it may add peaks that did not coincide, so the figure errs on the high side.
 */
class RssMeter {
	peakMb = 0;
	private readonly timer: NodeJS.Timeout;

	constructor(private readonly pid: number) {
		this.timer = setInterval(() => this.sample(), 500);
	}

	sample(): number {
		const tree = [this.pid, ...descendants(this.pid)];
		const sum = (field: string) => tree.reduce((total, pid) => total + statusKb(pid, field), 0);
		this.peakMb = Math.max(this.peakMb, sum('VmRSS') / 1024, sum('VmHWM') / 1024);
		return this.peakMb;
	}

	stop(): void {
		clearInterval(this.timer);
	}
}

async function control<T>(
	sandbox: Sandbox,
	method: string,
	path: string,
	body: unknown,
): Promise<T> {
	const response = await fetch(`${sandbox.origin}/__sandbox${path}`, {
		method,
		headers: { 'X-Sandbox-Admin': sandbox.adminToken, 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
	});
	if (!response.ok)
		throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
	return (await response.json()) as T;
}

/** An internal account with room for the whole run, and its key. */
async function newKey(sandbox: Sandbox, index: number): Promise<string> {
	const account = await control<{ id: string }>(sandbox, 'POST', '/accounts', {
		name: `Fuzz ${index}`,
		plan: 'internal',
		dailyLimit: 1_000_000,
		monthlyLimit: 1_000_000,
	});
	const key = await control<{ key: string }>(sandbox, 'POST', '/keys', {
		accountId: account.id,
		abilities: ['jobs:read', 'jobs:write'],
	});
	return key.key;
}

/**
 * Conversion batches of readable files, each to a format none of its sources has; unreadable files
 * in batches of their own.
 */
function conversionBatches(files: FuzzFile[], seed: number): Batch[] {
	const random = randomSource(seed ^ 0xba7c4);
	const writable = listFormats()
		.filter((format) => format.writable)
		.map((format) => format.format);
	const readable: FuzzFile[] = [];
	const unreadable: FuzzFile[] = [];
	const detected = new Map<FuzzFile, string | null>();
	for (const file of files) {
		const format = detectFormat(file.bytes, file.name);
		detected.set(file, format);
		(format ? readable : unreadable).push(file);
	}
	const batches: Batch[] = [];
	for (const group of [readable, unreadable]) {
		for (let start = 0; start < group.length; start += batchSize) {
			const batchFiles = group.slice(start, start + batchSize);
			const sources = new Set(batchFiles.map((file) => detected.get(file)));
			const targets = writable.filter((format) => !sources.has(format));
			batches.push({
				workflow: 'conversion',
				format: random.pick(targets.length ? targets : writable),
				files: batchFiles,
			});
		}
	}
	return batches;
}

class Run {
	readonly report: FuzzReport;
	readonly queue: Batch[];
	private readonly started = Date.now();
	readonly rss: RssMeter;

	constructor(
		readonly sandbox: Sandbox,
		batches: Batch[],
		files: number,
		artworks: number,
		private readonly log: (line: string) => void,
	) {
		this.queue = batches;
		this.rss = new RssMeter(sandbox.child.pid!);
		this.report = {
			files,
			artworks,
			requests: 0,
			refusedAtUpload: 0,
			lostWithRequest: 0,
			notSent: 0,
			jobs: 0,
			recordedJobs: 0,
			unaccounted: 0,
			missingFromAcceptedRequests: 0,
			outcomes: {},
			crashes: 0,
			crashExamples: [],
			serverErrors: 0,
			refusedByRateLimit: 0,
			nonTerminal: 0,
			peakRssMb: 0,
			slowest: null,
			leftoverTempFiles: 0,
			storedFiles: 0,
			expectedStoredFiles: 0,
			orphanFiles: 0,
			stopSeconds: null,
			seconds: 0,
		};
	}

	readonly tracked: Tracked[] = [];

	/** One key's loop: create while its unfinished jobs fit in its listing, poll the listing otherwise. */
	async drive(key: string, deadline: number): Promise<void> {
		const mine: Tracked[] = [];
		let oldestOpen = 0;
		let lastRequest = 0;
		let lastCreate = 0;
		const pace = async (gap: number, since: number) => {
			const wait = since + gap - Date.now();
			if (wait > 0) await sleep(wait);
		};
		while (Date.now() < deadline && !this.sandbox.exited) {
			while (oldestOpen < mine.length && mine[oldestOpen].done) oldestOpen++;
			const open = mine.length - oldestOpen;
			const roomy = open + batchSize <= listingSize;
			if (this.queue.length && roomy) {
				await pace(requestGapMs, lastRequest);
				await pace(createGapMs, lastCreate);
				const batch = this.queue.shift();
				if (!batch) continue;
				lastRequest = lastCreate = Date.now();
				const jobs = await this.create(key, batch);
				for (const job of jobs) {
					mine.push(job);
					this.tracked.push(job);
				}
				continue;
			}
			if (open === 0) {
				if (!this.queue.length) return;
				continue;
			}
			await pace(requestGapMs * 2, lastRequest);
			lastRequest = Date.now();
			const listing = await this.send(key, 'GET', '/jobs');
			if (listing.status !== 200) continue;
			const statuses = new Map<string, string>();
			for (const item of (listing.body as { data: Array<{ id: string; status: string }> }).data)
				statuses.set(item.id, item.status);
			for (const job of mine.slice(oldestOpen)) {
				const status = statuses.get(job.id);
				if (status === 'completed' || status === 'failed') job.done = true;
			}
		}
	}

	private async create(key: string, batch: Batch, retried = false): Promise<Tracked[]> {
		const form = new FormData();
		form.append('workflow', batch.workflow);
		form.append('format', batch.format);
		if (batch.workflow === 'digitising') {
			form.append('width_mm', String(20 + (batch.files[0].bytes.length % 100)));
			form.append('colour_count', String(1 + (batch.files.length % 6)));
		}
		for (const file of batch.files)
			form.append('files[]', new Blob([new Uint8Array(file.bytes)]), file.name);
		const response = await this.send(key, 'POST', '/jobs', form);
		if (response.status === 202) {
			const jobs = (response.body as { jobs: Array<{ id: string }> }).jobs;
			this.report.jobs += jobs.length;
			this.report.missingFromAcceptedRequests += batch.files.length - jobs.length;
			return jobs.map((job, index) => ({ id: job.id, file: batch.files[index], done: false }));
		}
		if (response.status === 429) {
			this.queue.unshift(batch);
			return [];
		}
		if (response.status === 422 && !retried) {
			// The answer names each file it refused; the rest of the batch is sent again without them.
			const named = refusedFileNames(response.body);
			const accepted = batch.files.filter((file) => !named.has(file.name));
			this.report.refusedAtUpload += batch.files.length - accepted.length;
			if (accepted.length === batch.files.length || accepted.length === 0) {
				this.report.refusedAtUpload += accepted.length;
				return [];
			}
			return this.create(key, { ...batch, files: accepted }, true);
		}
		if (response.status === 0 || response.status >= 500)
			this.report.lostWithRequest += batch.files.length;
		else this.report.refusedAtUpload += batch.files.length;
		return [];
	}

	private async send(
		key: string,
		method: string,
		path: string,
		body?: FormData,
	): Promise<{ status: number; body: unknown }> {
		this.report.requests++;
		try {
			const response = await fetch(`${this.sandbox.baseUrl}${path}`, {
				method,
				headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' },
				body,
			});
			const text = await response.text();
			if (response.status >= 500) {
				this.report.serverErrors++;
				this.crash(`${method} ${path} answered ${response.status}: ${text.slice(0, 200)}`);
			}
			if (response.status === 429) {
				this.report.refusedByRateLimit++;
				await sleep(Number(response.headers.get('retry-after') ?? 1) * 1000);
			}
			return { status: response.status, body: text ? JSON.parse(text) : null };
		} catch (error) {
			this.crash(`${method} ${path} failed: ${(error as Error).message}`);
			return { status: 0, body: null };
		}
	}

	crash(what: string): void {
		this.report.crashes++;
		if (this.report.crashExamples.length < 10) this.report.crashExamples.push(what);
	}

	progress(): void {
		const done = this.tracked.filter((job) => job.done).length;
		this.log(
			`${Math.round((Date.now() - this.started) / 1000)} s: ${done}/${this.report.jobs} jobs ` +
				`ended, ${this.queue.length} batches to send, peak RSS ${Math.round(this.rss.sample())} MB`,
		);
	}
}

/**
 * The files a 422 names: the sandbox starts each message about a file with the file's name
 * ("fuzz-12.dst is not a readable embroidery machine file ..."), and names no file otherwise.
 */
function refusedFileNames(body: unknown): Set<string> {
	const errors = (body as { errors?: Record<string, string[]> } | null)?.errors ?? {};
	const names = new Set<string>();
	for (const field of ['file', 'files']) {
		for (const message of errors[field] ?? []) {
			const name = /^(.+?) (is|could not) /.exec(message)?.[1];
			if (name) names.add(name);
		}
	}
	return names;
}

/** Every file under `folder`, as paths relative to it. */
function filesUnder(folder: string, prefix = ''): string[] {
	if (!existsSync(folder)) return [];
	return readdirSync(folder).flatMap((entry) => {
		const path = join(folder, entry);
		return statSync(path).isDirectory()
			? filesUnder(path, `${prefix}${entry}/`)
			: [`${prefix}${entry}`];
	});
}

/** Outcomes, the slowest job and what the sandbox keeps on disk, read from its data folder once it has stopped. */
function inspectDataFolder(run: Run): void {
	const { report, sandbox } = run;
	const byName = new Map(run.tracked.map((job) => [job.file.name, job.file]));
	const db = new DatabaseSync(join(sandbox.dataDir, 'sandbox.db'), { readOnly: true });
	try {
		const rows = db
			.prepare(
				'SELECT title, status, failure_code, failure_reason, started_at, completed_at FROM jobs',
			)
			.all() as Array<{
			title: string;
			status: string;
			failure_code: string | null;
			failure_reason: string | null;
			started_at: number | null;
			completed_at: number | null;
		}>;
		const recorded = new Set(
			(db.prepare('SELECT path FROM uploads').all() as Array<{ path: string }>).map(
				(row) => row.path,
			),
		);
		const stored = filesUnder(join(sandbox.dataDir, 'files'));
		report.recordedJobs = rows.length;
		report.storedFiles = stored.length;
		report.orphanFiles = stored.filter((path) => !recorded.has(path)).length;
		for (const row of rows) {
			const outcome = row.status === 'failed' ? (row.failure_code ?? 'failed') : row.status;
			report.outcomes[outcome] = (report.outcomes[outcome] ?? 0) + 1;
			if (row.status !== 'completed' && row.status !== 'failed') report.nonTerminal++;
			if (row.status === 'completed') report.expectedStoredFiles += 3;
			report.expectedStoredFiles++;
			const file = byName.get(row.title);
			if (row.failure_code === 'engine_error')
				run.crash(`${row.title} (${file?.origin ?? '?'}): ${row.failure_reason}`);
			if (row.started_at !== null && row.completed_at !== null) {
				const seconds = (row.completed_at - row.started_at) / 1000;
				if (!report.slowest || seconds > report.slowest.seconds)
					report.slowest = { seconds, file: row.title, origin: file?.origin ?? '?', outcome };
			}
		}
	} finally {
		db.close();
	}
	report.leftoverTempFiles = filesUnder(join(sandbox.dataDir, 'tmp')).length;
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
	const log = options.log ?? (() => undefined);
	const workers = options.workers ?? 2;
	log(
		`Generating ${options.files} embroidery files and ${options.artworks} hostile artworks (seed ${options.seed})...`,
	);
	const files = [...embroideryFiles(options.files, options.seed)];
	const artworks = await hostileArtworks(options.artworks, options.seed);
	const batches = conversionBatches(files, options.seed);
	for (let start = 0; start < artworks.length; start += batchSize)
		batches.push({
			workflow: 'digitising',
			format: 'dst',
			files: artworks.slice(start, start + batchSize),
		});
	// Artwork batches spread among the conversions, so both kinds of job meet in the workers.
	const random = randomSource(options.seed ^ 0x51);
	for (let i = batches.length - 1; i > 0; i--) {
		const j = random.int(0, i);
		[batches[i], batches[j]] = [batches[j], batches[i]];
	}

	const sandbox = await startSandbox(workers, options.jobTimeoutSeconds);
	const run = new Run(sandbox, batches, files.length, artworks.length, log);
	const started = Date.now();
	try {
		const keyCount = Math.max(4, Math.min(20, Math.ceil(batches.length / 50)));
		const keys = await Promise.all(Array.from({ length: keyCount }, (_, i) => newKey(sandbox, i)));
		const ticker = setInterval(() => run.progress(), 15_000);
		try {
			const deadline = Date.now() + (options.timeoutMs ?? 60 * 60 * 1000);
			await Promise.all(keys.map((key) => run.drive(key, deadline)));
		} finally {
			clearInterval(ticker);
		}
		run.report.seconds = (Date.now() - started) / 1000;
		run.report.notSent = run.queue.reduce((sum, batch) => sum + batch.files.length, 0);
		if (sandbox.exited) run.crash('The sandbox process exited during the run.');
		else run.report.peakRssMb = run.rss.sample();
	} finally {
		run.rss.stop();
		if (!sandbox.exited) {
			const exited = new Promise((resolve) => sandbox.child.once('exit', resolve));
			const stopping = Date.now();
			sandbox.child.kill('SIGTERM');
			let grace: NodeJS.Timeout | undefined;
			const inTime = await Promise.race([
				exited.then(() => true),
				new Promise<boolean>(
					(resolve) => (grace = setTimeout(() => resolve(false), stopGraceSeconds * 1000)),
				),
			]);
			clearTimeout(grace);
			if (inTime) run.report.stopSeconds = (Date.now() - stopping) / 1000;
			else {
				sandbox.child.kill('SIGKILL');
				await exited;
			}
		}
	}
	try {
		inspectDataFolder(run);
	} finally {
		rmSync(sandbox.dataDir, { recursive: true, force: true });
	}
	const { report } = run;
	report.unaccounted =
		report.files +
		report.artworks -
		report.recordedJobs -
		report.refusedAtUpload -
		report.lostWithRequest -
		report.notSent;
	return report;
}

export function printReport(report: FuzzReport, rssBoundMb: number): void {
	const outcomes = Object.entries(report.outcomes)
		.sort((a, b) => b[1] - a[1])
		.map(([outcome, count]) => `${outcome} ${count}`)
		.join(', ');
	const lines = [
		`Fuzz run: ${report.files} embroidery files and ${report.artworks} hostile ` +
			`artworks, ${report.requests} requests in ${report.seconds.toFixed(0)} s`,
		`  jobs:                 ${report.jobs} (${report.recordedJobs} ` +
			`recorded; ${report.refusedAtUpload} files refused at upload with 422 or another 4xx)`,
		`  unaccounted inputs:   ${report.unaccounted} (${report.files + report.artworks} inputs ` +
			`- ${report.recordedJobs} recorded jobs - ${report.refusedAtUpload} refused ` +
			`- ${report.lostWithRequest} lost with their request - ${report.notSent} never ` +
			`sent; ${report.missingFromAcceptedRequests} were sent in requests answered 202 with fewer ` +
			`jobs than files)`,
		`  outcomes:             ${outcomes}`,
		`  crashes:              ${report.crashes} (engine_error jobs, 5xx answers, lost ` +
			`connections, sandbox exits; ${report.serverErrors} 5xx)`,
		...report.crashExamples.map((example) => `                        ${example}`),
		`  non-terminal jobs:    ${report.nonTerminal}`,
		`  peak RSS of sandbox:  ${report.peakRssMb.toFixed(0)} MB, with its engine processes ` +
			`(summed RSS every 0.5 s, or their summed high-water marks if higher; bound ${rssBoundMb} MB)`,
		`  slowest job:          ${
			report.slowest
				? `${report.slowest.seconds.toFixed(2)} s, ${report.slowest.file} ` +
					`(${report.slowest.origin}) -> ${report.slowest.outcome}`
				: 'none'
		}`,
		`  leftover temp files:  ${report.leftoverTempFiles}`,
		`  stored files:         ${report.storedFiles} (expected ${report.expectedStoredFiles}: ` +
			`every source, plus output and two previews per completed job; ${report.orphanFiles} named ` +
			`by no upload)`,
		`  429 answers:          ${report.refusedByRateLimit}`,
		`  stop after SIGTERM:   ${
			report.stopSeconds === null
				? `not within ${stopGraceSeconds} s, killed`
				: `${report.stopSeconds.toFixed(1)} s`
		}`,
	];
	console.log(lines.join('\n'));
}

/**
 * The bound the run is held to: the peak RSS of the sandbox with its engine processes must stay under
 * it. About 300 MB for the HTTP process and its inspection thread, plus up to about 600 MB per engine
 * process (two by default) while sharp decodes an artwork just under the digitiser's 50 megapixels;
 * the engine's own ceilings keep a conversion near 100 MB.
 */
export const rssBoundMb = 1536;

if (require.main === module) {
	const [files = '10000', artworks = '1000', seed = '1', perFormat = '1000'] =
		process.argv.slice(2);
	const readerRows = fuzzReaders(Number(perFormat), Number(seed));
	printReaderTable(readerRows);
	const garbageRows = fuzzGarbage(Number(perFormat), Number(seed));
	printGarbageTable(garbageRows);
	runFuzz({
		files: Number(files),
		artworks: Number(artworks),
		seed: Number(seed),
		log: (line) => console.log(line),
	})
		.then((report) => {
			printReport(report, rssBoundMb);
			const failed =
				!readersHeld(readerRows, Number(perFormat)) ||
				garbageTotal(garbageRows) > 0 ||
				report.unaccounted !== 0 ||
				report.crashes > 0 ||
				report.nonTerminal > 0 ||
				report.leftoverTempFiles > 0 ||
				report.orphanFiles > 0 ||
				report.stopSeconds === null ||
				report.peakRssMb > rssBoundMb;
			process.exitCode = failed ? 1 : 0;
		})
		.catch((error: unknown) => {
			console.error(error);
			process.exitCode = 1;
		});
}
