/**
 * Screenshots of the nodes and an example workflow in the real n8n editor, for the README:
 * starts the sandbox and a throwaway n8n 2.41.1 with the package and the examples, then drives
 * Debian's headless Chromium with playwright-core.
 *   npx tsx scripts/screenshots.ts            (after npm run build; writes docs/*.png)
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium, type Page } from 'playwright-core';

import { startSandbox } from '../sandbox';
import { demoOwner, exampleFolders, importExamples } from './demo';
import { exampleIds, examplesDir, readExamples } from './examples';
import { LocalN8n, repoRoot, type WorkflowExport } from './n8n';
import { createJob, waitForJobEnd, type SandboxAccess } from './sandbox-client';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const docsDir = join(repoRoot, 'docs');

async function signInThroughForm(page: Page, url: string): Promise<void> {
	await page.goto(`${url}/signin`);
	await page.getByLabel(/email/i).fill(demoOwner.email);
	await page.getByLabel(/password/i).fill(demoOwner.password);
	await page.getByRole('button', { name: /sign in/i }).click();
	await page.waitForURL((target) => !target.pathname.startsWith('/signin'), { timeout: 60_000 });
}

async function openWorkflow(page: Page, url: string, id: string): Promise<void> {
	await page.goto(`${url}/workflow/${id}`);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: 60_000 });
	await page.keyboard.press('Escape');
	await page.waitForTimeout(1_500);
}

/**
 * A few finished jobs for the Job picker to list: a conversion with a warning, a digitising job,
 * another conversion.
 */
async function recentJobs(
	sandbox: SandboxAccess,
): Promise<Array<{ id: string; workflow: string }>> {
	const design = await readFile(join(examplesDir, 'files', 'Star.JEF'));
	const logo = await readFile(join(examplesDir, 'files', 'logo.svg'));
	const jobs = [
		await createJob(
			sandbox,
			{ workflow: 'conversion', format: 'dst' },
			{ name: 'Star.JEF', bytes: design },
		),
		await createJob(
			sandbox,
			{ workflow: 'digitising', format: 'pes', width_mm: '80', colour_count: '3' },
			{ name: 'logo.svg', bytes: logo },
		),
		await createJob(
			sandbox,
			{ workflow: 'conversion', format: 'exp' },
			{ name: 'team-badge.jef', bytes: design },
		),
	];
	for (const job of jobs) await waitForJobEnd(sandbox, job);
	return jobs;
}

/** Manual Trigger -> Embroidery (version 2) Get of the given job, with the Job picker in From List mode. */
function checkJobWorkflow(
	job: { id: string; workflow: string },
	sandbox: SandboxAccess,
): WorkflowExport {
	const embroidery = {
		type: 'n8n-nodes-embroidery.embroidery',
		typeVersion: 2,
		credentials: {
			embroideryApi: { id: 'embroideryDemo01', name: 'Embroidery sandbox (demo account)' },
		},
	};
	return {
		id: 'embroideryShotJob1',
		name: 'Check a job',
		active: false,
		nodes: [
			{
				id: 'shot-start',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				parameters: {},
				position: [0, 0],
			},
			{
				...embroidery,
				id: 'shot-get',
				name: 'Get job',
				position: [260, 0],
				parameters: {
					resource: 'job',
					operation: 'get',
					jobId: {
						__rl: true,
						mode: 'list',
						value: job.id,
						cachedResultName: 'team-badge.jef → EXP · conversion · completed',
						cachedResultUrl: `${sandbox.baseUrl}/jobs/${job.workflow}/${job.id}`,
					},
					workflow: 'detect',
				},
			},
		],
		connections: { Start: { main: [[{ node: 'Get job', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

async function main(): Promise<void> {
	const scratch = await mkdtemp(join(tmpdir(), 'embroidery-screenshots-'));
	const sandbox = await startSandbox({ port: 0 });
	const folders = exampleFolders(join(scratch, 'files'));
	const n8n = await LocalN8n.create({
		userFolder: join(scratch, 'n8n'),
		fileAccess: [folders.root],
	});
	const browser = await chromium.launchPersistentContext(join(scratch, 'chromium-profile'), {
		executablePath: chromiumPath,
		headless: true,
		viewport: { width: 1600, height: 900 },
		args: [
			'--headless',
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
		],
	});
	try {
		await n8n.installPackage();
		await importExamples(n8n, await readExamples(), sandbox, folders);
		const jobs = await recentJobs(sandbox);
		await n8n.importWorkflows([checkJobWorkflow(jobs[2], sandbox)]);
		await n8n.start();
		await n8n.signIn(demoOwner);
		const page = browser.pages()[0] ?? (await browser.newPage());
		await signInThroughForm(page, n8n.url);

		await openWorkflow(page, n8n.url, exampleIds.shopOrder);
		await page.screenshot({ path: join(docsDir, 'example-shop-order.png') });

		await openWorkflow(page, n8n.url, exampleIds.conversion);
		await page.screenshot({ path: join(docsDir, 'example-convert-file.png') });

		await openWorkflow(page, n8n.url, exampleIds.shopOrder);
		await page.locator('[data-test-id="canvas-node"]', { hasText: 'Digitise artwork' }).dblclick();
		await page.locator('[data-test-id="ndv"]').waitFor({ timeout: 30_000 });
		await page.waitForTimeout(2_000);
		await page.screenshot({ path: join(docsDir, 'node-create-job.png') });
		await page.keyboard.press('Escape');

		await openWorkflow(page, n8n.url, exampleIds.finishedJobs);
		await page.locator('[data-test-id="canvas-node"]', { hasText: 'Job finished' }).dblclick();
		await page.locator('[data-test-id="ndv"]').waitFor({ timeout: 30_000 });
		await page.waitForTimeout(2_000);
		await page.screenshot({ path: join(docsDir, 'trigger-node.png') });
		await page.keyboard.press('Escape');

		// The executed Get node first (its output pane shows the hints), then its Job picker opened.
		await openWorkflow(page, n8n.url, 'embroideryShotJob1');
		await page.locator('[data-test-id="execute-workflow-button"]').click();
		await page
			.locator('[data-test-id="canvas-node"]', { hasText: 'Get job' })
			.locator('[data-test-id="canvas-node-status-success"]')
			.waitFor({ timeout: 60_000 });
		await page.locator('[data-test-id="canvas-node"]', { hasText: 'Get job' }).dblclick();
		await page.locator('[data-test-id="ndv"]').waitFor({ timeout: 30_000 });
		await page
			.getByText(/has \d+ warnings?:/)
			.first()
			.waitFor({ timeout: 30_000 });
		await page.waitForTimeout(1_000);
		await page.screenshot({ path: join(docsDir, 'job-hints.png') });

		await page
			.locator('[data-test-id="resource-locator-jobId"] [data-test-id="rlc-input"]')
			.first()
			.click();
		const listed = page.locator('[data-test-id="rlc-item"]');
		const failed = page.locator('[data-test-id="rlc-error-container"]');
		await listed.or(failed).first().waitFor({ timeout: 30_000 });
		if (await failed.isVisible())
			throw new Error(`The Job picker showed an error: ${await failed.innerText()}`);
		await page.waitForFunction(
			() => document.querySelectorAll('[data-test-id="rlc-item"]').length >= 3,
			undefined,
			{ timeout: 30_000 },
		);
		await page.waitForTimeout(1_000);
		await page.screenshot({ path: join(docsDir, 'job-picker.png') });
		console.log(`Screenshots written to ${docsDir}`);
	} finally {
		await browser.close();
		await n8n.stop();
		await sandbox.close();
		await rm(scratch, { recursive: true, force: true });
	}
}

main().catch((error: Error) => {
	console.error(error);
	process.exit(1);
});
