import type { FreeUsage } from '../../services/billing';
import { html, type SafeHtml } from './html';
import { moment, page, pagePaths } from './layout';

/**
 * The account's FreeUsage, the very object GET /usage answers with; each value carries its field's
 * name and JSON value (`data-field`, `data-value`) so what the page shows can be checked against the API.
 */
export function usagePage(usage: FreeUsage, csrfToken: string): string {
	const value = (
		field: keyof FreeUsage,
		shown: SafeHtml | string | number | boolean = String(usage[field]),
	) =>
		html`<span data-field="${field}" data-value="${JSON.stringify(usage[field])}">${shown}</span>`;
	const when = (field: 'dailyResetsAt' | 'monthlyResetsAt' | 'subscriptionRenewsAt') =>
		value(field, moment(usage[field], 'Not applicable'));
	const credits = (count: number) => `${count} ${count === 1 ? 'credit' : 'credits'}`;
	return page({
		title: 'Usage',
		csrfToken,
		current: pagePaths.usage,
		body: html`<p>
				The same figures the API's <code>GET /usage</code> and the node's Account &gt; Get Usage
				return.
			</p>
			<section aria-labelledby="allowances-heading">
				<h2 id="allowances-heading">Allowances</h2>
				<table class="allowances">
					<caption>
						Jobs counted against the account's allowances (every job counts, locked or not)
					</caption>
					<thead>
						<tr>
							<th scope="col">Period</th>
							<th scope="col">Used</th>
							<th scope="col">Limit</th>
							<th scope="col">Remaining</th>
							<th scope="col">Resets</th>
						</tr>
					</thead>
					<tbody>
						<tr>
							<th scope="row">Today</th>
							<td>${value('dailyUsed')}</td>
							<td>${value('dailyLimit')}</td>
							<td>${value('dailyRemaining')}</td>
							<td>${when('dailyResetsAt')}</td>
						</tr>
						<tr>
							<th scope="row">This month</th>
							<td>${value('monthlyUsed')}</td>
							<td>${value('monthlyLimit')}</td>
							<td>${value('monthlyRemaining')}</td>
							<td>${when('monthlyResetsAt')}</td>
						</tr>
					</tbody>
				</table>
				<dl>
					<dt>Jobs that can be created now</dt>
					<dd>${value('previewRemaining')}</dd>
					<dt>Free-plan limits (one file per request, free previews)</dt>
					<dd>${value('limited', usage.limited ? 'Apply' : 'Do not apply')}</dd>
				</dl>
			</section>
			<section aria-labelledby="credits-heading">
				<h2 id="credits-heading">Credits and costs</h2>
				<dl>
					<dt>Credit balance</dt>
					<dd>${value('creditBalance', credits(usage.creditBalance))}</dd>
					<dt>Unlocking a conversion's downloads</dt>
					<dd>${value('conversionCreditCost', credits(usage.conversionCreditCost))}</dd>
					<dt>Unlocking a digitising job's downloads</dt>
					<dd>${value('digitisingCreditCost', credits(usage.digitisingCreditCost))}</dd>
					<dt>Subscription unlocks left (used before credits)</dt>
					<dd>${value('unlockEntitlementsRemaining')}</dd>
				</dl>
			</section>
			<section aria-labelledby="plan-heading">
				<h2 id="plan-heading">Plan</h2>
				<dl>
					<dt>Plan</dt>
					<dd>${value('plan')}</dd>
					<dt>Subscription</dt>
					<dd>${value('subscriptionPlanSlug', usage.subscriptionPlanSlug ?? 'None')}</dd>
					<dt>Renews</dt>
					<dd>${when('subscriptionRenewsAt')}</dd>
				</dl>
			</section>`,
	});
}
