/**
 * Signing in to the account pages through one-time links, in Chromium: the session cookie's flags, a
 * link used twice or too late, signing out, and what a visitor without a session sees (401).
 */
import { useBrowser } from '../../../../support/browser';
import { useSandbox } from '../../../../support/sandboxFixture';
import { signInInBrowser, signInOverHttp } from '../../../support/accountPages';

const suite = useSandbox({ workers: 1 });
const browser = useBrowser();

describe('sign-in through a one-time link (Chromium)', () => {
	test('the link opens the keys page and sets an HttpOnly, SameSite=Strict session cookie for /account', async () => {
		const { id } = await suite.admin.createAccount({ plan: 'credits', name: 'Shop Uno' });
		const page = await signInInBrowser(browser(), suite.admin, id);
		await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('API keys');
		await expect(
			page.getByRole('navigation', { name: 'Account' }).getByRole('link').allTextContents(),
		).resolves.toEqual(['API keys', 'Usage', 'Recent jobs']);
		const cookies = await page.context().cookies();
		expect(cookies).toEqual([
			expect.objectContaining({
				name: 'embroidery_session',
				path: '/account',
				httpOnly: true,
				sameSite: 'Strict',
				// Served over plain HTTP on loopback; the same code sets Secure when the request came over https.
				secure: false,
				expires: -1,
			}),
		]);
		// Scripts of the page cannot read it.
		await expect(page.evaluate(() => document.cookie)).resolves.toBe('');
		await page.context().close();
	});

	test('a link followed from another site (n8n on localhost, a chat) lands signed in on the keys page', async () => {
		const { id } = await suite.admin.createAccount({ plan: 'credits' });
		const context = await browser().newContext();
		const page = await context.newPage();
		// localhost and 127.0.0.1 are different sites to the browser, though both are this loopback sandbox.
		const elsewhere = suite.sandbox.origin.replace('127.0.0.1', 'localhost');
		await page.goto(`${elsewhere}/account/sign-in`);
		const { url } = await suite.admin.signInLink(id);
		await Promise.all([
			page.waitForURL(url),
			page.evaluate((link) => {
				location.href = link;
			}, url),
		]);
		await Promise.all([
			page.waitForURL(`${suite.sandbox.origin}/account/keys`),
			page.getByRole('button', { name: 'Sign in' }).click(),
		]);
		await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('API keys');
		await context.close();
	});

	test('a link used a second time, or after 15 minutes, shows a page that says so and opens nothing', async () => {
		const { id } = await suite.admin.createAccount({ plan: 'credits' });
		const context = await browser().newContext();
		const page = await context.newPage();
		const { url: once } = await suite.admin.signInLink(id);
		const { url: late } = await suite.admin.signInLink(id);
		await page.goto(once);
		await page.getByRole('button', { name: 'Sign in' }).click();
		await page.waitForURL('**/account/keys');
		await context.clearCookies();

		const again = await page.goto(once);
		expect(again?.status()).toBe(410);
		await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
			'This sign-in link cannot be used',
		);
		await expect(page.locator('main').textContent()).resolves.toContain(
			'This sign-in link has already been used.',
		);
		await expect(context.cookies()).resolves.toEqual([]);

		await suite.admin.advanceClock(15 * 60 + 1);
		expect((await page.goto(late))?.status()).toBe(410);
		await expect(page.locator('main').textContent()).resolves.toContain(
			'This sign-in link has expired.',
		);
		const made = await page.goto(`${suite.sandbox.origin}/account/sign-in/not-a-link-at-all`);
		expect(made?.status()).toBe(404);
		await expect(page.locator('main').textContent()).resolves.toContain(
			'This sign-in link is not valid.',
		);
		await expect(context.cookies()).resolves.toEqual([]);
		await context.close();
	});

	test(
		'opening a link (GET, HEAD: a link preview, a mail scanner) ' +
			'changes nothing; only its button signs in',
		async () => {
			const { id } = await suite.admin.createAccount({ plan: 'credits' });
			const { url } = await suite.admin.signInLink(id);
			for (const method of ['HEAD', 'GET', 'GET']) {
				const opened = await fetch(url, { method, redirect: 'manual' });
				expect({ method, status: opened.status, cookie: opened.headers.get('set-cookie') }).toEqual(
					{
						method,
						status: 200,
						cookie: null,
					},
				);
				if (method === 'GET') {
					const text = await opened.text();
					expect(text).toMatch(
						/<form method="post" action="\/account\/sign-in\/[\w-]+" class="sign-in">/,
					);
					expect(text).toContain('<button type="submit">Sign in</button>');
				}
			}
			const signedIn = await fetch(url, { method: 'POST', redirect: 'manual' });
			expect(signedIn.status).toBe(303);
			expect(signedIn.headers.get('location')).toBe('/account/keys');
			expect(signedIn.headers.get('set-cookie')).toMatch(/^embroidery_session=/);
			// Used up by the button: the next opening says so.
			expect((await fetch(url)).status).toBe(410);
			expect((await fetch(url, { method: 'POST', redirect: 'manual' })).status).toBe(410);
		},
	);

	test('signing out ends the session: the pages then answer 401 with the sign-in hint', async () => {
		const { id } = await suite.admin.createAccount({ plan: 'credits' });
		const page = await signInInBrowser(browser(), suite.admin, id);
		const cookie = (await page.context().cookies())[0].value;
		await page.getByRole('button', { name: 'Sign out' }).click();
		await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Signed out');
		await expect(page.context().cookies()).resolves.toEqual([]);
		const after = await page.goto(`${suite.sandbox.origin}/account/usage`);
		expect(after?.status()).toBe(401);
		await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Sign in');
		// The old cookie value opens nothing either: the session is gone from the service.
		const replayed = await fetch(`${suite.sandbox.origin}/account/keys`, {
			headers: { cookie: `embroidery_session=${cookie}` },
		});
		expect(replayed.status).toBe(401);
		await expect(replayed.text()).resolves.toContain('Your session has ended.');
		await page.context().close();
	});

	test('a session ends 12 hours after sign-in; an expired key is listed as such, with nothing to revoke', async () => {
		const { id } = await suite.admin.createAccount({ plan: 'credits' });
		const key = await suite.admin.createKey(id, ['usage:read'], 3600);
		const visitor = await signInOverHttp(suite.sandbox, suite.admin, id);
		await suite.admin.advanceClock(2 * 3600);
		const keys = await fetch(`${suite.sandbox.origin}/account/keys`, {
			headers: { cookie: visitor.cookie },
		});
		const row = /<tr>[\s\S]*?<\/tr>/.exec((await keys.text()).split('<tbody>')[1])?.[0] ?? '';
		expect(row).toContain(`${key.key.slice(0, 20)}…`);
		expect(row).toMatch(/<td>\s*Expired\s*<\/td>/);
		expect(row).not.toContain('Revoke');

		await suite.admin.advanceClock(10 * 3600);
		const ended = await fetch(`${suite.sandbox.origin}/account/keys`, {
			headers: { cookie: visitor.cookie },
		});
		expect(ended.status).toBe(401);
		await expect(ended.text()).resolves.toContain('Your session has ended.');
	});

	test('a visitor without a session gets 401 and how to get a link, on every page', async () => {
		for (const path of ['/account/keys', '/account/usage', '/account/jobs', '/account/sign-in']) {
			const response = await fetch(`${suite.sandbox.origin}${path}`);
			expect({ path, status: response.status }).toEqual({
				path,
				status: path === '/account/sign-in' ? 200 : 401,
			});
			const text = await response.text();
			expect(text).toContain('one-time sign-in link');
			expect(text).toContain('POST /__sandbox/accounts/{id}/sign-in-links');
		}
	});

	test(
		'the control API mints links only with the admin ' +
			"token; the running sandbox mints the demo account's",
		async () => {
			const { id } = await suite.admin.createAccount({ plan: 'credits' });
			const refused = await fetch(
				`${suite.sandbox.origin}/__sandbox/accounts/${id}/sign-in-links`,
				{
					method: 'POST',
				},
			);
			expect(refused.status).toBe(401);
			const unknown = await fetch(
				`${suite.sandbox.origin}/__sandbox/accounts/nobody/sign-in-links`,
				{
					method: 'POST',
					headers: { 'X-Sandbox-Admin': suite.sandbox.adminToken },
				},
			);
			expect(unknown.status).toBe(404);

			// What npm start and npm run sandbox print: a link for the demo account.
			const context = await browser().newContext();
			const page = await context.newPage();
			await page.goto(suite.sandbox.signInLink());
			await page.getByRole('button', { name: 'Sign in' }).click();
			await page.waitForURL('**/account/keys');
			const prefixes = await page.locator('table.keys tbody th').allTextContents();
			expect(prefixes).toEqual([`${suite.sandbox.demoKey.slice(0, 20)}…`]);
			await context.close();
		},
	);
});
