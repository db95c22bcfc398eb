/**
 * What `npm start` runs after scripts/start.sh has bootstrapped Node 24, n8n and the build.
 *   (default)    the sandbox and a local n8n editor with the package, a demo credential and the
 *                examples; stays in the foreground until Ctrl-C.
 *   --headless   runs the examples once with `n8n execute` (and the trigger example under
 *                `n8n start`) and writes what they produce to demo-output/.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';

import { startSandbox } from '../sandbox';
import {
	demoOwner,
	exampleFolders,
	importExamples,
	runExample,
	runTriggerExample,
	type ExampleOutcome,
} from './demo';
import {
	exampleIds,
	hasManualTrigger,
	localShop,
	readExamples,
	serveSampleFiles,
} from './examples';
import { cacheDir, freePort, LocalN8n, n8nRuntime, repoRoot } from './n8n';

const triggerExampleId = exampleIds.finishedJobs;
const shopExampleId = exampleIds.shopOrder;

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: { headless: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
	});
	if (values.help) {
		console.log('Usage: npm start [-- --headless]   (npm run demo = npm start -- --headless)');
		return;
	}
	if (values.headless) process.exitCode = await runHeadless();
	else process.exitCode = await runEditor();
}

async function runEditor(): Promise<number> {
	const state = join(cacheDir(), 'local');
	const folders = exampleFolders(join(state, 'files'));
	const sandbox = await startSandbox({
		port: await freePort(8787),
		dataDir: join(state, 'sandbox'),
	});
	const samples = await serveSampleFiles(8788);
	const n8n = await LocalN8n.create({
		userFolder: join(state, 'n8n'),
		fileAccess: [folders.root],
		encryptionKey: 'embroidery-local-editor',
		port: 5678,
	});
	let stopping: Promise<void> | undefined;
	const stop = async () =>
		(stopping ??= (async () => {
			console.log('\nStopping n8n and the sandbox...');
			await n8n.stop();
			samples.server.close();
			await sandbox.close();
		})());
	// Registered before anything starts, so Ctrl-C during setup leaves no n8n behind either.
	const signalled = new Promise<string>((resolveSignal) => {
		process.once('SIGINT', () => resolveSignal('SIGINT'));
		process.once('SIGTERM', () => resolveSignal('SIGTERM'));
	});
	const setup = (async () => {
		console.log('Installing the package into the local n8n and importing the examples...');
		await n8n.installPackage();
		await importExamples(n8n, await readExamples(), sandbox, folders);
		await n8n.publishWorkflow(shopExampleId);
		await n8n.publishWorkflow(triggerExampleId);
		console.log('Starting n8n (about half a minute)...');
		await n8n.start();
		await n8n.signIn(demoOwner);
		await n8n.waitForActivation([shopExampleId, triggerExampleId]);
		return 'ready';
	})();
	setup.catch(() => undefined);
	try {
		if ((await Promise.race([setup, signalled])) !== 'ready') {
			await stop();
			return 130;
		}
	} catch (error) {
		await stop();
		throw error;
	}
	console.log(
		`
n8n with the Embroidery nodes is ready.
  Editor:     ${n8n.url}
  Login:      ${demoOwner.email} / ${demoOwner.password}
  Credential: "Embroidery sandbox (demo account)" (API key ${sandbox.demoKey})
  Sandbox:    ${sandbox.baseUrl}   (control API: ${sandbox.origin}/__sandbox, header ` +
			`X-Sandbox-Admin: ${sandbox.adminToken})
  Examples:   five "Embroidery: ..." workflows; the shop order and the job trigger are published.
  Files:      ${folders.root}   (inbox with a sample design, delivered/, notices/)
Place a shop order (signed with the local webhook secret, as the example requires):
  body='{"orderId":"A-1001","artworkUrl":"${samples.url}/logo.svg","widthMm":90,"colourCount` +
			`":3,"threadPalette":"madeira","format":"dst"}'
  curl -X POST ${n8n.url}/webhook/embroidery-order -H 'content-type: application/json' \\
    -H "X-Shop-Signature: $(printf '%s' "$body" | openssl dgst -sha256 ` +
			`-hmac ${localShop.webhookSecret} -binary | base64)" -d "$body"
n8n's log: ${n8n.logFile}
Press Ctrl-C to stop.`,
	);
	const ended = await Promise.race([
		signalled,
		n8n.exited().then((code) => `n8n exited with code ${code}`),
	]);
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
	const n8n = await LocalN8n.create({
		userFolder: join(scratch, 'n8n'),
		fileAccess: [folders.root],
	});
	const outcomes: ExampleOutcome[] = [];
	const interrupt = () => void n8n.stop().finally(() => process.exit(130));
	process.once('SIGINT', interrupt);
	process.once('SIGTERM', interrupt);
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
		const trigger = examples.findIndex(({ workflow }) => workflow.id === triggerExampleId);
		if (trigger >= 0) {
			console.log(
				`Running ${examples[trigger].slug} under n8n start (waits for the trigger's next poll, up to 2 minutes)...`,
			);
			await n8n.publishWorkflow(triggerExampleId);
			await n8n.start();
			await n8n.signIn(demoOwner);
			await n8n.waitForActivation([triggerExampleId]);
			const { outcome } = await runTriggerExample(
				n8n,
				sandbox,
				examples[trigger].slug,
				workflows[trigger],
				folders,
			);
			outcomes.push(outcome);
			report(outcome);
		}
	} finally {
		await n8n.stop();
		await sandbox.close();
		await rm(scratch, { recursive: true, force: true });
	}
	const summary = {
		n8nVersion: n8nRuntime().version,
		createdAt: new Date().toISOString(),
		examples: outcomes,
	};
	await writeFile(join(outputDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
	const failed = outcomes.filter((outcome) => outcome.status !== 'success');
	console.log(
		`\n${outcomes.length - failed.length} examples succeeded, ${failed.length} failed. Results: ${outputDir}`,
	);
	return failed.length ? 1 : 0;
}

function report(outcome: ExampleOutcome): void {
	const files = outcome.files.map((file) => `${basename(file.path)} (${file.bytes} B)`).join(', ');
	if (outcome.status === 'success')
		console.log(`  ok: ${outcome.jobs.length} job(s); files: ${files || 'none'}`);
	else
		console.log(
			`  FAILED: ${outcome.error?.node ? `${outcome.error.node}: ` : ''}${outcome.error?.message}`,
		);
}

main().catch((error: Error) => {
	console.error(error.message);
	process.exit(1);
});
