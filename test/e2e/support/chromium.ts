/**
 * Debian's headless Chromium driven by playwright-core, for the editor journey: installed with
 * `apt-get install -y chromium` when missing (CHROMIUM_PATH points at another binary), started with
 * the flags this machine needs and a fresh profile per launch (playwright makes one and removes it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

import { chromium, type Browser } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** No GPU, no sandbox (root in a container), nothing that talks to the network behind the test's back. */
const chromiumFlags = [
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
		execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
			stdio: ['ignore', 'inherit', 'inherit'],
		});
	}
	return await chromium.launch({
		executablePath: chromiumPath,
		headless: true,
		args: chromiumFlags,
	});
}
