import { html } from './html';
import { page, pagePaths } from './layout';

const howToGetALink = html`<p>
	Sign-in links are single-use and last 15 minutes. <code>npm run sandbox</code> and
	<code>npm start</code> print one for the demo account when they start; for any account the
	sandbox's control API mints one: <code>POST /__sandbox/accounts/{id}/sign-in-links</code> with the
	admin token in the <code>X-Sandbox-Admin</code> header.
</p>`;

/** 401: the visitor has no session (never had one, it expired, or they signed out). */
export function signInHintPage(reason: string): string {
	return page({
		title: 'Sign in',
		body: html`<p>${reason}</p>
			<p>The account pages open through a one-time sign-in link: there is no password.</p>
			${howToGetALink}`,
	});
}

/** A sign-in link that cannot be used: it says why, and how to get a fresh one. */
export function signInLinkRefusedPage(reason: string): string {
	return page({
		title: 'This sign-in link cannot be used',
		body: html`<p>${reason}</p>
			${howToGetALink}`,
	});
}

/** A sign-in link opened: its button (a POST to the same address) signs in and uses the link up. */
export function signInLinkPage(linkPath: string): string {
	return page({
		title: 'Sign in',
		body: html`<p>This one-time link signs you in to the account pages of the sandbox.</p>
			<form method="post" action="${linkPath}" class="sign-in">
				<button type="submit">Sign in</button>
			</form>
			<p>The link works once: after this button it is used up.</p>`,
	});
}

export function signedOutPage(): string {
	return page({
		title: 'Signed out',
		body: html`<p>
				You are signed out. The session cookie is gone from this browser and the session from the
				service.
			</p>
			<p><a href="${pagePaths.signIn}">How to sign in again</a></p>`,
	});
}

/** Any other refusal (403, 404, 410, 422, 500), with the same words the API would send. */
export function problemPage(status: number, message: string, csrfToken?: string): string {
	const titles: Record<number, string> = {
		403: 'Not allowed',
		404: 'Not found',
		410: 'Gone',
		500: 'Something went wrong',
	};
	return page({
		title: titles[status] ?? 'The request was refused',
		csrfToken,
		body: html`<p>${message}</p>
			<p><a href="${pagePaths.keys}">Back to your API keys</a></p>`,
	});
}
