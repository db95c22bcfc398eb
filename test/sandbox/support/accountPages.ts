/**
 * What the account pages' tests share: signing in (in Chromium, or over plain HTTP for the checks a
 * browser would never let a page make), posting forms, and axe-core's findings on a page.
 */
import { readFileSync } from 'node:fs';

import type { Browser, BrowserContextOptions, Page } from 'playwright-core';

import type { AccountsAdmin, SandboxAddress } from '../../support/sandbox';

/**
 * Opens a fresh browser context (no cookies), opens a new sign-in link of the account, presses its Sign in
 * button and lands on its keys page.
 */
export async function signInInBrowser(
	browser: Browser,
	admin: AccountsAdmin,
	accountId: string,
	options: BrowserContextOptions = {},
): Promise<Page> {
	const context = await browser.newContext(options);
	const page = await context.newPage();
	const { url } = await admin.signInLink(accountId);
	const opened = await page.goto(url);
	if (!opened?.ok()) throw new Error(`The sign-in link answered ${opened?.status()}.`);
	await Promise.all([
		page.waitForURL('**/account/keys'),
		page.getByRole('button', { name: 'Sign in' }).click(),
	]);
	return page;
}

/** A signed-in visitor over plain HTTP: the session cookie and the CSRF token its pages carry. */
export interface HttpVisitor {
	cookie: string;
	csrfToken: string;
}

export async function signInOverHttp(
	sandbox: SandboxAddress,
	admin: AccountsAdmin,
	accountId: string,
): Promise<HttpVisitor & { setCookie: string }> {
	const { url } = await admin.signInLink(accountId);
	const signIn = await fetch(url, { method: 'POST', redirect: 'manual' });
	const setCookie = signIn.headers.get('set-cookie') ?? '';
	const cookie = setCookie.split(';')[0];
	const keys = await fetch(`${sandbox.origin}/account/keys`, { headers: { cookie } });
	const csrfToken = /name="_csrf" value="([^"]+)"/.exec(await keys.text())?.[1];
	if (signIn.status !== 303 || !cookie || !csrfToken) {
		throw new Error(`Signing in over HTTP failed: ${signIn.status}, cookie "${cookie}".`);
	}
	return { cookie, csrfToken, setCookie };
}

/** POSTs a form of the pages as a browser would (urlencoded), with the visitor's cookie when given. */
export async function postForm(
	sandbox: SandboxAddress,
	path: string,
	fields: Array<[string, string]>,
	cookie?: string,
): Promise<{ status: number; text: string; headers: Headers }> {
	const response = await fetch(`${sandbox.origin}${path}`, {
		method: 'POST',
		redirect: 'manual',
		headers: {
			'Content-Type': 'application/x-www-form-urlencoded',
			...(cookie ? { cookie } : {}),
		},
		body: new URLSearchParams(fields).toString(),
	});
	return { status: response.status, text: await response.text(), headers: response.headers };
}

export interface AxeCounts {
	critical: number;
	serious: number;
	moderate: number;
	minor: number;
	/** Rule id and first target of each serious or critical finding, for the failure message. */
	blocking: string[];
}

const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core (WCAG 2.x A and AA rules and best practices) in the page as it is now. The script is
 * evaluated by the browser's debugging protocol, which the page's CSP does not govern.
 */
export async function axeFindings(page: Page): Promise<AxeCounts> {
	await page.evaluate(axeSource);
	const violations = await page.evaluate(async () => {
		const axe = (globalThis as unknown as { axe: typeof import('axe-core') }).axe;
		const results = await axe.run(document, { resultTypes: ['violations'] });
		return results.violations.map((violation) => ({
			id: violation.id,
			impact: violation.impact ?? 'minor',
			target: String(violation.nodes[0]?.target ?? ''),
		}));
	});
	const count = (impact: string) =>
		violations.filter((violation) => violation.impact === impact).length;
	return {
		critical: count('critical'),
		serious: count('serious'),
		moderate: count('moderate'),
		minor: count('minor'),
		blocking: violations
			.filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
			.map((violation) => `${violation.id} at ${violation.target}`),
	};
}
