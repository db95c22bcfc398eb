/**
 * What `npm start` runs after scripts/start.sh has bootstrapped Node 24, n8n and the build.
 *   (default)    the sandbox and a local n8n editor with the package, a demo credential and the
 *                examples; stays in the foreground until Ctrl-C.
 *   --headless   runs the examples once with `n8n execute` (and the trigger example under
 *                `n8n start`) and writes what they produce to demo-output/.
 */
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';

import { startSandbox, type RunningSandbox } from '../sandbox';
import {
	createJob,
	exampleFolders,
	importExamples,
	runExample,
	setEngineFailureRate,
	waitForExecutions,
	waitForJobEnd,
	waitForTriggerBaseline,
	type ExampleOutcome,
} from './demo';
import { examplesDir, hasManualTrigger, readExamples } from './examples';
import { cacheDir, freePort, LocalN8n, repoRoot, type Owner } from './n8n';

/** The editor login `npm start` creates on first run (documented in the README). */
export const demoOwner: Owner = {
	email: 'demo@example.com',
	password: 'Embroidery1',
	firstName: 'Demo',
	lastName: 'User',
};

const triggerExampleId = 'embroideryExJobs1';
const shopExampleId = 'embroideryExShop1';

async function main(): Promise<void> {
	const { values } = parseArgs({ options: { headless: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
	if (values.help) {
		console.log('Usage: npm start [-- --headless]   (npm run demo = npm start -- --headless)');
		return;
	}
	if (values.headless) process.exitCode = await runHeadless();
	else process.exitCode = await runEditor();
}

/** Serves examples/files (the sample artwork) so orders can point their artworkUrl at it. */
async function serveSampleFiles(): Promise<{ server: Server; url: string }> {
	const folder = join(examplesDir, 'files');
	const server = createServer((request, response) => {
		const file = join(folder, basename(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)));
		if (!existsSync(file) || file === folder) {
			response.writeHead(404).end('Not found');
			return;
		}
		const type = file.endsWith('.svg') ? 'image/svg+xml' : 'application/octet-stream';
		response.writeHead(200, { 'content-type': type });
		createReadStream(file).pipe(response);
	});
	const port = await freePort(8788);
	await new Promise<void>((resolveListen) => server.listen(port, '127.0.0.1', resolveListen));
	return { server, url: `http://127.0.0.1:${port}` };
}

async function runEditor(): Promise<number> {
	const state = join(cacheDir(), 'local');
	const folders = exampleFolders(join(state, 'files'));
	const sandbox = await startSandbox({ port: await freePort(8787), dataDir: join(state, 'sandbox') });
	const samples = await serveSampleFiles();
	const n8n = await LocalN8n.create({
		userFolder: join(state, 'n8n'),
		fileAccess: [folders.root],
		encryptionKey: 'embroidery-local-editor',
		port: 5678,
	});
	let stopping = false;
	const stop = async () => {
		if (stopping) return;
		stopping = true;
		console.log('\nStopping n8n and the sandbox...');
		await n8n.stop();
		samples.server.close();
		await sandbox.close();
	};
	try {
		console.log('Installing the package into the local n8n and importing the examples...');
		await n8n.installPackage();
		await importExamples(n8n, await readExamples(), sandbox, folders);
		await n8n.publishWorkflow(shopExampleId);
		await n8n.publishWorkflow(triggerExampleId);
		console.log('Starting n8n (about half a minute)...');
		await n8n.start();
		try {
			await n8n.setupOwner(demoOwner);
		} catch {
			await n8n.login(demoOwner.email, demoOwner.password);
		}
	} catch (error) {
		await stop();
		throw error;
	}
	console.log(`
n8n with the Embroidery nodes is ready.
  Editor:     ${n8n.url}
  Login:      ${demoOwner.email} / ${demoOwner.password}
  Credential: "Embroidery sandbox (demo account)" (API key ${sandbox.demoKey})
  Sandbox:    ${sandbox.baseUrl}   (control API: ${sandbox.origin}/__sandbox, header X-Sandbox-Admin: ${sandbox.adminToken})
  Examples:   three "Embroidery: ..." workflows; the shop order and the job trigger are published.
  Files:      ${folders.root}   (inbox with a sample design, delivered/, notices/)
Place a shop order:
  curl -X POST ${n8n.url}/webhook/embroidery-order -H 'content-type: application/json' \\
    -d '{"orderId":"A-1001","artworkUrl":"${samples.url}/logo.svg","widthMm":90,"colourCount":3,"threadPalette":"madeira","format":"dst"}'
n8n's log: ${n8n.logFile}
Press Ctrl-C to stop.`);
	const signalled = new Promise<string>((resolveSignal) => {
		process.once('SIGINT', () => resolveSignal('SIGINT'));
		process.once('SIGTERM', () => resolveSignal('SIGTERM'));
	});
	const ended = await Promise.race([signalled, n8n.exited().then((code) => `n8n exited with code ${code}`)]);
	const crashed = !ended.startsWith('SIG');
	if (crashed) console.error(`${ended}; last lines of ${n8n.logFile}:\n${await n8n.logTail()}`);
	await stop();
	return crashed ? 1 : 0;
}

async function runHeadless(): Promise<number> {
	const outputDir = join(repoRoot, 'demo-output');
	await rm(outputDir, { recursive: true, force: true });
	await mkdir(outputDir, { recursive: true });
	const scratch = await mkdtemp(join(tmpdir(), 'embroidery-demo-'));
	const folders = exampleFolders(join(outputDir, 'files'));
	const sandbox = await startSandbox({ port: 0 });
	const n8n = await LocalN8n.create({ userFolder: join(scratch, 'n8n'), fileAccess: [folders.root] });
	const outcomes: ExampleOutcome[] = [];
	try {
		await n8n.installPackage();
		const examples = await readExamples();
		const workflows = await importExamples(n8n, examples, sandbox, folders);
		for (const [index, { slug }] of examples.entries()) {
			const workflow = workflows[index];
			if (!hasManualTrigger(workflow)) continue;
			console.log(`Running ${slug} with n8n execute...`);
			const { outcome } = await runExample(n8n, slug, workflow, outputDir);
			outcomes.push(outcome);
			report(outcome);
		}
		const trigger = examples.find(({ workflow }) => workflow.id === triggerExampleId);
		if (trigger) {
			console.log(`Running ${trigger.slug} under n8n start (waits for the trigger's next poll, up to 2 minutes)...`);
			outcomes.push(await runTriggerOnce(n8n, sandbox, trigger.slug, folders.delivered(trigger.slug), folders.notices));
			report(outcomes[outcomes.length - 1]);
		}
	} finally {
		await n8n.stop();
		await sandbox.close();
		await rm(scratch, { recursive: true, force: true });
	}
	const summary = { n8nVersion: '2.41.1', createdAt: new Date().toISOString(), examples: outcomes };
	await writeFile(join(outputDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
	const failed = outcomes.filter((outcome) => outcome.status !== 'success');
	console.log(`\n${outcomes.length - failed.length} examples succeeded, ${failed.length} failed. Results: ${outputDir}`);
	return failed.length ? 1 : 0;
}

/** Publishes the trigger example, then makes one job complete and one fail and waits for the emission. */
async function runTriggerOnce(
	n8n: LocalN8n,
	sandbox: RunningSandbox,
	slug: string,
	deliveredDir: string,
	noticesDir: string,
): Promise<ExampleOutcome> {
	const outcome: ExampleOutcome = { example: slug, name: 'trigger', status: 'error', jobs: [], files: [] };
	try {
		await n8n.publishWorkflow(triggerExampleId);
		await n8n.start();
		await n8n.setupOwner(demoOwner);
		await waitForTriggerBaseline(n8n, triggerExampleId);
		const design = { name: 'Star.JEF', bytes: await readFile(join(examplesDir, 'files', 'Star.JEF')) };
		const endJob = async (format: string) => {
			const job = await createJob(sandbox, { workflow: 'conversion', format }, design);
			const detail = await waitForJobEnd(sandbox, job);
			outcome.jobs.push({ ...job, status: String(detail.status), failureReason: detail.failureReason as string | null });
		};
		await endJob('pes');
		// An engine error is a passing failure: the example writes a notice and retries the job.
		await setEngineFailureRate(sandbox, 1);
		try {
			await endJob('dst');
		} finally {
			await setEngineFailureRate(sandbox, 0);
		}
		const [execution] = await waitForExecutions(n8n, triggerExampleId, 1, 150_000);
		outcome.status = execution.status;
		outcome.name = 'Embroidery: store finished jobs, report and retry failed ones';
		for (const folder of [deliveredDir, noticesDir]) {
			for (const file of await readdir(folder)) {
				const bytes = await readFile(join(folder, file));
				outcome.files.push({ node: 'trigger workflow', field: '', fileName: file, mimeType: '', bytes: bytes.length, path: join(folder, file) });
			}
		}
	} catch (error) {
		outcome.error = { message: (error as Error).message };
	} finally {
		await n8n.stop();
	}
	return outcome;
}

function report(outcome: ExampleOutcome): void {
	const files = outcome.files.map((file) => `${basename(file.path)} (${file.bytes} B)`).join(', ');
	if (outcome.status === 'success') console.log(`  ok: ${outcome.jobs.length} job(s); files: ${files || 'none'}`);
	else console.log(`  FAILED: ${outcome.error?.node ? `${outcome.error.node}: ` : ''}${outcome.error?.message}`);
}

main().catch((error: Error) => {
	console.error(error.message);
	process.exit(1);
});
