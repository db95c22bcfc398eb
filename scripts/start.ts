/**
 * What `npm start` runs after scripts/start.sh has bootstrapped Node 24, n8n and the build.
 *   (default)    the sandbox and a local n8n editor with the package, a demo credential and the
 *                examples; stays in the foreground until Ctrl-C (or SIGTERM, SIGHUP), then stops all
 *                it started. --port=<n> picks the editor's port (default 5678).
 *   --headless   runs the examples once in one `n8n start` (over its REST API, as the editor runs and
 *                publishes them) and writes what they produce to demo-output/.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';

import { startSandbox, type RunningSandbox } from '../sandbox';
import {
	controlAccessFile,
	removeControlAccess,
	writeControlAccess,
} from '../sandbox/controlAccess';
import {
	demoOwner,
	exampleFolders,
	type ExampleFolders,
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
const conversionSlug = 'convert-embroidery-file';

/** Phases 1 to 4 (Node, dependencies, n8n, build) are scripts/start.sh's. */
const phaseCount = 7;

/**
 * How long n8n may take to start, and then to activate the published examples, before npm start gives up on it.
 * On 2 idle cores it is ready in about 30 s. Beside jest (npm test runs npm start there) a first start and its stop
 * took 135-198 s, and one start gave up, most likely at LocalN8n's default of 180 s: a busy machine is slow, not
 * broken.
 */
const n8nLimitMs = 600_000;

/**
 * Runs one phase of the start-up and says how long it took: "[5/7] Starting the sandbox... 1.2 s". One still running
 * after a minute says so once a minute, with how busy the machine is and where to look (`whereToLook`): a terminal
 * that shows nothing for minutes looks stuck.
 */
async function phase<T>(
	number: number,
	label: string,
	work: () => Promise<T>,
	whereToLook?: string,
): Promise<T> {
	const started = Date.now();
	const seconds = () => (Date.now() - started) / 1000;
	console.log(`[${number}/${phaseCount}] ${label}...`);
	const timer = setInterval(() => {
		console.log(
			`      still working after ${Math.round(seconds())} s (load average ${loadavg()[0].toFixed(1)} on ` +
				`${availableParallelism()} cores)${whereToLook ? `; ${whereToLook}` : ''}`,
		);
	}, 60_000);
	timer.unref();
	try {
		const result = await work();
		console.log(`      done in ${seconds().toFixed(1)} s`);
		return result;
	} finally {
		clearInterval(timer);
	}
}

/** Where `npm start` keeps the sandbox's and n8n's state and the example files (EMBROIDERY_LOCAL_DIR moves it). */
function localDir(): string {
	return process.env.EMBROIDERY_LOCAL_DIR ?? join(cacheDir(), 'local');
}

async function main(): Promise<number> {
	const { values } = parseArgs({
		options: {
			headless: { type: 'boolean' },
			port: { type: 'string' },
			help: { type: 'boolean', short: 'h' },
		},
	});
	if (values.help) {
		console.log(
			'Usage: npm start [-- --port=5678] [-- --headless]   (npm run demo = npm start -- --headless)',
		);
		return 0;
	}
	if (values.headless) return await runHeadless();
	const port = Number(values.port ?? 5678);
	if (!Number.isInteger(port) || port < 1 || port > 65535)
		throw new Error(`--port=${values.port} is not a port number (1 to 65535).`);
	return await runEditor(port);
}

/**
 * Stops whatever `stop` ends once the first of SIGINT, SIGTERM or SIGHUP arrives; a signal a second or
 * more later kills n8n at once. Registered before anything starts, so a signal during set-up leaves
 * nothing behind, and kept registered, so no later signal ends this process before n8n has ended.
 */
function onStopSignals(force: () => void): Promise<string> {
	let firstAt = 0;
	return new Promise((resolveSignal) => {
		for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
			process.on(signal, () => {
				if (!firstAt) {
					firstAt = Date.now();
					resolveSignal(signal);
					// One Ctrl-C under npm arrives twice: the terminal's and the copy npm passes on.
				} else if (Date.now() - firstAt > 1_000) {
					console.log('Stopping at once: killing n8n...');
					force();
				}
			});
		}
	});
}

async function runEditor(preferredPort: number): Promise<number> {
	// A closed terminal (SIGHUP) makes writes to it fail; the shutdown must go on regardless.
	process.stdout.on('error', () => undefined);
	process.stderr.on('error', () => undefined);
	let n8n: LocalN8n | undefined;
	const signalled = onStopSignals(() => n8n?.force());
	const state = localDir();
	const userFolder = join(state, 'n8n');
	const leftover = LocalN8n.leftover(userFolder);
	if (leftover?.starterRunning) {
		console.error(
			`npm start is already running with ${state} (process ${leftover.startedBy}, n8n on port ` +
				`${leftover.port}). Stop it first: Ctrl-C in its terminal, or kill ${leftover.startedBy}.`,
		);
		return 1;
	}
	if (leftover) {
		console.log(
			`An earlier npm start left its n8n running (process ${leftover.pid}, port ${leftover.port}, ` +
				`data folder ${userFolder}); stopping it...`,
		);
		await LocalN8n.stopLeftover(userFolder, leftover);
	}
	const folders = exampleFolders(join(state, 'files'));
	const sandboxDir = join(state, 'sandbox');
	let sandbox: RunningSandbox | undefined;
	let samples: Awaited<ReturnType<typeof serveSampleFiles>> | undefined;
	let stopping: Promise<void> | undefined;
	const stop = async () =>
		(stopping ??= (async () => {
			console.log('\nStopping n8n and the sandbox...');
			await n8n?.close();
			samples?.server.close();
			removeControlAccess(sandboxDir);
			await sandbox?.close();
			console.log('Stopped.');
		})());
	const setup = (async () => {
		sandbox = await phase(5, 'Starting the sandbox service', async () => {
			const started = await startSandbox({ port: await freePort(8787), dataDir: sandboxDir });
			writeControlAccess(sandboxDir, started);
			return started;
		});
		samples = await serveSampleFiles(8788);
		n8n = await LocalN8n.create({
			userFolder,
			fileAccess: [folders.root],
			encryptionKey: 'embroidery-local-editor',
			port: preferredPort,
		});
		if (n8n.port !== preferredPort)
			console.log(
				`      Port ${preferredPort} is taken by another program, so n8n uses port ${n8n.port}. ` +
					`To see which program: ss -ltnp 'sport = :${preferredPort}'`,
			);
		const local = n8n;
		const running = sandbox;
		await phase(6, 'Installing the package into n8n', async () => await local.installPackage());
		// The examples go in once n8n runs, over its REST API as the editor saves and publishes a workflow: each n8n
		// CLI command (import, publish) is a process that loads all of n8n, and the four of them took about 20 s of
		// CPU, 15 s before the editor was ready on 2 cores.
		await phase(
			7,
			'Starting n8n and importing the examples (about half a minute)',
			async () => {
				await local.start(n8nLimitMs);
				await local.signIn(demoOwner);
				await importExamples(local, await readExamples(), running, folders);
				await local.activateWorkflows([shopExampleId, triggerExampleId], n8nLimitMs);
			},
			`n8n's log: ${local.logFile}`,
		);
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
	const ready = { n8n: n8n!, sandbox: sandbox!, samples: samples! };
	console.log(readyMessage(ready.n8n, ready.sandbox, ready.samples.url, folders));
	const ended = await Promise.race([
		signalled,
		ready.n8n.exited().then((code) => `n8n exited with code ${code}`),
	]);
	const crashed = !ended.startsWith('SIG');
	if (crashed)
		console.error(`${ended}; last lines of ${ready.n8n.logFile}:\n${await ready.n8n.logTail()}`);
	await stop();
	return crashed ? 1 : 0;
}

/** What a newcomer needs once n8n is up: where to click first, where their own files go, and what to keep. */
function readyMessage(
	n8n: LocalN8n,
	sandbox: RunningSandbox,
	samplesUrl: string,
	folders: ExampleFolders,
): string {
	const convert = `${n8n.url}/workflow/${exampleIds.conversion}`;
	return (
		`
n8n with the Embroidery nodes is ready.
  Editor:      ${n8n.url}   (login ${demoOwner.email} / ${demoOwner.password})
  Try first:   ${convert}
               the "convert a machine file" example: click "Execute workflow", then open its nodes to see
               the job, the machine file and its preview.
  Your files:  n8n may read and write only ${folders.root}.
               To convert your own file, copy it into ${folders.inbox} and set sourceFile in the
               example's Settings node to its path; the result lands in ${folders.delivered(conversionSlug)}.
  Careful:     n8n saves every change to a workflow as you make it, and npm start imports the examples
               afresh each time: duplicate an example (its ... menu > Duplicate) before you change it.
  Credential:  "Embroidery sandbox (demo account)" (API key ${sandbox.demoKey})
  Your keys:   ${sandbox.signInLink()}
               a one-time sign-in link to the service's own pages (API keys, usage, recent jobs)
               for the demo account, valid for 15 minutes; a new one at any time: npm run sign-in-link
  Sandbox:     ${sandbox.baseUrl}   (its control API's address and token: ` +
		`${controlAccessFile(sandbox.dataDir)})
  Examples:    five "Embroidery: ..." workflows; the shop order and the job trigger are published.
Place a shop order (signed with the local webhook secret, as the example requires):
  body='{"orderId":"A-1001","artworkUrl":"${samplesUrl}/logo.svg","widthMm":90,"colourCount` +
		`":3,"threadPalette":"madeira","format":"dst"}'
  curl -X POST ${n8n.url}/webhook/embroidery-order -H 'content-type: application/json' \\
    -H "X-Shop-Signature: $(printf '%s' "$body" | openssl dgst -sha256 ` +
		`-hmac ${localShop.webhookSecret} -binary | base64)" -d "$body"
n8n's log: ${n8n.logFile}
Press Ctrl-C to stop.`
	);
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
	void onStopSignals(() => n8n.force()).then(async () => {
		await n8n.close();
		await sandbox.close();
		process.exit(130);
	});
	try {
		await n8n.installPackage();
		// One n8n start runs them all, over its REST API as the editor does: the examples imported and each manual
		// one run as "Execute workflow" runs it, with no n8n CLI process (each loads all of n8n, about 5 s of CPU).
		console.log('Starting n8n...');
		await n8n.start();
		await n8n.signIn(demoOwner);
		const examples = await readExamples();
		const workflows = await importExamples(n8n, examples, sandbox, folders);
		for (const [index, { slug }] of examples.entries()) {
			const workflow = workflows[index];
			if (!hasManualTrigger(workflow)) continue;
			console.log(`Running ${slug}...`);
			const { outcome } = await runExample(n8n, slug, workflow, outputDir);
			outcomes.push(outcome);
			report(outcome);
		}
		const trigger = examples.findIndex(({ workflow }) => workflow.id === triggerExampleId);
		if (trigger >= 0) {
			console.log(
				`Running ${examples[trigger].slug}, published (waits for the trigger's next poll, up to 2 minutes)...`,
			);
			await n8n.activateWorkflows([triggerExampleId]);
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

main().then(
	// Exits even when a server socket or timer was left behind: every process it started has ended.
	(code) => process.exit(code),
	(error: Error) => {
		console.error(error.message);
		process.exit(1);
	},
);
