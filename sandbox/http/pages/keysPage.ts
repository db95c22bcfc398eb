import { abilities, type Ability } from '../../domain/accounts';
import type { KeyListing } from '../../services/auth';
import { html, type SafeHtml } from './html';
import { csrfField, moment, page, pagePaths } from './layout';

/** What each ability lets a key do, in the words of the node's operations. */
const abilityHelp: Record<Ability, string> = {
	'formats:read': 'list formats and palettes',
	'usage:read': 'read allowances and credits',
	'jobs:read': 'read jobs, previews and files',
	'jobs:write': 'create, retry and unlock jobs (spends credits)',
};

/** The lifetimes a new key can have; the spec wants every key to expire. */
export const keyLifetimesDays = ['1', '7', '30', '90', '365'] as const;
type KeyLifetime = (typeof keyLifetimesDays)[number];
const defaultLifetime: KeyLifetime = '30';

export interface KeysPageView {
	csrfToken: string;
	keys: KeyListing[];
	now: number;
	/** A key just created: shown this once and never again. */
	newKey?: { key: string };
	/** What the form got wrong, per field, with what was chosen so it is not lost. */
	errors?: Record<string, string[]>;
	chosen?: { abilities: string[]; expiresInDays: string };
}

export function keysPage(view: KeysPageView): string {
	return page({
		title: 'API keys',
		csrfToken: view.csrfToken,
		current: pagePaths.keys,
		body: html`${view.newKey ? newKeyNotice(view.newKey.key) : null} ${createForm(view)}
		${keyTable(view)}`,
	});
}

function newKeyNotice(key: string): SafeHtml {
	return html`<section class="notice" aria-labelledby="new-key-heading">
		<h2 id="new-key-heading">Your new API key</h2>
		<p>
			Copy it now and paste it into the Embroidery API credential in n8n. It is shown only this
			once: the service keeps only a hash of it.
		</p>
		<label for="new-key">API key</label>
		<input
			id="new-key"
			class="key-value"
			type="text"
			value="${key}"
			readonly
			autofocus
			spellcheck="false"
			autocomplete="off"
		/>
		<button type="button" class="copy" data-copy="new-key" data-status="copy-status" hidden>
			Copy key
		</button>
		<p id="copy-status" class="copy-status" role="status"></p>
	</section>`;
}

function createForm({ csrfToken, errors = {}, chosen }: KeysPageView): SafeHtml {
	const picked = chosen?.abilities ?? [...abilities];
	const lifetime = chosen?.expiresInDays ?? defaultLifetime;
	const abilityErrors = errors.abilities ?? [];
	const lifetimeErrors = errors.expiresInDays ?? [];
	const boxes = abilities.map(
		(ability) =>
			html`<div class="choice">
				<input
					type="checkbox"
					id="ability-${ability}"
					name="abilities"
					value="${ability}"
					${picked.includes(ability) ? html` checked` : null}
				/>
				<label for="ability-${ability}"><code>${ability}</code>: ${abilityHelp[ability]}</label>
			</div>`,
	);
	const options = keyLifetimesDays.map(
		(days) =>
			html`<option value="${days}" ${days === lifetime ? html` selected` : null}>
				${days} ${days === '1' ? 'day' : 'days'}
			</option>`,
	);
	return html`<section aria-labelledby="create-heading">
<h2 id="create-heading">Create a key</h2>
${fieldErrors('form-errors', [...abilityErrors, ...lifetimeErrors])}
<form method="post" action="${pagePaths.keys}" class="create-key">
${csrfField(csrfToken)}
<fieldset${abilityErrors.length ? html` aria-describedby="form-errors"` : null}>
<legend>Abilities</legend>
${boxes}
</fieldset>
<div class="field">
<label for="expires">Expires after</label>
<select id="expires" name="expiresInDays"${lifetimeErrors.length ? html` aria-describedby="form-errors"` : null}>
${options}
</select>
</div>
<button type="submit">Create key</button>
</form>
</section>`;
}

function fieldErrors(id: string, messages: string[]): SafeHtml | null {
	if (messages.length === 0) return null;
	return html`<div id="${id}" class="errors" role="alert">
		<p>The key was not created:</p>
		<ul>
			${messages.map((message) => html`<li>${message}</li>`)}
		</ul>
	</div>`;
}

function keyTable({ keys, now }: KeysPageView): SafeHtml {
	if (keys.length === 0) {
		return html`<section aria-labelledby="keys-heading">
			<h2 id="keys-heading">Your keys</h2>
			<p>This account has no keys yet.</p>
		</section>`;
	}
	const rows = keys.map((key) => {
		const name = keyName(key);
		return html`<tr>
			<th scope="row"><code>${name}</code></th>
			<td>${key.abilities.map((ability) => html`<code>${ability}</code> `)}</td>
			<td>${moment(key.createdAt)}</td>
			<td>${moment(key.expiresAt)}</td>
			<td>${moment(key.lastUsedAt)}</td>
			<td>${keyState(key, now, name)}</td>
		</tr>`;
	});
	return html`<section aria-labelledby="keys-heading">
		<h2 id="keys-heading">Your keys</h2>
		<table class="keys">
			<caption>
				Keys of this account, newest first. A revoked key is refused at its next request.
			</caption>
			<thead>
				<tr>
					<th scope="col">Key</th>
					<th scope="col">Abilities</th>
					<th scope="col">Created</th>
					<th scope="col">Expires</th>
					<th scope="col">Last used</th>
					<th scope="col">State</th>
				</tr>
			</thead>
			<tbody>
				${rows}
			</tbody>
		</table>
	</section>`;
}

/** How the list names a key: its short prefix (never the whole key), or its id when none was kept. */
export function keyName(key: Pick<KeyListing, 'id' | 'prefix'>): string {
	return key.prefix ? `${key.prefix}…` : `Key ${key.id}`;
}

function keyState(key: KeyListing, now: number, name: string): SafeHtml {
	if (key.revokedAt !== null) return html`Revoked ${moment(key.revokedAt)}`;
	if (key.expiresAt !== null && key.expiresAt <= now) return html`Expired`;
	return html`<a
		class="revoke"
		href="${pagePaths.keys}/${key.id}/revoke"
		aria-label="Revoke ${name}"
		>Revoke</a
	>`;
}

/** The one question before a key is revoked; works without script. */
export function revokeKeyPage(csrfToken: string, keyId: string, name: string): string {
	return page({
		title: 'Revoke this key?',
		csrfToken,
		current: pagePaths.keys,
		body: html`<p>
				Revoke the key <code>${name}</code>? Every request with it is refused from then on, in n8n
				and everywhere else; this cannot be undone.
			</p>
			<form method="post" action="${pagePaths.keys}/${keyId}/revoke" class="revoke">
				${csrfField(csrfToken)}
				<button type="submit">Revoke ${name}</button>
				<a href="${pagePaths.keys}">Keep it</a>
			</form>`,
	});
}
