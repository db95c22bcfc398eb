/**
 * axe-core in Chromium on every account page, in each state a visitor can meet it: no serious or critical
 * finding anywhere. The counts per page are printed at the end of the file's run.
 */
import type { Page } from 'playwright-core';

import { followLink, useBrowser } from '../../../support/browser';
import { useWorkerSandbox } from '../../../support/sandboxFixture';
import { Api } from '../../support/apiClient';
import { axeFindings, signInInBrowser, type AxeCounts } from '../../support/accountPages';

const suite = useWorkerSandbox();
const browser = useBrowser();
const counts: Array<[string, AxeCounts]> = [];

afterAll(() => {
	const lines = counts.map(
		([name, found]) =>
			`${name.padEnd(34)} critical ${found.critical}, serious ${found.serious}, ` +
			`moderate ${found.moderate}, minor ${found.minor}`,
	);
	console.log(`axe-core findings per account page:\n${lines.join('\n')}`);
});

/** Records axe-core's counts for the page as it is now, and names any serious or critical finding. */
async function check(name: string, page: Page): Promise<void> {
	const found = await axeFindings(page);
	counts.push([name, found]);
	expect({ name, blocking: found.blocking }).toEqual({ name, blocking: [] });
}

test('every account page has no serious or critical axe-core finding', async () => {
	const { accountId, key } = await suite.admin.createAccountWithKey({ plan: 'credits' });
	const api = new Api(suite.sandbox, key);
	const { body } = await api.convert('Star.JEF', 'dst');
	await api.waitForJob('conversion', body.job.id);

	const anonymous = await (await browser().newContext()).newPage();
	expect((await anonymous.goto(`${suite.sandbox.origin}/account/keys`))?.status()).toBe(401);
	await check('Sign in (401)', anonymous);
	const { url } = await suite.admin.signInLink(accountId);
	await anonymous.goto(url);
	await check('Sign-in link', anonymous);
	await anonymous.getByRole('button', { name: 'Sign in' }).click();
	await anonymous.waitForURL('**/account/keys');
	await anonymous.context().clearCookies();
	expect((await anonymous.goto(url))?.status()).toBe(410);
	await check('Sign-in link used (410)', anonymous);
	await anonymous.context().close();

	const page = await signInInBrowser(browser(), suite.admin, accountId);
	await check('API keys', page);
	await page.getByLabel('jobs:write').uncheck();
	await page.getByRole('button', { name: 'Create key' }).click();
	await page.waitForSelector('#new-key');
	await check('API keys, new key shown', page);
	await followLink(page.getByRole('link', { name: /^Revoke / }).first());
	await check('Revoke this key?', page);
	await followLink(page.getByRole('link', { name: 'Keep it' }));
	for (const box of ['formats:read', 'usage:read', 'jobs:read', 'jobs:write'])
		await page.getByLabel(box).uncheck();
	await page.getByRole('button', { name: 'Create key' }).click();
	await page.getByRole('alert').waitFor();
	await check('API keys, form refused (422)', page);
	await followLink(page.getByRole('link', { name: 'Usage' }));
	await check('Usage', page);
	await followLink(page.getByRole('link', { name: 'Recent jobs' }));
	await page.getByRole('article').getByRole('img').waitFor();
	await check('Recent jobs', page);
	expect((await page.goto(`${suite.sandbox.origin}/account/no-such-page`))?.status()).toBe(404);
	await check('Not found (404)', page);
	await page.goto(`${suite.sandbox.origin}/account/keys`);
	await page.getByRole('button', { name: 'Sign out' }).click();
	await page.getByRole('heading', { name: 'Signed out' }).waitFor();
	await check('Signed out', page);
	await page.context().close();
});

test('the check finds what it looks for: a field without a label and an image without text', async () => {
	const page = await browser().newPage();
	await page.setContent(
		'<!doctype html><html lang="en"><title>t</title><main><h1>t</h1><input><img src="data:,"></main></html>',
	);
	const found = await axeFindings(page);
	expect(found.blocking).toEqual([
		expect.stringMatching(/^image-alt/),
		expect.stringMatching(/^label/),
	]);
	await page.close();
});
