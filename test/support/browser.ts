/**
 * Debian's headless Chromium, driven by playwright-core, for the browser tests. `launchBrowser()` installs
 * the `chromium` package when it is missing (scripts/chromium.sh) and starts it with the flags this
 * machine needs; the caller closes it. Each launch gets a fresh profile folder (playwright makes one per
 * launch and removes it at close), so no cookie or permission carries over between runs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

import { chromium, type Browser, type Locator } from 'playwright-core';

const repoRoot = path.resolve(__dirname, '../..');

/** The browser binary: CHROMIUM_PATH, or Debian's. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * No GPU, no sandbox (root in a container), and nothing that talks to the network behind the test's back;
 * exported for launches that need a persistent profile (launchPersistentContext) rather than launchBrowser().
 */
export const chromiumFlags = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

export async function launchBrowser(): Promise<Browser> {
	if (!existsSync(chromiumPath)) {
		execFileSync('bash', ['-c', '. scripts/chromium.sh && ensure_chromium'], {
			cwd: repoRoot,
			stdio: ['ignore', 'inherit', 'inherit'],
		});
	}
	// playwright adds --headless and a new --user-data-dir itself (it refuses one in `args`).
	return await chromium.launch({
		executablePath: chromiumPath,
		headless: true,
		args: chromiumFlags,
	});
}

/** A Chromium for the test file: launched before its tests, closed after them; call the handle inside a test. */
export function useBrowser(): () => Browser {
	let browser: Browser | undefined;
	beforeAll(async () => {
		browser = await launchBrowser();
	});
	afterAll(async () => {
		await browser?.close();
	});
	return () => {
		if (!browser) throw new Error('The browser has not started: use it inside a test or a hook');
		return browser;
	};
}

/**
 * Clicks a link to another page and waits until that page has loaded. A click returns once the navigation has
 * begun, when the new page may not have its content yet: reading it then found an empty table once (a
 * clean-clone run, both cores busy).
 */
export async function followLink(link: Locator): Promise<void> {
	const page = link.page();
	const href = await link.getAttribute('href');
	if (href === null) throw new Error(`${link} has no href`);
	const target = new URL(href, page.url());
	if (target.href === page.url())
		throw new Error(`${link} leads to the page already open (${target.href})`);
	await Promise.all([page.waitForURL(target.href), link.click()]);
}
