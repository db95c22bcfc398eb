/**
 * Runs the example workflows in a real n8n against the sandbox and keeps what they produce:
 * machine files, previews and a summary per example. Used by `npm run demo` and the e2e suite.
 */
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

import type { Example } from './examples';
import {
	embroideryNodeTypes,
	examplesDir,
	hasManualTrigger,
	sandboxCredential,
	useCredential,
	withLocalValues,
} from './examples';
import type { LocalN8n, Owner, WorkflowExport, WorkflowRun } from './n8n';
import { sleep } from './n8n';
import type { SandboxAccess } from './sandbox-client';
import { createJob, sandboxRequest, setEngineFailureRate, waitForJobEnd } from './sandbox-client';

/** The editor login `npm start` creates on first run (documented in the README). */
export const demoOwner: Owner = {
	email: 'demo@example.com',
	password: 'Embroidery1',
	firstName: 'Demo',
	lastName: 'User',
};

export interface DemoFile {
	node: string;
	field: string;
	fileName: string;
	mimeType: string;
	bytes: number;
	/** Where the demo saved it. */
	path: string;
}

export interface DemoJob {
	id: string;
	workflow: string;
	status: string;
	downloadsUnlocked?: boolean;
	failureReason?: string | null;
	warnings?: unknown;
	metrics?: unknown;
}

export interface ExampleOutcome {
	example: string;
	name: string;
	status: string;
	error?: { node?: string; message: string; description?: string | null };
	jobs: DemoJob[];
	files: DemoFile[];
}

/** Folders the examples read from and write to on this machine; n8n must be allowed to use `root`. */
export function exampleFolders(root: string) {
	return {
		root,
		inbox: join(root, 'inbox'),
		/** What each example's own "Read/Write Files from Disk" nodes save, per example. */
		delivered: (slug: string) => join(root, 'delivered', slug),
		notices: join(root, 'notices'),
	};
}

export type ExampleFolders = ReturnType<typeof exampleFolders>;

/** The sample file (in examples/files) an example's Settings node reads: the name its shipped sourceFile ends in. */
function sampleFileOf(workflow: WorkflowExport): string {
	const settings = workflow.nodes.find((node) => node.name === 'Settings');
	const assignments =
		(settings?.parameters.assignments as { assignments?: Array<{ name: string; value: unknown }> })
			?.assignments ?? [];
	const shipped = assignments.find((assignment) => assignment.name === 'sourceFile')?.value;
	return typeof shipped === 'string' ? basename(shipped) : 'Star.JEF';
}

/** The examples with the demo credential and this machine's folders; copies the sample files into the inbox. */
export async function localiseExamples(
	examples: Example[],
	sandbox: SandboxAccess,
	folders: ExampleFolders,
): Promise<WorkflowExport[]> {
	await mkdir(folders.inbox, { recursive: true });
	await mkdir(folders.notices, { recursive: true });
	const samples = join(examplesDir, 'files');
	for (const file of await readdir(samples))
		await copyFile(join(samples, file), join(folders.inbox, file));
	const credential = sandboxCredential(sandbox);
	return await Promise.all(
		examples.map(async ({ slug, workflow }) => {
			await mkdir(folders.delivered(slug), { recursive: true });
			const local = withLocalValues(useCredential(workflow, credential), {
				sourceFile: join(folders.inbox, sampleFileOf(workflow)),
				deliveryFolder: folders.delivered(slug),
				noticeFolder: folders.notices,
			});
			return withAllowedFolder(local, folders.root);
		}),
	);
}

/** n8n's default folder for file nodes, which the examples' notes name. */
const defaultAllowedFolder = '(default `~/.n8n-files`)';

/** The examples' notes name the folder this n8n may use (`folder`) instead of n8n's default. */
export function withAllowedFolder(workflow: WorkflowExport, folder: string): WorkflowExport {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) => {
			const content = node.parameters.content;
			if (node.type !== 'n8n-nodes-base.stickyNote' || typeof content !== 'string') return node;
			const named = content.replaceAll(defaultAllowedFolder, `(here \`${folder}\`)`);
			return { ...node, parameters: { ...node.parameters, content: named } };
		}),
	};
}

/** Imports the demo credential and the localised examples into n8n. */
export async function importExamples(
	n8n: LocalN8n,
	examples: Example[],
	sandbox: SandboxAccess,
	folders: ExampleFolders,
): Promise<WorkflowExport[]> {
	const workflows = await localiseExamples(examples, sandbox, folders);
	await n8n.importCredentials([sandboxCredential(sandbox)]);
	await n8n.importWorkflows(workflows);
	return workflows;
}

/** Runs one example from its Manual Trigger and saves every file its Embroidery nodes produced. */
export async function runExample(
	n8n: LocalN8n,
	slug: string,
	workflow: WorkflowExport,
	outputDir: string,
): Promise<{ outcome: ExampleOutcome; run: WorkflowRun }> {
	if (!hasManualTrigger(workflow))
		throw new Error(`Example ${slug} has no Manual Trigger; run it under n8n start.`);
	const run = await n8n.execute(workflow.id);
	const error = run.data.resultData.error;
	const outcome: ExampleOutcome = {
		example: slug,
		name: workflow.name,
		status: run.status,
		error: error && {
			node: error.node?.name,
			message: error.message,
			description: error.description,
		},
		jobs: jobsOf(run, workflow),
		files: [],
	};
	const folder = join(outputDir, slug);
	await mkdir(folder, { recursive: true });
	const seen = new Set<string>();
	for (const node of workflow.nodes.filter((candidate) =>
		embroideryNodeTypes.includes(candidate.type),
	)) {
		for (const nodeRun of run.data.resultData.runData[node.name] ?? []) {
			for (const item of nodeRun.data?.main.flat() ?? []) {
				for (const [field, binary] of Object.entries(item?.binary ?? {})) {
					const key = binary.id ?? `${node.name}/${field}/${binary.fileName}`;
					if (seen.has(key)) continue;
					seen.add(key);
					const bytes = await n8n.readBinary(binary);
					const fileName = binary.fileName ?? `${field}.${binary.fileExtension ?? 'bin'}`;
					const path = join(folder, uniqueName(fileName, outcome.files));
					await writeFile(path, bytes);
					outcome.files.push({
						node: node.name,
						field,
						fileName,
						mimeType: binary.mimeType,
						bytes: bytes.length,
						path,
					});
				}
			}
		}
	}
	return { outcome, run };
}

function uniqueName(fileName: string, taken: DemoFile[]): string {
	const names = new Set(taken.map((file) => file.path.split('/').pop()));
	if (!names.has(fileName)) return fileName;
	const dot = fileName.lastIndexOf('.');
	for (let n = 2; ; n++) {
		const candidate =
			dot > 0 ? `${fileName.slice(0, dot)}-${n}${fileName.slice(dot)}` : `${fileName}-${n}`;
		if (!names.has(candidate)) return candidate;
	}
}

/** The last state of every job the run's Embroidery nodes reported. */
function jobsOf(run: WorkflowRun, workflow: WorkflowExport): DemoJob[] {
	const jobs = new Map<string, DemoJob>();
	for (const node of workflow.nodes.filter((candidate) =>
		embroideryNodeTypes.includes(candidate.type),
	)) {
		for (const nodeRun of run.data.resultData.runData[node.name] ?? []) {
			for (const item of nodeRun.data?.main.flat() ?? []) {
				const json = item?.json ?? {};
				if (typeof json.id !== 'string' || typeof json.status !== 'string') continue;
				jobs.set(json.id, {
					id: json.id,
					workflow: String(json.workflow),
					status: json.status,
					downloadsUnlocked: json.downloadsUnlocked as boolean | undefined,
					failureReason: json.failureReason as string | null | undefined,
					warnings: json.warnings,
					metrics: json.metrics,
				});
			}
		}
	}
	return [...jobs.values()];
}

export interface ExecutionSummary {
	id: string;
	workflowId: string;
	status: string;
	mode: string;
}

/** Waits (bounded) until n8n has finished `count` executions of a workflow; needs a logged-in `n8n start`. */
export async function waitForExecutions(
	n8n: LocalN8n,
	workflowId: string,
	count: number,
	timeoutMs: number,
): Promise<ExecutionSummary[]> {
	const deadline = Date.now() + timeoutMs;
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	for (;;) {
		const { results } = await n8n.rest<{ results: ExecutionSummary[] }>(
			'GET',
			`/rest/executions?filter=${filter}`,
		);
		const finished = results.filter(
			(execution) => !['new', 'running', 'waiting'].includes(execution.status),
		);
		if (finished.length >= count) return finished;
		if (Date.now() > deadline) {
			throw new Error(
				`Workflow ${workflowId} finished ${finished.length} of ${count} executions ` +
					`within ${timeoutMs / 1000} s; see ${n8n.logFile}`,
			);
		}
		await sleep(2_000);
	}
}

/**
 * Waits (bounded) until a published poll trigger has taken its baseline, the first poll on
 * activation that emits nothing: n8n saves the trigger's state into the workflow's static data.
 */
export async function waitForTriggerBaseline(
	n8n: LocalN8n,
	workflowId: string,
	timeoutMs = 90_000,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const workflow = await n8n.rest<{ staticData?: Record<string, unknown> | null }>(
			'GET',
			`/rest/workflows/${workflowId}`,
		);
		if (workflow.staticData && Object.keys(workflow.staticData).length > 0) return;
		if (Date.now() > deadline)
			throw new Error(
				`The trigger of workflow ${workflowId} saved no poll state within ${timeoutMs / 1000} s`,
			);
		await sleep(1_000);
	}
}

/** Unlocks one of the demo's own jobs through the service's v1 API, the way any client would (spends a credit). */
async function unlockOwnJob(
	sandbox: SandboxAccess,
	job: { id: string; workflow: string },
): Promise<void> {
	const response = await sandboxRequest(sandbox, 'POST', `/jobs/${job.workflow}/${job.id}/unlock`);
	if (!response.ok) throw new Error(`Unlocking job ${job.id} answered ${response.status}`);
}

/**
 * The trigger example, published under a running, signed-in `n8n start`: once the trigger has its
 * baseline, one conversion completes (the demo unlocks it) and one fails with a passing engine error; then
 * waits (bounded) for the workflow run that stores the first and reports and retries the second.
 */
export async function runTriggerExample(
	n8n: LocalN8n,
	sandbox: SandboxAccess & { origin: string; adminToken: string },
	slug: string,
	workflow: WorkflowExport,
	folders: ExampleFolders,
): Promise<{
	outcome: ExampleOutcome;
	run?: WorkflowRun;
	/** Every finished run of the workflow so far, oldest first. */
	runs: WorkflowRun[];
	jobs: { completed: string; failed: string };
}> {
	const outcome: ExampleOutcome = {
		example: slug,
		name: workflow.name,
		status: 'error',
		jobs: [],
		files: [],
	};
	const jobs = { completed: '', failed: '' };
	try {
		await waitForTriggerBaseline(n8n, workflow.id);
		const design = {
			name: 'Star.JEF',
			bytes: await readFile(join(examplesDir, 'files', 'Star.JEF')),
		};
		const endJob = async (format: string) => {
			const job = await createJob(sandbox, { workflow: 'conversion', format }, design);
			await waitForJobEnd(sandbox, job);
			return job.id;
		};
		jobs.completed = await endJob('pes');
		// The example spends no credits on jobs it did not create: the demo unlocks its own job, as a user would,
		// so the trigger stores its machine file (a poll that sees the job before this unlock stores its preview).
		await unlockOwnJob(sandbox, { id: jobs.completed, workflow: 'conversion' });
		await setEngineFailureRate(sandbox, 1);
		try {
			jobs.failed = await endJob('dst');
		} finally {
			await setEngineFailureRate(sandbox, 0);
		}
		// Both endings usually arrive in one poll; when they straddle two, the second comes a minute later. A run
		// writes its files before n8n marks it finished, so wait for finished runs that emitted both endings.
		const deadline = Date.now() + 150_000;
		// A finished run does not change: each is read once, however many rounds the wait takes.
		const read = new Map<string, Promise<WorkflowRun>>();
		let runs: WorkflowRun[] = [];
		for (;;) {
			const executions = (await waitForExecutions(n8n, workflow.id, 1, 150_000)).sort(
				(a, b) => Number(a.id) - Number(b.id),
			);
			for (const { id } of executions) if (!read.has(id)) read.set(id, n8n.getExecution(id));
			runs = await Promise.all(executions.map(async ({ id }) => await read.get(id)!));
			const emitted = new Set(runs.flatMap((each) => jobsOf(each, workflow)).map((job) => job.id));
			const both = emitted.has(jobs.completed) && emitted.has(jobs.failed);
			if (both || runs.some((each) => each.status !== 'success')) break;
			if (Date.now() > deadline)
				throw new Error(
					`The trigger workflow did not handle jobs ${jobs.completed} and ${jobs.failed} within 150 s`,
				);
			await sleep(2_000);
		}
		const failedRun = runs.find((candidate) => candidate.status !== 'success');
		const run = failedRun ?? runs[0];
		const error = run.data.resultData.error;
		outcome.status = failedRun ? failedRun.status : 'success';
		outcome.error = error && {
			node: error.node?.name,
			message: error.message,
			description: error.description,
		};
		outcome.jobs = runs.flatMap((each) => jobsOf(each, workflow));
		for (const folder of [folders.delivered(slug), folders.notices]) {
			for (const file of await readdir(folder)) {
				const path = join(folder, file);
				const bytes = await readFile(path);
				outcome.files.push({
					node: 'Store machine file / Write notice',
					field: '',
					fileName: file,
					mimeType: '',
					bytes: bytes.length,
					path,
				});
			}
		}
		return { outcome, run, runs, jobs };
	} catch (error) {
		outcome.error = { message: (error as Error).message };
		return { outcome, runs: [], jobs };
	}
}
