/**
 * A real n8n on this machine (the versions scripts/n8n.sh names: 2.x on Node 24, or 1.x on Node
 * 22), isolated in its own user
 * folder with its own ports: install this package into it, import credentials and workflows, run
 * workflows with `n8n execute`, and start/stop `n8n start` for the editor, webhooks and polling
 * triggers. Used by `npm start`, `npm run demo` and the end-to-end suite. Install n8n first with
 * `ensure_n8n` from scripts/n8n.sh, which exports N8N_BIN and N8N_NODE_BIN.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
	appendFileSync,
	closeSync,
	existsSync,
	openSync,
	readFileSync,
	realpathSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';

import type {
	BinaryReference,
	CredentialExport,
	Owner,
	WorkflowExport,
	WorkflowRun,
} from './n8n-data';
import { parseFlatted, parseRawOutput } from './n8n-data';
import { freePort } from './ports';

export * from './n8n-data';
export { freePort };

export const repoRoot = resolve(__dirname, '..');
export const packageName = 'n8n-nodes-embroidery';

export interface LocalN8nOptions {
	/** Everything n8n writes (database, binary data, logs) stays under this folder. */
	userFolder: string;
	/** Folders the "Read/Write Files from Disk" node may use. */
	fileAccess?: string[];
	/** Fixed per user folder, so imported credentials stay readable across processes. */
	encryptionKey?: string;
	/** Editor port to use when it is free (default: any free port). */
	port?: number;
	/**
	 * false: `n8n start` serves its REST API, webhooks and health checks but not the editor's pages
	 * (N8N_DISABLE_UI). It then skips copying the editor's scripts with their placeholders filled in, which
	 * each start does otherwise: 11 CPU seconds and 9 s to ready become 7 and 6 (n8n 2.41.1, 2 idle cores).
	 */
	editor?: boolean;
	/**
	 * true: a user folder with no database yet gets a copy of one this n8n version has migrated, made once and kept
	 * in the cache folder (`migratedDatabase`). On an empty database n8n's first process runs every migration
	 * (266 in 2.41.1): 4.5 s of CPU more than a later process (1.5 s in 1.123.81). For the test suites' user
	 * folders, made afresh in every run; npm start keeps its own folder across starts and migrates it itself.
	 */
	migratedDatabase?: boolean;
	env?: Record<string, string>;
}

/** The same folder as embroidery_cache_dir in scripts/node24.sh. */
export function cacheDir(): string {
	return (
		process.env.EMBROIDERY_CACHE_DIR ??
		join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'n8n-nodes-embroidery')
	);
}

/** Which n8n the harness runs, and the Node it runs on. */
export interface N8nRuntime {
	/** n8n's CLI script (node_modules/n8n/bin/n8n). */
	bin: string;
	/** The node executable that runs it (n8n 1.x needs Node 22, n8n 2.x Node 24). */
	node: string;
	version: string;
	major: number;
}

/** The n8n versions under test, as scripts/n8n.sh names them (the one place they are set). */
export function testedN8nVersions(): { current: string; previousMajor: string } {
	const script = readFileSync(join(repoRoot, 'scripts', 'n8n.sh'), 'utf8');
	const read = (name: string): string => {
		const version = new RegExp(`^${name}=([0-9.]+)$`, 'm').exec(script)?.[1];
		if (!version) throw new Error(`scripts/n8n.sh sets no ${name}`);
		return version;
	};
	return { current: read('N8N_VERSION_TESTED'), previousMajor: read('N8N1_VERSION_TESTED') };
}

/** The file scripts/node24.sh's install_into_place writes last into a complete install. */
export const installMarker = '.embroidery-install-complete';

/**
 * N8N_BIN and N8N_NODE_BIN from ensure_n8n, else the current n8n under test from the cache on this
 * process's Node, when its install is complete (an install that was stopped is never used).
 */
export function n8nRuntime(): N8nRuntime {
	const installed = join(cacheDir(), `n8n-${testedN8nVersions().current}`);
	const bin = process.env.N8N_BIN ?? join(installed, 'node_modules', 'n8n', 'bin', 'n8n');
	if (!existsSync(bin)) {
		throw new Error(
			`n8n is not installed at ${bin}. Run "npm start" once, or source scripts/node24.sh and ` +
				`scripts/n8n.sh and call ensure_n8n.`,
		);
	}
	if (process.env.N8N_BIN === undefined && !existsSync(join(installed, installMarker))) {
		throw new Error(
			`n8n in ${installed} is not known to be completely installed (no ${installMarker}). Run ` +
				`"npm start" once: it keeps a complete install of the earlier scripts and installs an unfinished one afresh.`,
		);
	}
	const packageJson = join(dirname(realpathSync(bin)), '..', 'package.json');
	const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
	return {
		bin,
		node: process.env.N8N_NODE_BIN ?? process.execPath,
		version,
		major: Number(version.split('.')[0]),
	};
}

/**
 * CPU seconds of this process's children that have ended (and been waited for) so far, from /proc: an n8n
 * CLI command or server counts here once it has exited, with the task runners it waited for. 0 without /proc.
 */
function endedChildrenCpuSeconds(): number {
	try {
		const stat = readFileSync('/proc/self/stat', 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		// cutime and cstime: fields 16 and 17 of stat(5), 14 and 15 after the name and state.
		return (Number(fields[13]) + Number(fields[14])) / 100;
	} catch {
		return 0;
	}
}

/**
 * With EMBROIDERY_N8N_BOOT_LOG=<file>, every n8n process this harness starts (a CLI command or a server) adds a
 * line there once it has ended: the test file running, the command, and its wall and CPU seconds (from
 * /proc, counted from its start to its end, so children of this process ending meanwhile count too: a
 * figure for sequential runs). How the e2e tiers' time was measured (docs/development.md).
 */
function logBoot(command: string, started: { at: number; cpu: number }): void {
	const file = process.env.EMBROIDERY_N8N_BOOT_LOG;
	if (!file) return;
	const testPath = (
		globalThis as { expect?: { getState?: () => { testPath?: string } } }
	).expect?.getState?.().testPath;
	const line = {
		// test/e2e/run.sh's and test/queue/run.sh's name for the jest run: "e2e n8n2 (real-time lane)".
		lane: process.env.EMBROIDERY_PROGRESS_LABEL,
		file: testPath ? testPath.slice(repoRoot.length + 1) : undefined,
		command,
		wallSeconds: Math.round((Date.now() - started.at) / 100) / 10,
		cpuSeconds: Math.round((endedChildrenCpuSeconds() - started.cpu) * 10) / 10,
	};
	appendFileSync(file, `${JSON.stringify(line)}\n`);
}

function bootStarted(): { at: number; cpu: number } {
	return { at: Date.now(), cpu: endedChildrenCpuSeconds() };
}

interface CommandResult {
	code: number | null;
	/** The signal that ended the process, when one did (then `code` is null). */
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

/**
 * Runs a command to its end. Its standard output goes to a file, not a pipe: n8n 1.123's `execute` exits
 * right after printing its run data, and a pipe the reader has not emptied yet keeps the rest in the
 * process, which exit drops (a clean-clone run got 0.7 MB of a preview's 1.4 MB of base64). A file takes
 * each write whole.
 */
async function runCommand(
	command: string,
	args: string[],
	options: {
		cwd: string;
		env: NodeJS.ProcessEnv;
		timeoutMs: number;
		/** Holds the process while it runs, so that its owner can end it early. */
		running?: Set<ChildProcess>;
	},
): Promise<CommandResult> {
	const outputDir = await mkdtemp(join(tmpdir(), 'embroidery-n8n-output-'));
	const outputFile = join(outputDir, 'stdout');
	const output = openSync(outputFile, 'w');
	try {
		const ended = await new Promise<Omit<CommandResult, 'stdout'>>((resolveRun, reject) => {
			const child = spawn(command, args, {
				cwd: options.cwd,
				env: options.env,
				detached: true,
				stdio: ['ignore', output, 'pipe'],
			});
			options.running?.add(child);
			let stderr = '';
			child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
			const timer = setTimeout(() => {
				killGroup(child, 'SIGKILL');
				reject(
					new Error(`${command} ${args.join(' ')} did not finish within ${options.timeoutMs} ms`),
				);
			}, options.timeoutMs);
			child.on('error', (error) => {
				clearTimeout(timer);
				reject(error);
			});
			child.on('close', (code, signal) => {
				clearTimeout(timer);
				options.running?.delete(child);
				resolveRun({ code, signal, stderr });
			});
		});
		return { ...ended, stdout: await readFile(outputFile, 'utf8') };
	} finally {
		closeSync(output);
		await rm(outputDir, { recursive: true, force: true });
	}
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined) return;
	signalGroup(child.pid, signal);
}

/** Sends a signal to a process group (n8n and its task runners); false when none of it is left. */
function signalGroup(groupId: number, signal: NodeJS.Signals | 0): boolean {
	try {
		process.kill(-groupId, signal);
		return true;
	} catch {
		return false;
	}
}

/**
 * Ends a process group: SIGTERM, then SIGKILL for whatever is left after `timeoutMs` (n8n's task
 * runners may outlive n8n itself). Resolves once no process of the group is left.
 */
export async function stopGroup(groupId: number, timeoutMs: number): Promise<void> {
	if (!signalGroup(groupId, 'SIGTERM')) return;
	const deadline = Date.now() + timeoutMs;
	while (signalGroup(groupId, 0)) {
		if (Date.now() > deadline) signalGroup(groupId, 'SIGKILL');
		await sleep(100);
	}
}

/** Stops a background process and its group (n8n's task runners): SIGTERM, then SIGKILL after `timeoutMs`. */
export async function stopProcessGroup(
	child: ChildProcess | undefined,
	timeoutMs: number,
): Promise<void> {
	if (child?.pid === undefined) return;
	const exited =
		child.exitCode !== null || child.signalCode !== null
			? Promise.resolve()
			: new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
	await stopGroup(child.pid, timeoutMs);
	await exited;
}

/** What an earlier `n8n start` of a user folder left in its pid file. */
export interface N8nPidFile {
	/** n8n's process id, which is also its process group's id. */
	pid: number;
	/** The process that started it (npm start's own). */
	startedBy: number;
	port: number;
}

/** True when the process runs; a zombie or an unknown pid counts as gone. */
function isRunning(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
	} catch {
		// No /proc (macOS): kill(pid, 0) has to do.
		return true;
	}
}

/** The command line of a process, when this system shows it (/proc). */
function commandLine(pid: number): string | undefined {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
	} catch {
		return undefined;
	}
}

export class LocalN8n {
	readonly userFolder: string;
	readonly port: number;
	readonly brokerPort: number;
	readonly encryptionKey: string;
	private readonly options: LocalN8nOptions;
	private server?: ChildProcess;
	/** The `n8n start` of another instance of this class on the same user folder that this one drives (`attach`). */
	private attached?: number;
	/** The `n8n start` that `start()` waits for, until it is ready (then it is `server`). */
	private starting?: ChildProcess;
	/** The CLI commands (imports, publishing, npm pack) running now. */
	private readonly running = new Set<ChildProcess>();
	/** Set by close(): nothing starts any more. */
	private closed = false;
	private cookie = '';
	/** The ids n8n gave the credentials imported over REST, by the ids they were given. */
	private readonly credentialIds = new Map<string, string>();
	/** Where the running `n8n start` began writing in the (appended) log file. */
	private logOffset = 0;

	private constructor(options: LocalN8nOptions, port: number, brokerPort: number) {
		this.options = options;
		this.userFolder = resolve(options.userFolder);
		this.port = port;
		this.brokerPort = brokerPort;
		this.encryptionKey = options.encryptionKey ?? 'embroidery-local-n8n-key';
	}

	static async create(options: LocalN8nOptions): Promise<LocalN8n> {
		const n8nFolder = join(resolve(options.userFolder), '.n8n');
		await mkdir(n8nFolder, { recursive: true });
		const database = join(n8nFolder, 'database.sqlite');
		if (options.migratedDatabase && !existsSync(database))
			await copyFile(await LocalN8n.migratedDatabase(), database);
		return new LocalN8n(options, await freePort(options.port), await freePort());
	}

	/**
	 * A database with every migration of this n8n version run and nothing else in it (n8n's own empty owner,
	 * personal project and roles), in the cache folder beside the install: `n8n-<version>-database/database.sqlite`.
	 * Made once, by `n8n list:workflow` on an empty user folder (n8n migrates before any command), copied out of
	 * its write-ahead log with `VACUUM INTO`, and moved into place whole: two runs that make it at once keep one.
	 * It holds nothing encrypted, so any encryption key reads it.
	 */
	static async migratedDatabase(): Promise<string> {
		const folder = join(cacheDir(), `n8n-${n8nRuntime().version}-database`);
		const file = join(folder, 'database.sqlite');
		if (existsSync(file)) return file;
		await mkdir(dirname(folder), { recursive: true });
		const staging = await mkdtemp(`${folder}.staging-`);
		try {
			const userFolder = join(staging, 'user');
			const n8n = await LocalN8n.create({ userFolder });
			await n8n.cli(['list:workflow'], setupCommandMs);
			// Loaded here: Node 22.13 and later have node:sqlite, and the scripts that import this file need not.
			const { DatabaseSync } = await import('node:sqlite');
			const migrated = new DatabaseSync(join(userFolder, '.n8n', 'database.sqlite'));
			try {
				migrated.prepare('VACUUM INTO ?').run(join(staging, 'database.sqlite'));
			} finally {
				migrated.close();
			}
			await rm(userFolder, { recursive: true, force: true });
			try {
				await rename(staging, folder);
			} catch (error) {
				// Another run moved its own into place first.
				if (!existsSync(file)) throw error;
			}
		} finally {
			await rm(staging, { recursive: true, force: true });
		}
		return file;
	}

	/**
	 * Drives the `n8n start` that `running` (this user folder's pid file, see `leftover`) names, as if this
	 * instance had started it: a later test file of the same process uses an n8n an earlier one left running.
	 */
	static async attach(options: LocalN8nOptions, running: N8nPidFile): Promise<LocalN8n> {
		const n8n = new LocalN8n(options, running.port, await freePort());
		n8n.attached = running.pid;
		return n8n;
	}

	get url(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	get logFile(): string {
		return join(this.userFolder, 'n8n.log');
	}

	/** Names the running `n8n start` of this user folder, so a later start can find a leftover. */
	get pidFile(): string {
		return join(this.userFolder, 'n8n.pid');
	}

	/**
	 * An `n8n start` an earlier process left running on this user folder (its starter ended without
	 * stopping it), or one whose starter still runs (`starterRunning`); undefined when there is none.
	 */
	static leftover(userFolder: string): (N8nPidFile & { starterRunning: boolean }) | undefined {
		const file = join(resolve(userFolder), 'n8n.pid');
		if (!existsSync(file)) return undefined;
		let recorded: N8nPidFile;
		try {
			recorded = JSON.parse(readFileSync(file, 'utf8')) as N8nPidFile;
		} catch {
			return undefined;
		}
		const command = commandLine(recorded.pid);
		const isN8n = command === undefined || command.includes('n8n');
		if (!isRunning(recorded.pid) || !isN8n) return undefined;
		return { ...recorded, starterRunning: isRunning(recorded.startedBy) };
	}

	/** Stops what `leftover()` found (n8n and its task runners) and removes its pid file. */
	static async stopLeftover(userFolder: string, leftover: N8nPidFile): Promise<void> {
		await stopGroup(leftover.pid, 15_000);
		await rm(join(resolve(userFolder), 'n8n.pid'), { force: true });
	}

	env(): NodeJS.ProcessEnv {
		// Under jest NODE_ENV is "test", which silences n8n's output and changes its defaults.
		const { NODE_ENV: _testRunnerMode, ...inherited } = process.env;
		const runtime = n8nRuntime();
		return {
			...inherited,
			// Task runners and anything else n8n starts run on the same Node as n8n.
			PATH: [dirname(runtime.node), inherited.PATH].filter(Boolean).join(delimiter),
			NODE_ENV: 'production',
			N8N_USER_FOLDER: this.userFolder,
			N8N_PORT: String(this.port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_EDITOR_BASE_URL: this.url,
			WEBHOOK_URL: `${this.url}/`,
			N8N_RUNNERS_BROKER_PORT: String(this.brokerPort),
			N8N_ENCRYPTION_KEY: this.encryptionKey,
			DB_SQLITE_POOL_SIZE: '2',
			N8N_SECURE_COOKIE: 'false',
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_DYNAMIC_BANNERS_ENABLED: 'false',
			N8N_HIRING_BANNER_ENABLED: 'false',
			N8N_RESTRICT_FILE_ACCESS_TO: (this.options.fileAccess ?? []).join(';'),
			...(this.options.editor === false ? { N8N_DISABLE_UI: 'true' } : {}),
			// Node keeps the bytecode of the modules n8n loads (about 2,000 files) between processes: every CLI
			// command and server boots about a second sooner (5.0 to 3.8 s for one `n8n execute` of 2.41.1).
			// Entries are checked against each file's content and the Node version, so one cache serves all.
			NODE_COMPILE_CACHE: inherited.NODE_COMPILE_CACHE ?? join(cacheDir(), 'node-compile-cache'),
			...this.options.env,
		};
	}

	/** Installs the built package (`npm pack` of dist + package.json) as a community package. */
	async installPackage(packageDir = repoRoot): Promise<void> {
		if (!existsSync(join(packageDir, 'dist'))) {
			throw new Error(`${packageDir}/dist is missing: run "npm run build" first.`);
		}
		const packDir = await mkdtemp(join(tmpdir(), 'embroidery-pack-'));
		try {
			const pack = await runCommand(
				'npm',
				['pack', '--json', '--ignore-scripts', '--pack-destination', packDir],
				{
					cwd: packageDir,
					env: process.env,
					timeoutMs: 120_000,
					running: this.running,
				},
			);
			if (pack.code !== 0) throw new Error(`npm pack failed:\n${pack.stderr}`);
			const [{ filename }] = JSON.parse(pack.stdout) as Array<{ filename: string }>;
			const target = join(this.userFolder, '.n8n', 'nodes', 'node_modules', packageName);
			await rm(target, { recursive: true, force: true });
			await mkdir(target, { recursive: true });
			const untar = await runCommand(
				'tar',
				['-xzf', join(packDir, filename), '-C', target, '--strip-components=1'],
				{ cwd: packDir, env: process.env, timeoutMs: 60_000 },
			);
			if (untar.code !== 0) throw new Error(`Could not unpack ${filename}:\n${untar.stderr}`);
		} finally {
			await rm(packDir, { recursive: true, force: true });
		}
	}

	/**
	 * The node types n8n loads, as `n8n export:nodes` writes them: every node of n8n and of the installed
	 * packages, with the tool variants n8n derives. Filter by `name` for one package's.
	 */
	async exportNodes(): Promise<Array<{ name: string } & Record<string, unknown>>> {
		const file = join(this.userFolder, 'exported-nodes.json');
		try {
			await this.cli(['export:nodes', `--output=${file}`], 180_000);
			return JSON.parse(await readFile(file, 'utf8')) as Array<
				{ name: string } & Record<string, unknown>
			>;
		} finally {
			await rm(file, { force: true });
		}
	}

	/**
	 * Imports credentials: into a running n8n (2.x or 1.x) this instance has signed in to, over REST as the editor
	 * creates them (no CLI process, about 4.5 s of CPU each); otherwise with `n8n import:credentials`. n8n's REST
	 * API gives a credential an id of its own: `importWorkflows` points the workflows' references at it, over
	 * REST or through the CLI. A credential of the same name and type is updated, as the CLI's import overwrites
	 * one of the same id: `npm start` imports its demo credential again at every start, and a user's n8n keeps one.
	 */
	async importCredentials(credentials: CredentialExport[]): Promise<void> {
		if (!this.signedInToRunning) {
			await this.importFile('import:credentials', 'credentials.json', credentials);
			return;
		}
		const existing = await this.rest<Array<{ id: string; name: string; type: string }>>(
			'GET',
			'/rest/credentials',
		);
		for (const { id, name, type, data } of credentials) {
			const same = existing.find(
				(credential) => credential.name === name && credential.type === type,
			);
			if (same) {
				await this.rest('PATCH', `/rest/credentials/${same.id}`, { name, type, data });
				this.credentialIds.set(id, same.id);
				continue;
			}
			const created = await this.rest<{ id: string }>('POST', '/rest/credentials', {
				name,
				type,
				data,
			});
			this.credentialIds.set(id, created.id);
		}
	}

	async importWorkflows(workflows: WorkflowExport[]): Promise<void> {
		// n8n 1.x keeps a workflow's static data (a poll trigger's state) only when its id has at most 16 characters.
		const tooLong = workflows
			.filter((workflow) => workflow.id.length > 16)
			.map((workflow) => workflow.id);
		if (tooLong.length)
			throw new Error(
				`Workflow ids longer than 16 characters lose their trigger state in n8n 1.x: ${tooLong.join(', ')}`,
			);
		if (!this.importsOverRest) {
			await this.importFile(
				'import:workflow',
				'workflows.json',
				workflows.map((workflow) => this.withRestCredentialIds(workflow)),
			);
			return;
		}
		// n8n 2.x's `POST /rest/workflows` keeps the id given, and refuses one that exists: that one is updated,
		// as the CLI's import overwrites it.
		for (const workflow of workflows) {
			const { active: _active, ...body } = this.withRestCredentialIds(workflow);
			const { exists } = await this.rest<{ exists: boolean }>(
				'GET',
				`/rest/workflows/${workflow.id}/exists`,
			);
			if (exists) await this.rest('PATCH', `/rest/workflows/${workflow.id}`, body);
			else await this.rest('POST', '/rest/workflows', body);
		}
	}

	/**
	 * Whether workflows are imported over REST: n8n 2.x (1.x's REST API drops a workflow's id) running, started or
	 * attached, with a session.
	 */
	private get importsOverRest(): boolean {
		return this.signedInToRunning && n8nRuntime().major >= 2;
	}

	/** Whether this instance drives a running n8n (started or attached) with a session. */
	private get signedInToRunning(): boolean {
		return this.cookie !== '' && this.pid !== undefined;
	}

	/** The workflow with its nodes' credential references pointed at the ids n8n gave them over REST. */
	private withRestCredentialIds(workflow: WorkflowExport): WorkflowExport {
		const nodes = workflow.nodes.map((node) => {
			if (!node.credentials) return node;
			const credentials = Object.fromEntries(
				Object.entries(node.credentials).map(([type, reference]) => [
					type,
					{ ...reference, id: this.credentialIds.get(reference.id) ?? reference.id },
				]),
			);
			return { ...node, credentials };
		});
		return { ...workflow, nodes };
	}

	/**
	 * Marks a workflow to be activated by `n8n start`: n8n 2.x publishes its current version, n8n 1.x
	 * (which has no publishing) sets it active.
	 */
	async publishWorkflow(id: string): Promise<void> {
		const args =
			n8nRuntime().major >= 2
				? ['publish:workflow', `--id=${id}`]
				: ['update:workflow', `--id=${id}`, '--active=true'];
		this.notePublished(id);
		await this.cli(args, setupCommandMs);
	}

	/**
	 * Publishes (2.x) or activates (1.x) a workflow in this running n8n over REST, as the editor's Publish button or
	 * Active switch does: both lines take `POST /rest/workflows/:id/activate` with the version to activate, so the
	 * trigger sees the activation mode 'activate' (not 'init', as for a workflow published before `n8n start`), and
	 * no CLI process (about 4.5 s of CPU) runs. Needs `signIn`; `waitForActivationOverRest` waits for it.
	 */
	async activateWorkflow(workflowId: string): Promise<void> {
		const { versionId } = await this.rest<{ versionId: string }>(
			'GET',
			`/rest/workflows/${workflowId}`,
		);
		await this.rest('POST', `/rest/workflows/${workflowId}/activate`, { versionId });
	}

	/**
	 * Waits until workflows activated with `activateWorkflow` are active: n8n 2.x activates them in the background
	 * (their publication status says when); n8n 1.x activated them before answering, and logs nothing of it.
	 */
	async waitForActivationOverRest(workflowIds: string[], timeoutMs?: number): Promise<void> {
		if (n8nRuntime().major >= 2) await this.waitForActivation(workflowIds, timeoutMs);
	}

	/**
	 * Publishes workflows in this running n8n as the editor does (`activateWorkflow`) and waits until n8n has
	 * activated them. They stay published on its user folder (`unpublishAllWorkflows` ends that).
	 */
	async activateWorkflows(workflowIds: string[], timeoutMs?: number): Promise<void> {
		for (const id of workflowIds) await this.activateWorkflow(id);
		await this.waitForActivationOverRest(workflowIds, timeoutMs);
	}

	/**
	 * Where this harness notes the workflows it published (or activated over REST) on this user folder since
	 * the last `unpublishAllWorkflows`, so that the next user of the folder knows to unpublish them first.
	 */
	get publishedFile(): string {
		return join(this.userFolder, 'published-by-harness');
	}

	/** Whether a workflow published through this harness may still be published on this user folder. */
	get hasPublished(): boolean {
		return existsSync(this.publishedFile);
	}

	private notePublished(id: string): void {
		appendFileSync(this.publishedFile, `${id}\n`);
	}

	/**
	 * Marks every workflow inactive, so the next `n8n start` on this user folder activates none: a test file
	 * that published a poll trigger leaves nothing polling the account for the files after it.
	 */
	async unpublishAllWorkflows(): Promise<void> {
		const args =
			n8nRuntime().major >= 2
				? ['unpublish:workflow', '--all']
				: ['update:workflow', '--all', '--active=false'];
		await this.cli(args, setupCommandMs);
		await rm(this.publishedFile, { force: true });
	}

	/**
	 * Runs a workflow from its Manual Trigger and returns n8n's run data, failed or not: through the REST API
	 * of this instance's running `n8n start` when there is one (sign in first), else with `n8n execute`, a
	 * process of its own that loads all of n8n (about 5 s of CPU) for the one run.
	 */
	async execute(workflowId: string, timeoutMs = 180_000): Promise<WorkflowRun> {
		if (this.pid !== undefined) return await this.executeOnServer(workflowId, timeoutMs);
		const result = await this.runN8n(['execute', `--id=${workflowId}`, '--rawOutput'], timeoutMs);
		const run = parseRawOutput(result.stdout);
		if (!run) {
			throw new Error(
				`n8n execute --id=${workflowId} printed no run data (exit ${result.code}):\n${result.stdout}\n${result.stderr}`,
			);
		}
		return run;
	}

	/**
	 * A manual run on the running `n8n start`, as the editor's "Execute workflow" button asks for it (n8n 2.x
	 * reads the workflow from its database, n8n 1.x takes it in the request), then its saved execution.
	 */
	private async executeOnServer(workflowId: string, timeoutMs: number): Promise<WorkflowRun> {
		const workflow = await this.rest<WorkflowExport>('GET', `/rest/workflows/${workflowId}`);
		const trigger = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
		if (!trigger)
			throw new Error(
				`Workflow ${workflowId} has no Manual Trigger to run it from; add one or run it by its own trigger.`,
			);
		const triggerToStartFrom = { name: trigger.name };
		const started = await this.rest<{ executionId?: string }>(
			'POST',
			`/rest/workflows/${workflowId}/run`,
			n8nRuntime().major >= 2
				? { triggerToStartFrom }
				: { workflowData: workflow, triggerToStartFrom },
		);
		if (!started.executionId)
			throw new Error(
				`n8n did not run workflow ${workflowId}; it answered ${JSON.stringify(started)}`,
			);
		return await this.waitForExecution(started.executionId, timeoutMs);
	}

	/** Waits (bounded) until an execution has ended, and returns its run data. Needs `signIn`. */
	async waitForExecution(id: string, timeoutMs = 180_000): Promise<WorkflowRun> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const execution = await this.rest<{ status: string; data: string }>(
				'GET',
				`/rest/executions/${id}`,
			);
			if (execution.status !== 'new' && execution.status !== 'running')
				return {
					status: execution.status,
					data: parseFlatted(execution.data) as WorkflowRun['data'],
				};
			if (Date.now() > deadline)
				throw new Error(
					`n8n's execution ${id} had not ended within ${timeoutMs / 1000} s; see ${this.logFile}`,
				);
			await sleep(200);
		}
	}

	/** The bytes of a binary that n8n keeps in its filesystem store. */
	async readBinary(binary: BinaryReference): Promise<Buffer> {
		if (binary.id?.startsWith('filesystem-v2:')) {
			// n8n 2.x keeps the store in .n8n/storage, n8n 1.x in .n8n/binaryData.
			const fileId = binary.id.slice('filesystem-v2:'.length);
			const stores = ['storage', 'binaryData'].map((folder) =>
				join(this.userFolder, '.n8n', folder, fileId),
			);
			return await readFile(stores.find((path) => existsSync(path)) ?? stores[0]);
		}
		if (binary.data && !binary.id) return Buffer.from(binary.data, 'base64');
		throw new Error(
			`Binary ${binary.fileName ?? ''} is stored as ${binary.id ?? binary.data}, which this helper cannot read.`,
		);
	}

	/** Starts `n8n start` in the background and waits until it answers its readiness probe. */
	async start(timeoutMs = 180_000): Promise<void> {
		if (this.pid !== undefined) throw new Error('This n8n is already running.');
		this.logOffset = existsSync(this.logFile) ? statSync(this.logFile).size : 0;
		try {
			this.server = await this.launch('n8n start', ['start'], {}, () => this.isReady(), timeoutMs, {
				onSpawn: (child) => {
					this.starting = child;
					const recorded: N8nPidFile = { pid: child.pid!, startedBy: process.pid, port: this.port };
					writeFileSync(this.pidFile, JSON.stringify(recorded));
				},
			});
		} finally {
			this.starting = undefined;
		}
	}

	/**
	 * Runs an n8n command of this instance (`start`, `worker`) in the background, in its own process group,
	 * its output appended to the instance's log, and resolves once `ready()` says so; a process that
	 * exits first or is not ready within `timeoutMs` is stopped and reported with the log's tail.
	 * The output goes to the file itself, not through a pipe: n8n outlives a parent that ends abruptly, and
	 * writing to a pipe nobody reads kept it spinning at full CPU.
	 */
	async launch(
		label: string,
		args: string[],
		extraEnv: Record<string, string>,
		ready: () => Promise<boolean>,
		timeoutMs: number,
		hooks: { onSpawn?: (child: ChildProcess) => void } = {},
	): Promise<ChildProcess> {
		if (this.closed) throw new Error(`${label} was not started: this n8n is being stopped.`);
		const log = openSync(this.logFile, 'a');
		// n8n's CLI script started by its own Node directly, so the pid is n8n's node process.
		const runtime = n8nRuntime();
		let child: ChildProcess;
		try {
			child = spawn(runtime.node, [runtime.bin, ...args], {
				cwd: this.userFolder,
				env: { ...this.env(), ...extraEnv },
				detached: true,
				stdio: ['ignore', log, log],
			});
		} finally {
			closeSync(log);
		}
		if (child.pid !== undefined) hooks.onSpawn?.(child);
		this.running.add(child);
		const started = bootStarted();
		child.once('exit', () => this.running.delete(child));
		// Its CPU counts once Node has waited for it, after 'exit'.
		child.once('close', () => logBoot(`n8n ${args[0]}`, started));
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline && !this.closed) {
			if (child.exitCode !== null)
				throw new Error(
					`${label} exited with code ${child.exitCode}; see ${this.logFile}:\n${await this.logTail()}`,
				);
			// Ended by a signal: stop() while it started, or someone else's kill.
			if (child.signalCode !== null)
				throw new Error(`${label} was ended by ${child.signalCode} before it was ready.`);
			if (await ready()) return child;
			await sleep(500);
		}
		await stopProcessGroup(child, 30_000);
		if (this.closed) throw new Error(`${label} was stopped while it started.`);
		throw new Error(
			`${label} was not ready within ${timeoutMs / 1000} s; see ${this.logFile}:\n${await this.logTail()}`,
		);
	}

	/**
	 * Waits (bounded) until n8n has activated the triggers and webhooks of these published workflows:
	 * n8n 2.41 activates them in the background, after it answers its readiness probe. Needs `signIn`.
	 */
	async waitForActivation(workflowIds: string[], timeoutMs = 120_000): Promise<void> {
		if (n8nRuntime().major < 2) return await this.waitForActivationV1(workflowIds, timeoutMs);
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const statuses = await Promise.all(
				workflowIds.map(async (id) => ({
					id,
					...(await this.rest<{
						status: string;
						triggers: Array<{ errorMessage?: string | null }>;
					}>('GET', `/rest/workflows/${id}/publication-status`)),
				})),
			);
			const failed = statuses.filter(({ status }) => status === 'failed' || status === 'partial');
			if (failed.length) {
				const reasons = failed.flatMap(({ id, triggers }) =>
					triggers.map((t) => `${id}: ${t.errorMessage ?? 'failed'}`),
				);
				throw new Error(`n8n could not activate ${reasons.join('; ')}`);
			}
			const waiting = statuses.filter(({ status }) => status !== 'published').map(({ id }) => id);
			if (waiting.length === 0) return;
			if (Date.now() > deadline)
				throw new Error(
					`n8n did not activate ${waiting.join(', ')} within ${timeoutMs / 1000} s; see ${this.logFile}`,
				);
			await sleep(1_000);
		}
	}

	/**
	 * n8n 1.x activates published workflows after its API is up and reports nothing of it over REST but
	 * errors (its list of active workflows is the database's): it logs "Activated workflow … (ID: x)".
	 */
	private async waitForActivationV1(workflowIds: string[], timeoutMs: number): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const log = existsSync(this.logFile)
				? (await readFile(this.logFile)).subarray(this.logOffset).toString('utf8')
				: '';
			const activated = (id: string) =>
				log
					.split('\n')
					.some((line) => line.includes('Activated workflow') && line.includes(`(ID: ${id})`));
			const waiting = workflowIds.filter((id) => !activated(id));
			if (waiting.length === 0) return;
			const errors = await Promise.all(
				waiting.map(async (id) => ({
					id,
					error: await this.rest<unknown>('GET', `/rest/active-workflows/error/${id}`),
				})),
			);
			const failed = errors.filter(({ error }) => typeof error === 'string' && error !== '');
			if (failed.length)
				throw new Error(
					`n8n could not activate ${failed.map(({ id, error }) => `${id}: ${String(error)}`).join('; ')}`,
				);
			if (Date.now() > deadline)
				throw new Error(
					`n8n did not activate ${waiting.join(', ')} within ${timeoutMs / 1000} s; see ${this.logFile}`,
				);
			await sleep(1_000);
		}
	}

	/** Resolves with the exit code when the running `n8n start` ends by itself or is stopped. */
	async exited(): Promise<number | null> {
		const server = this.server;
		if (!server) return null;
		if (server.exitCode !== null) return server.exitCode;
		return await new Promise((resolveExit) => server.once('exit', (code) => resolveExit(code)));
	}

	/** The process id of the running `n8n start`, which is also its process group's id. */
	get pid(): number | undefined {
		const server = this.server;
		if (server)
			return server.exitCode === null && server.signalCode === null ? server.pid : undefined;
		return this.attached !== undefined && isRunning(this.attached) ? this.attached : undefined;
	}

	/**
	 * Kills the running `n8n start` and its process group (task runners) with SIGKILL, as a power cut
	 * would: n8n saves nothing on the way out. Resolves once n8n's own process has exited.
	 */
	async crash(): Promise<void> {
		const server = this.server;
		this.server = undefined;
		if (!server || server.exitCode !== null || server.signalCode !== null) return;
		const exited = new Promise<void>((resolveExit) => server.once('exit', () => resolveExit()));
		killGroup(server, 'SIGKILL');
		await exited;
	}

	/**
	 * Stops the running `n8n start`, or the one `start()` still waits for: a jest hook that timed out during
	 * `start()` runs its file's afterAll while n8n boots, and that n8n would otherwise outlive the run.
	 */
	async stop(timeoutMs = 30_000): Promise<void> {
		const server = this.server ?? this.starting;
		const attached = this.attached;
		this.server = undefined;
		this.starting = undefined;
		this.attached = undefined;
		await stopProcessGroup(server, timeoutMs);
		if (attached !== undefined) await stopGroup(attached, timeoutMs);
		if (server || attached !== undefined) await rm(this.pidFile, { force: true });
	}

	/**
	 * Stops for good: the server, a start still waiting for it, and any CLI command running now (each with
	 * its process group); nothing starts afterwards. Safe to call again, and `force()` hurries it.
	 */
	async close(timeoutMs = 15_000): Promise<void> {
		this.closed = true;
		await Promise.all([
			this.stop(timeoutMs),
			...[...this.running].map((child) => stopProcessGroup(child, timeoutMs)),
		]);
		await rm(this.pidFile, { force: true });
	}

	/** Kills (SIGKILL) every process group this instance runs now, without waiting for n8n to shut down. */
	force(): void {
		this.closed = true;
		for (const child of [this.server, ...this.running]) if (child) killGroup(child, 'SIGKILL');
		if (this.attached !== undefined) signalGroup(this.attached, 'SIGKILL');
	}

	async logTail(lines = 40): Promise<string> {
		if (!existsSync(this.logFile)) return '';
		return (await readFile(this.logFile, 'utf8')).split('\n').slice(-lines).join('\n');
	}

	/** Creates the owner account on a fresh instance and keeps its session for `rest()`. */
	async setupOwner(owner: Owner): Promise<void> {
		await this.rest('POST', '/rest/owner/setup', owner);
	}

	async login(email: string, password: string): Promise<void> {
		await this.rest('POST', '/rest/login', { emailOrLdapLoginId: email, password });
	}

	/**
	 * Takes up the session an earlier instance of this class saved for this user folder's running n8n (`attach`)
	 * while n8n still accepts it, else logs in. n8n lets an account log in 5 times a minute: the e2e files that
	 * share one running n8n, one after another, each logged in, and the sixth within a minute was refused.
	 */
	async resumeSession(owner: Owner): Promise<void> {
		if (existsSync(this.sessionFile)) {
			this.cookie = readFileSync(this.sessionFile, 'utf8').trim();
			try {
				await this.rest('GET', '/rest/login');
				return;
			} catch {
				this.cookie = '';
			}
		}
		await this.login(owner.email, owner.password);
	}

	/** Where the session cookie of this user folder's n8n is kept for `resumeSession`. */
	get sessionFile(): string {
		return join(this.userFolder, 'harness-session');
	}

	/** Sets the owner up on a fresh instance, or logs in when an earlier run already did. */
	async signIn(owner: Owner): Promise<void> {
		try {
			await this.setupOwner(owner);
		} catch {
			await this.login(owner.email, owner.password);
		}
	}

	/**
	 * Calls n8n's internal REST API with the session cookie; throws with n8n's message on failure. n8n pings its
	 * database every 2 s and, while a ping has failed (one took over 5 s on a busy machine), answers every request
	 * 503 "Database is not ready!" before any route sees it: the request waits until n8n is ready again and is
	 * sent once more.
	 */
	async rest<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
		const activated = /^\/rest\/workflows\/([^/]+)\/activate$/.exec(path);
		if (method === 'POST' && activated) this.notePublished(activated[1]);
		const deadline = Date.now() + databaseRecoveryMs;
		for (;;) {
			const response = await fetchN8n(`${this.url}${path}`, {
				method,
				headers: {
					'content-type': 'application/json',
					'browser-id': 'embroidery-harness',
					cookie: this.cookie,
				},
				body: body === undefined ? undefined : JSON.stringify(body),
				signal: AbortSignal.timeout(restRequestMs),
			});
			const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
			if (setCookie) {
				this.cookie = setCookie.split(';')[0];
				writeFileSync(this.sessionFile, `${this.cookie}\n`, { mode: 0o600 });
			}
			const text = await response.text();
			if (response.status === 503 && text.includes(databaseNotReady) && Date.now() < deadline) {
				while (Date.now() < deadline && !(await this.isReady())) await sleep(500);
				continue;
			}
			if (!response.ok)
				throw new Error(`n8n ${method} ${path} answered ${response.status}: ${text}`);
			const parsed = text ? (JSON.parse(text) as { data?: T }) : {};
			return (parsed.data ?? parsed) as T;
		}
	}

	/** One execution's run data, read over REST (needs a logged-in `n8n start`). */
	async getExecution(id: string): Promise<WorkflowRun> {
		const execution = await this.rest<{ status: string; data: string }>(
			'GET',
			`/rest/executions/${id}`,
		);
		return { status: execution.status, data: parseFlatted(execution.data) as WorkflowRun['data'] };
	}

	/**
	 * The readiness probe, and the REST API behind it: n8n 1.x answers the probe before it mounts the API. The API
	 * is asked who is signed in (`GET /rest/login`), which it answers with or without the editor's pages (401 to
	 * this cookie-less call; `/rest/settings` is one of the pages' own).
	 */
	private async isReady(): Promise<boolean> {
		try {
			const probe = await fetchN8n(`${this.url}/healthz/readiness`, {
				signal: AbortSignal.timeout(2_000),
			});
			if (!probe.ok) return false;
			const api = await fetchN8n(`${this.url}/rest/login`, { signal: AbortSignal.timeout(2_000) });
			return api.status === 200 || api.status === 401;
		} catch {
			return false;
		}
	}

	private async importFile(command: string, fileName: string, content: unknown): Promise<void> {
		const file = join(this.userFolder, fileName);
		await writeFile(file, JSON.stringify(content, null, '\t'));
		try {
			await this.cli([command, `--input=${file}`], setupCommandMs);
		} finally {
			// Credential files hold plain API keys; n8n keeps them encrypted once imported.
			await rm(file, { force: true });
		}
	}

	private async runN8n(args: string[], timeoutMs: number): Promise<CommandResult> {
		const runtime = n8nRuntime();
		if (this.closed) throw new Error(`n8n ${args[0]} was not run: this n8n is being stopped.`);
		const started = bootStarted();
		try {
			return await runCommand(runtime.node, [runtime.bin, ...args], {
				cwd: this.userFolder,
				env: this.env(),
				timeoutMs,
				running: this.running,
			});
		} finally {
			logBoot(`n8n ${args[0]}`, started);
		}
	}

	/**
	 * Runs one of n8n's CLI commands that this harness uses to set an instance up (imports, publishing), all
	 * of which can run again with the same result. n8n 1.123's CLI was once seen ended by a signal on its way
	 * out after `import:workflow` had printed its success (in one clean-clone run of the suite): such a run is made
	 * once more, and a second one fails with the signal named. A command stopped on purpose (Ctrl-C, a stop, a
	 * kill) is not run again: after npm test's Ctrl-C, a run made again in the moment between its SIGTERM and its
	 * SIGKILL outlived the run.
	 */
	private async cli(args: string[], timeoutMs: number): Promise<string> {
		let result = await this.runN8n(args, timeoutMs);
		if (result.signal !== null && !stopSignals.has(result.signal))
			result = await this.runN8n(args, timeoutMs);
		if (result.code !== 0) {
			const ended = result.signal === null ? `exit ${result.code}` : `ended by ${result.signal}`;
			throw new Error(
				`n8n ${args.join(' ')} failed (${ended}):\n${result.stdout}\n${result.stderr}`,
			);
		}
		return result.stdout;
	}
}

/**
 * The bound on a set-up command of n8n's CLI (imports, publishing): a hang's, not a slow machine's. One takes 5-12 s
 * and 4.5-8 CPU-s alone, and past 120 s was seen beside the rest of npm test at a load average near 38.
 */
const setupCommandMs = 300_000;

/** The signals that stop a process on purpose: a command they ended is not run again. */
const stopSignals = new Set<NodeJS.Signals>(['SIGINT', 'SIGTERM', 'SIGKILL', 'SIGHUP', 'SIGQUIT']);

/** What n8n answers (503) while its database ping fails, and how long a REST call waits for it to pass. */
const databaseNotReady = 'Database is not ready';
const databaseRecoveryMs = 120_000;
/**
 * How long one REST request to n8n may take: at 60 s, a clean-clone run timed one out, most likely the sign-in
 * sent as n8n 2.41.1 started beside jest and the other lanes (each test bounds its own whole run as well).
 */
const restRequestMs = 120_000;

export async function sleep(ms: number): Promise<void> {
	await new Promise((resolveSleep) => setTimeout(resolveSleep, ms));
}

/**
 * `fetch` to an n8n, on a connection of its own (`Connection: close`): every request the harness sends to n8n goes
 * this way. n8n's server closes a kept-alive connection after Node's 5 s of idling, on Node 22 (n8n 1.x) with no
 * grace, and a client lets it idle up to 3-4 s by the hint. A harness whose event loop lags on a busy machine can
 * then send on the socket just as n8n closes it: "fetch failed ... read ECONNRESET" (the project's CI, n8n 1.123.81).
 * A fresh connection cannot meet that close; on loopback it costs a handshake.
 */
export async function fetchN8n(url: string, init: RequestInit = {}): Promise<Response> {
	const headers = new Headers(init.headers);
	headers.set('connection', 'close');
	return await fetch(url, { ...init, headers });
}
