import { html, type SafeHtml } from './html';

/** The account pages' addresses, in the order of their navigation. */
export const pagePaths = {
	keys: '/account/keys',
	usage: '/account/usage',
	jobs: '/account/jobs',
	signIn: '/account/sign-in',
	signOut: '/account/sign-out',
} as const;

/** The address of a one-time sign-in link on the sandbox at `origin`. */
export function signInUrl(origin: string, token: string): string {
	return `${origin}${pagePaths.signIn}/${token}`;
}

const navigation = [
	{ path: pagePaths.keys, label: 'API keys' },
	{ path: pagePaths.usage, label: 'Usage' },
	{ path: pagePaths.jobs, label: 'Recent jobs' },
];

export interface PageFrame {
	title: string;
	/** The signed-in visitor's CSRF token; without it the page has no navigation and no sign-out. */
	csrfToken?: string;
	/** Path of the page, marked as the current one in the navigation. */
	current?: string;
	body: SafeHtml;
}

/** A whole page: skip link, banner with navigation and sign-out, one main landmark with one h1. */
export function page({ title, csrfToken, current, body }: PageFrame): string {
	return html`<!doctype html>
		<html lang="en">
			<head>
				<meta charset="utf-8" />
				<meta name="viewport" content="width=device-width, initial-scale=1" />
				<title>${title} · Embroidery sandbox</title>
				<link rel="stylesheet" href="/account/assets/pages.css" />
				<script src="/account/assets/copy.js" defer></script>
			</head>
			<body>
				<a class="skip-link" href="#main">Skip to content</a>
				<header class="banner">
					<p class="brand">Embroidery sandbox</p>
					${csrfToken === undefined ? null : signedInHeader(csrfToken, current)}
				</header>
				<main id="main" tabindex="-1">
					<h1>${title}</h1>
					${body}
				</main>
				<footer class="footer">
					<p>A local copy of the embroidery service, for trying the n8n nodes.</p>
				</footer>
			</body>
		</html> `.text;
}

function signedInHeader(csrfToken: string, current: string | undefined): SafeHtml {
	const links = navigation.map(
		({ path, label }) =>
			html`<li>
				<a href="${path}" ${path === current ? html` aria-current="page"` : null}>${label}</a>
			</li>`,
	);
	return html`<nav aria-label="Account">
			<ul>
				${links}
			</ul>
		</nav>
		<form method="post" action="${pagePaths.signOut}" class="sign-out">
			${csrfField(csrfToken)}
			<button type="submit">Sign out</button>
		</form>`;
}

/** The hidden field every form of a signed-in page carries. */
export function csrfField(csrfToken: string): SafeHtml {
	return html`<input type="hidden" name="_csrf" value="${csrfToken}" />`;
}

/** A moment of the sandbox clock for people, with the exact time for machines. */
export function moment(at: number | string | null, none = 'Never'): SafeHtml {
	if (at === null) return html`${none}`;
	const iso = new Date(at).toISOString();
	return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

/** The Content-Type of every page. */
export const htmlType = 'text/html; charset=utf-8';
