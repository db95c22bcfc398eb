/**
 * The usage and recent jobs pages in Chromium, against what the API answers for the same account: the
 * FreeUsage of GET /usage, and each job's status, warnings, preview and files through signed URLs with
 * the API's rules (previews watermarked and machine files locked until the job is unlocked).
 */
import type { Page } from 'playwright-core';

import { followLink, useBrowser } from '../../../../support/browser';
import { useWorkerSandbox } from '../../../../support/sandboxFixture';
import { Api } from '../../../support/apiClient';
import { signInInBrowser } from '../../../support/accountPages';

const suite = useWorkerSandbox();
const browser = useBrowser();

/** A new account with a key, and a completed conversion of `fixture` into `format`. */
async function accountWithJob(fixture: string, format: string) {
	const { accountId, key } = await suite.admin.createAccountWithKey({
		plan: 'credits',
		creditBalance: 5,
	});
	const api = new Api(suite.sandbox, key);
	const { body } = await api.convert(fixture, format);
	const job = await api.waitForJob('conversion', body.job.id);
	return { accountId, api, job };
}

/** The bytes behind a URL of the page, fetched with the page's own cookies. */
async function bytesOf(page: Page, url: string) {
	const response = await page.context().request.get(new URL(url, page.url()).toString());
	return { status: response.status(), bytes: await response.body() };
}

describe('the usage page (Chromium)', () => {
	test('shows every FreeUsage field exactly as GET /usage reports it', async () => {
		const { accountId, api } = await accountWithJob('Star.DST', 'pes');
		const page = await signInInBrowser(browser(), suite.admin, accountId);
		await followLink(page.getByRole('link', { name: 'Usage' }));
		await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Usage');
		const shown = await page
			.locator('[data-field]')
			.evaluateAll((nodes) =>
				nodes.map((node) => [node.getAttribute('data-field'), node.getAttribute('data-value')]),
			);
		const { freeUsage } = (await api.get('/usage')).body;
		expect(Object.fromEntries(shown.map(([field, value]) => [field, JSON.parse(value!)]))).toEqual(
			freeUsage,
		);
		expect(freeUsage.dailyUsed).toBe(1);
		const text = await page.locator('main').innerText();
		expect(text).toMatch(/Today\s+1\s+500\s+499/);
		expect(text).toContain('Credit balance\n5 credits');
		expect(text).toContain(`Unlocking a digitising job's downloads\n2 credits`);
		await page.context().close();
	});
});

describe('the recent jobs page (Chromium)', () => {
	test(
		'shows status, warnings and the watermarked preview of ' +
			'a locked job, and no download until it is unlocked',
		async () => {
			const { accountId, api, job } = await accountWithJob('Star.JEF', 'dst');
			const page = await signInInBrowser(browser(), suite.admin, accountId);
			await followLink(page.getByRole('link', { name: 'Recent jobs' }));
			const article = page.getByRole('article');
			await expect(article.count()).resolves.toBe(1);
			const text = await article.innerText();
			expect(text).toContain('Status\ncompleted');
			expect(text).toContain(`Job id\n${job.id}`);
			expect(job.warnings.length).toBeGreaterThan(0);
			await expect(article.locator('.warnings li').allTextContents()).resolves.toEqual(
				job.warnings,
			);

			const image = article.getByRole('img');
			await expect(image.getAttribute('alt')).resolves.toMatch(
				/watermarked until the downloads are unlocked/,
			);
			await expect(
				image.evaluate((node: HTMLImageElement) => node.complete && node.naturalWidth),
			).resolves.toBeGreaterThan(0);
			const preview = await bytesOf(page, (await image.getAttribute('src'))!);
			const watermarked = await api.fetchUrl(job.artifacts[0].previewUrl);
			expect(preview.status).toBe(200);
			expect(preview.bytes.equals(watermarked.bytes)).toBe(true);
			expect(text).toMatch(
				/Machine file \S+: locked\. Unlock the job to download it \(1 credit\)\./,
			);
			await expect(article.getByRole('link', { name: /^Machine file/ }).count()).resolves.toBe(0);

			// The locked output's URL, signed for the download route, is refused like the API refuses it.
			const lockedOutput = job.outputs[0].previewUrl.replace('/preview?', '/download?');
			expect((await api.fetchUrl(lockedOutput)).status).toBe(403);
			const pageUrl = lockedOutput.replace(/^.*\/api\/v1/, '/account');
			expect((await bytesOf(page, pageUrl)).status).toBe(403);

			expect((await api.post(`/jobs/conversion/${job.id}/unlock`)).status).toBe(200);
			await page.reload();
			const unlockedImage = page.getByRole('article').getByRole('img');
			await expect(unlockedImage.getAttribute('alt')).resolves.not.toContain('watermarked');
			const clean = await bytesOf(page, (await unlockedImage.getAttribute('src'))!);
			expect(clean.status).toBe(200);
			expect(clean.bytes.equals(preview.bytes)).toBe(false);
			const link = page.getByRole('link', { name: /^Machine file: / });
			const download = await bytesOf(page, (await link.getAttribute('href'))!);
			const unlocked = (await api.get(`/jobs/conversion/${job.id}`)).body.job;
			const fromApi = await api.fetchUrl(unlocked.outputs[0].downloadUrl);
			expect(download.status).toBe(200);
			expect(download.bytes.equals(fromApi.bytes)).toBe(true);
			expect(download.bytes.length).toBeGreaterThan(0);
			await page.context().close();
		},
	);

	test("an account sees only its own jobs and keys; another account's signed file URL is refused (403)", async () => {
		const mine = await accountWithJob('Star.DST', 'exp');
		const theirs = await accountWithJob('Star.DST', 'jef');
		const page = await signInInBrowser(browser(), suite.admin, mine.accountId);
		await followLink(page.getByRole('link', { name: 'Recent jobs' }));
		const ids = await page.locator('article .facts code').allTextContents();
		expect(ids).toEqual([mine.job.id]);
		const html = await page.content();
		expect(html).not.toContain(theirs.job.id);

		const theirPreview = theirs.job.artifacts[0].previewUrl.replace(/^.*\/api\/v1/, '/account');
		const refused = await bytesOf(page, theirPreview);
		expect(refused.status).toBe(403);
		expect(refused.bytes.toString()).toContain('This file belongs to another account.');

		await followLink(page.getByRole('link', { name: 'API keys' }));
		const prefixes = await page.locator('table.keys tbody th').allTextContents();
		expect(prefixes).toEqual([`${mine.api.key!.slice(0, 20)}…`]);
		await page.context().close();
	});
});
