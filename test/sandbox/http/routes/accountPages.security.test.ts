/**
 * The account pages' defences over plain HTTP, where a test can send what a browser never would: the
 * headers of every answer, no inline script or style, the session cookie's flags, CSRF tokens on every
 * POST, and one account's session against another account's keys.
 */
import { sandboxAdmin } from '../../../support/sandbox';
import { useOwnSandboxes, useWorkerSandbox } from '../../../support/sandboxFixture';
import { postForm, signInOverHttp, type HttpVisitor } from '../../support/accountPages';

const suite = useWorkerSandbox();
const sandboxes = useOwnSandboxes();

async function getPage(path: string, cookie?: string) {
	const response = await fetch(`${suite.sandbox.origin}${path}`, {
		redirect: 'manual',
		headers: cookie ? { cookie } : {},
	});
	return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The prefixes in the visitor's key list. */
async function listedKeys(visitor: HttpVisitor, origin = suite.sandbox.origin): Promise<string[]> {
	const text = await (
		await fetch(`${origin}/account/keys`, { headers: { cookie: visitor.cookie } })
	).text();
	return [...text.matchAll(/<th scope="row"><code>([^<]+)<\/code><\/th>/g)].map(
		(match) => match[1],
	);
}

describe('the account pages over HTTP', () => {
	test('every answer carries a CSP without inline script or style, no framing, no referrer and nosniff', async () => {
		const { id } = await suite.admin.createAccount({ plan: 'credits' });
		const visitor = await signInOverHttp(suite.sandbox, suite.admin, id);
		const answers = [
			['/account/keys', 200],
			['/account/usage', 200],
			['/account/jobs', 200],
			['/account/sign-in/not-a-link', 404],
			['/account/no-such-page', 404],
			['/account/assets/copy.js', 200],
			['/account/assets/pages.css', 200],
		] as const;
		for (const [path, status] of answers) {
			const { headers, text } = await getPage(path, visitor.cookie);
			expect({ path, status: (await getPage(path, visitor.cookie)).status }).toEqual({
				path,
				status,
			});
			expect({ path, csp: headers.get('content-security-policy') }).toEqual({
				path,
				csp: "default-src 'self';base-uri 'none';form-action 'self';frame-ancestors 'none';object-src 'none'",
			});
			expect(headers.get('x-frame-options')).toBe('DENY');
			expect(headers.get('referrer-policy')).toBe('no-referrer');
			expect(headers.get('x-content-type-options')).toBe('nosniff');
			if (headers.get('content-type')?.startsWith('text/html')) {
				expect(headers.get('cache-control')).toBe('no-store');
				// Nothing the CSP would have to allow: no inline script, style element, style or event attribute.
				expect(text).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
				expect(text).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
			}
		}
		const anonymous = await getPage('/account/usage');
		expect(anonymous.status).toBe(401);
		expect(anonymous.headers.get('content-security-policy')).toContain("default-src 'self'");
	});

	test('the session cookie is HttpOnly, SameSite=Strict, for /account only, and ends with the browser', async () => {
		const { id } = await suite.admin.createAccount({ plan: 'credits' });
		const { setCookie } = await signInOverHttp(suite.sandbox, suite.admin, id);
		const [value, ...flags] = setCookie.split(/;\s*/);
		expect(value).toMatch(/^embroidery_session=[\w-]{43}$/);
		expect(flags.sort()).toEqual(['HttpOnly', 'Path=/account', 'SameSite=Strict']);
	});

	test(
		'a POST without the CSRF token, with a wrong one or with ' +
			"another session's is refused (403) and changes nothing",
		async () => {
			const { accountId, keyId, key } = await suite.admin.createAccountWithKey({ plan: 'credits' });
			const visitor = await signInOverHttp(suite.sandbox, suite.admin, accountId);
			const other = await signInOverHttp(suite.sandbox, suite.admin, accountId);
			const before = await listedKeys(visitor);
			const tokens = [[], [['_csrf', 'x'.repeat(43)]], [['_csrf', other.csrfToken]]] as Array<
				Array<[string, string]>
			>;
			for (const token of tokens) {
				const create = await postForm(
					suite.sandbox,
					'/account/keys',
					[...token, ['abilities', 'formats:read'], ['expiresInDays', '1']],
					visitor.cookie,
				);
				expect(create.status).toBe(403);
				expect(create.text).toContain('Reload the page and try again.');
				const revoke = await postForm(
					suite.sandbox,
					`/account/keys/${keyId}/revoke`,
					token,
					visitor.cookie,
				);
				expect(revoke.status).toBe(403);
				const signOut = await postForm(suite.sandbox, '/account/sign-out', token, visitor.cookie);
				expect(signOut.status).toBe(403);
			}
			expect(await listedKeys(visitor)).toEqual(before);
			expect((await getPage('/account/keys', visitor.cookie)).status).toBe(200);
			const api = await fetch(`${suite.sandbox.baseUrl}/usage`, {
				headers: { Authorization: `Bearer ${key}` },
			});
			expect(api.status).toBe(200);

			// A JSON body is no way around it either.
			const json = await fetch(`${suite.sandbox.origin}/account/keys/${keyId}/revoke`, {
				method: 'POST',
				headers: { cookie: visitor.cookie, 'Content-Type': 'application/json' },
				body: JSON.stringify({}),
			});
			expect(json.status).toBe(403);

			// The right token works, and without a session a POST is 401 whatever it carries.
			const revoked = await postForm(
				suite.sandbox,
				`/account/keys/${keyId}/revoke`,
				[['_csrf', visitor.csrfToken]],
				visitor.cookie,
			);
			expect(revoked.status).toBe(303);
			const anonymous = await postForm(suite.sandbox, `/account/keys/${keyId}/revoke`, [
				['_csrf', visitor.csrfToken],
			]);
			expect(anonymous.status).toBe(401);
		},
	);

	test("one account cannot see or revoke another account's key (404, the key keeps working)", async () => {
		const mine = await suite.admin.createAccountWithKey({ plan: 'credits' });
		const theirs = await suite.admin.createAccountWithKey({ plan: 'credits' });
		const visitor = await signInOverHttp(suite.sandbox, suite.admin, mine.accountId);
		expect(await listedKeys(visitor)).toEqual([`${mine.key.slice(0, 20)}…`]);
		const attempt = await postForm(
			suite.sandbox,
			`/account/keys/${theirs.keyId}/revoke`,
			[['_csrf', visitor.csrfToken]],
			visitor.cookie,
		);
		expect(attempt.status).toBe(404);
		expect(attempt.text).toContain(`No key ${theirs.keyId}.`);
		expect((await getPage(`/account/keys/${theirs.keyId}/revoke`, visitor.cookie)).status).toBe(
			404,
		);
		const api = await fetch(`${suite.sandbox.baseUrl}/usage`, {
			headers: { Authorization: `Bearer ${theirs.key}` },
		});
		expect(api.status).toBe(200);
	});

	test('a key is listed by a short prefix, never whole, however short the operator made it', async () => {
		const demoKey = 'demo-key-12';
		const own = await sandboxes.own({ demoKey });
		const { id } = await sandboxAdmin(own).createAccount({ plan: 'credits' });
		const generated = await sandboxAdmin(own).createKey(id);
		const demo = await signInOverHttp(own, sandboxAdmin(own), own.demoAccountId);
		expect(await listedKeys(demo, own.origin)).toEqual(['demo-…']);
		const keysPage = await (
			await fetch(`${own.origin}/account/keys`, { headers: { cookie: demo.cookie } })
		).text();
		expect(keysPage).not.toContain(demoKey);
		// A generated key keeps its 20 characters: "emb_sandbox_" and 8 of its 48 random ones.
		const visitor = await signInOverHttp(own, sandboxAdmin(own), id);
		expect(await listedKeys(visitor, own.origin)).toEqual([`${generated.key.slice(0, 20)}…`]);
	});
});
