/**
 * Screenshots of the nodes and an example workflow in the real n8n editor, for the README:
 * starts the sandbox and a throwaway n8n 2.41.1 with the package and the examples, then drives
 * Debian's headless Chromium with playwright-core.
 *   npx tsx scripts/screenshots.ts            (after npm run build; writes docs/*.png)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium, type Page } from 'playwright-core';

import { startSandbox } from '../sandbox';
import { demoOwner, exampleFolders, importExamples } from './demo';
import { readExamples } from './examples';
import { LocalN8n, repoRoot } from './n8n';

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

async function main(): Promise<void> {
	const scratch = await mkdtemp(join(tmpdir(), 'embroidery-screenshots-'));
	const sandbox = await startSandbox({ port: 0 });
	const folders = exampleFolders(join(scratch, 'files'));
	const n8n = await LocalN8n.create({ userFolder: join(scratch, 'n8n'), fileAccess: [folders.root] });
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
		await n8n.start();
		await n8n.signIn(demoOwner);
		const page = browser.pages()[0] ?? (await browser.newPage());
		await signInThroughForm(page, n8n.url);

		await openWorkflow(page, n8n.url, 'embroideryExShop');
		await page.screenshot({ path: join(docsDir, 'example-shop-order.png') });

		await openWorkflow(page, n8n.url, 'embroideryExConv');
		await page.screenshot({ path: join(docsDir, 'example-convert-file.png') });

		await openWorkflow(page, n8n.url, 'embroideryExShop');
		await page.locator('[data-test-id="canvas-node"]', { hasText: 'Digitise artwork' }).dblclick();
		await page.locator('[data-test-id="ndv"]').waitFor({ timeout: 30_000 });
		await page.waitForTimeout(2_000);
		await page.screenshot({ path: join(docsDir, 'node-create-job.png') });
		await page.keyboard.press('Escape');

		await openWorkflow(page, n8n.url, 'embroideryExJobs');
		await page.locator('[data-test-id="canvas-node"]', { hasText: 'Job finished' }).dblclick();
		await page.locator('[data-test-id="ndv"]').waitFor({ timeout: 30_000 });
		await page.waitForTimeout(2_000);
		await page.screenshot({ path: join(docsDir, 'trigger-node.png') });
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
