/**
 * The API keys page in Chromium: creating a key (shown once, copied with the button), its list, the key
 * working in the node through n8n-core and refused at the node's next request once revoked on the page,
 * and the whole of it by keyboard alone.
 */
import type { ConsoleMessage, Page } from 'playwright-core';

import { followLink, useBrowser } from '../../../../support/browser';
import { runNode } from '../../../../support/nodeRun';
import { useWorkerSandbox } from '../../../../support/sandboxFixture';
import { postForm, signInInBrowser, signInOverHttp } from '../../../support/accountPages';

const suite = useWorkerSandbox();
const browser = useBrowser();

const dayMs = 24 * 60 * 60 * 1000;

/** The cells of the list's row for a key, by its prefix. */
async function keyRow(page: Page, key: string) {
	const row = page.locator('table.keys tbody tr', {
		has: page.locator('th', { hasText: key.slice(0, 20) }),
	});
	const cells = await row.locator('th, td').allTextContents();
	const times = await row
		.locator('time')
		.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('datetime')));
	return { row, cells: cells.map((cell) => cell.replace(/\s+/g, ' ').trim()), times };
}

/** Presses Tab until the element `selector` names has the focus (at most 60 times). */
async function tabTo(page: Page, selector: string): Promise<void> {
	for (let presses = 0; presses < 60; presses++) {
		if (await page.evaluate((target) => document.activeElement?.matches(target), selector)) return;
		await page.keyboard.press('Tab');
	}
	throw new Error(`Tab never reached ${selector}.`);
}

/** Waits for the copy button's status line to say the key was copied (the clipboard is written asynchronously). */
async function copied(page: Page): Promise<void> {
	await page.getByRole('status').filter({ hasText: 'Copied to the clipboard.' }).waitFor();
}

function cspViolations(page: Page): string[] {
	const seen: string[] = [];
	page.on('console', (message: ConsoleMessage) => {
		if (/Content Security Policy/i.test(message.text())) seen.push(message.text());
	});
	return seen;
}

describe('the API keys page (Chromium)', () => {
	test(
		'creates a key with the chosen abilities and expiry, ' +
			'shows it once with a working copy button, and lists it',
		async () => {
			const { id } = await suite.admin.createAccount({ plan: 'credits' });
			const page = await signInInBrowser(browser(), suite.admin, id, {
				permissions: ['clipboard-read', 'clipboard-write'],
			});
			const violations = cspViolations(page);
			await page.getByLabel('jobs:read').uncheck();
			await page.getByLabel('jobs:write').uncheck();
			await page.getByLabel('Expires after').selectOption('7');
			const [created] = await Promise.all([
				page.waitForResponse((response) => response.request().method() === 'POST'),
				page.getByRole('button', { name: 'Create key' }).click(),
			]);
			// POST, redirect, GET: the key is shown by the GET the redirect leads to.
			expect(created.status()).toBe(303);
			expect(created.headers()['cache-control']).toBe('no-store');
			await page.waitForSelector('#new-key');

			const key = await page.getByLabel('API key', { exact: true }).inputValue();
			expect(key).toMatch(/^emb_sandbox_[0-9a-f]{48}$/);
			await expect(page.locator('.notice').innerText()).resolves.toContain('shown only this once');
			await page.getByRole('button', { name: 'Copy key' }).click();
			await copied(page);
			await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(key);

			const { cells, times } = await keyRow(page, key);
			expect(cells.slice(0, 2)).toEqual([`${key.slice(0, 20)}…`, 'formats:read usage:read']);
			expect(cells[4]).toBe('Never');
			const [createdAt, expiresAt] = times.map((time) => Date.parse(time!));
			expect(expiresAt - createdAt).toBe(7 * dayMs);

			// Shown once: the page reloaded holds the prefix only, and the reload created no second key.
			await page.reload();
			await expect(page.content()).resolves.not.toContain(key);
			await expect(page.locator('table.keys tbody tr').count()).resolves.toBe(1);
			const usage = await fetch(`${suite.sandbox.baseUrl}/usage`, {
				headers: { Authorization: `Bearer ${key}` },
			});
			expect(usage.status).toBe(200);
			await page.reload();
			const used = await keyRow(page, key);
			expect(used.cells[4]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
			const formats = await fetch(`${suite.sandbox.baseUrl}/jobs`, {
				headers: { Authorization: `Bearer ${key}` },
			});
			expect(formats.status).toBe(403);
			expect(violations).toEqual([]);
			await page.context().close();
		},
	);

	test(
		'a key made on the page works in the node; revoked on ' +
			"the page, the node's next request is refused (401)",
		async () => {
			const { id } = await suite.admin.createAccount({ plan: 'credits', creditBalance: 7 });
			const page = await signInInBrowser(browser(), suite.admin, id);
			await page.getByRole('button', { name: 'Create key' }).click();
			await page.waitForSelector('#new-key');
			const key = await page.getByLabel('API key', { exact: true }).inputValue();
			const credentials = { apiKey: key, baseUrl: suite.sandbox.baseUrl };

			const formats = await runNode({
				credentials,
				parameters: { resource: 'format', operation: 'getMany' },
			});
			expect(formats.error).toBeUndefined();
			expect(formats.items.map((item) => item.json.format)).toEqual(
				expect.arrayContaining(['dst', 'pes']),
			);
			const usage = await runNode({
				credentials,
				parameters: { resource: 'account', operation: 'getUsage' },
			});
			expect(usage.items[0].json).toMatchObject({ creditBalance: 7 });

			// Revoke asks once: its link opens a question, which changes nothing until its button is pressed.
			await followLink(page.getByRole('link', { name: `Revoke ${key.slice(0, 20)}…` }));
			await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
				'Revoke this key?',
			);
			expect((await suite.admin.usage(id)).creditBalance).toBe(7);
			const stillWorks = await fetch(`${suite.sandbox.baseUrl}/usage`, {
				headers: { Authorization: `Bearer ${key}` },
			});
			expect(stillWorks.status).toBe(200);
			await page.getByRole('button', { name: `Revoke ${key.slice(0, 20)}…` }).click();
			await page.locator('table.keys tbody tr', { hasText: 'Revoked' }).waitFor();
			const { cells } = await keyRow(page, key);
			expect(cells[5]).toMatch(/^Revoked \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);

			const refused = await runNode({
				credentials,
				parameters: { resource: 'format', operation: 'getMany' },
			});
			expect(refused.error).toMatchObject({ httpCode: '401' });
			expect(String(refused.error?.description)).toContain('revoked');
			await page.context().close();
		},
	);

	test(
		'keyboard only: Tab, Space and Enter create a key, ' +
			'copy it and revoke it, with the focus always visible',
		async () => {
			const { id } = await suite.admin.createAccount({ plan: 'credits' });
			const page = await signInInBrowser(browser(), suite.admin, id, {
				permissions: ['clipboard-read', 'clipboard-write'],
			});
			await page.keyboard.press('Tab');
			await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe(
				'Skip to content',
			);
			await tabTo(page, '#ability-jobs\\:write');
			await page.keyboard.press('Space');
			await tabTo(page, '#expires');
			await page.keyboard.type('9');
			await tabTo(page, 'form.create-key button[type=submit]');
			const ring = await page.evaluate(
				() => getComputedStyle(document.activeElement!).outlineStyle,
			);
			expect(ring).toBe('solid');
			await page.keyboard.press('Enter');
			await page.waitForSelector('#new-key');
			const key = await page.locator('#new-key').inputValue();
			// The copy button shows once copy.js has run (the page loads it after its markup).
			await page.locator('button.copy').waitFor({ state: 'visible' });
			// The new key has the focus, and the copy button is the next stop.
			await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('new-key');
			await page.keyboard.press('Tab');
			await expect(page.evaluate(() => document.activeElement?.textContent?.trim())).resolves.toBe(
				'Copy key',
			);
			await page.keyboard.press('Enter');
			await copied(page);

			const { cells, times } = await keyRow(page, key);
			expect(cells[1]).toBe('formats:read usage:read jobs:read');
			const [createdAt, expiresAt] = times.map((time) => Date.parse(time!));
			expect(expiresAt - createdAt).toBe(90 * dayMs);

			await tabTo(page, `a[aria-label="Revoke ${key.slice(0, 20)}…"]`);
			await page.keyboard.press('Enter');
			await page.waitForURL('**/revoke');
			await tabTo(page, 'form.revoke button[type=submit]');
			await page.keyboard.press('Enter');
			// The list comes back after the form's redirect; the locator waits for it across the navigation.
			await page.locator('table.keys tbody tr', { hasText: 'Revoked' }).waitFor();
			expect((await keyRow(page, key)).cells[5]).toMatch(/^Revoked /);
			await page.context().close();
		},
	);

	test(
		'a form without abilities or with an unknown lifetime is ' +
			'refused (422), saying what to choose; no key is made',
		async () => {
			const { id } = await suite.admin.createAccount({ plan: 'credits' });
			const page = await signInInBrowser(browser(), suite.admin, id);
			for (const box of ['formats:read', 'usage:read', 'jobs:read', 'jobs:write']) {
				await page.getByLabel(box).uncheck();
			}
			const [refused] = await Promise.all([
				page.waitForResponse((response) => response.request().method() === 'POST'),
				page.getByRole('button', { name: 'Create key' }).click(),
			]);
			expect(refused.status()).toBe(422);
			await expect(page.getByRole('alert').textContent()).resolves.toContain(
				'Choose at least one ability',
			);
			await expect(
				page.getByRole('group', { name: 'Abilities' }).getAttribute('aria-describedby'),
			).resolves.toBe('form-errors');
			await expect(page.locator('table.keys').count()).resolves.toBe(0);
			await page.context().close();

			const visitor = await signInOverHttp(suite.sandbox, suite.admin, id);
			const forever = await postForm(
				suite.sandbox,
				'/account/keys',
				[
					['_csrf', visitor.csrfToken],
					['abilities', 'formats:read'],
					['expiresInDays', '100000'],
				],
				visitor.cookie,
			);
			expect(forever.status).toBe(422);
			expect(forever.text).toContain('Choose when the key expires');
			const list = await fetch(`${suite.sandbox.origin}/account/keys`, {
				headers: { cookie: visitor.cookie },
			});
			await expect(list.text()).resolves.toContain('This account has no keys yet.');
		},
	);
});
