import type { Workflow } from '../../domain/jobs';
import type { Presenter } from '../present';
import { html, type SafeHtml } from './html';
import { moment, page, pagePaths } from './layout';

/** A job as the API presents it (with its signed URLs pointing at the account pages' file routes). */
export type PresentedJob = ReturnType<Presenter['job']> & { title: string; workflow: Workflow };

export function jobsPage(jobs: PresentedJob[], csrfToken: string): string {
	return page({
		title: 'Recent jobs',
		csrfToken,
		current: pagePaths.jobs,
		body:
			jobs.length === 0
				? html`<p>No jobs yet. Jobs created through the API or the n8n node appear here.</p>`
				: html`<p>
							The account's latest ${jobs.length === 1 ? 'job' : `${jobs.length} jobs`}, newest
							first, as <code>GET /jobs</code> lists them. Previews stay watermarked and machine
							files locked until a job is unlocked (the node's Job &gt; Unlock).
						</p>
						${jobs.map(jobArticle)}`,
	});
}

function jobArticle(job: PresentedJob): SafeHtml {
	const heading = `job-${job.id}`;
	return html`<article class="job" aria-labelledby="${heading}">
		<h2 id="${heading}">${job.title}</h2>
		<dl class="facts">
			<dt>Status</dt>
			<dd class="status status-${job.status}">${job.status}</dd>
			<dt>Kind</dt>
			<dd>${job.workflow === 'conversion' ? 'Conversion' : 'Digitising'}</dd>
			<dt>Output format</dt>
			<dd>${job.formats.join(', ').toUpperCase()}</dd>
			<dt>Created</dt>
			<dd>${moment(job.createdAt)}</dd>
			<dt>Job id</dt>
			<dd><code>${job.id}</code></dd>
		</dl>
		${job.failureReason
			? html`<p class="failure"><strong>Failed:</strong> ${job.failureReason}</p>`
			: null}
		${warnings(job.warnings)} ${preview(job)} ${files(job)}
	</article>`;
}

function warnings(list: string[]): SafeHtml {
	if (list.length === 0) return html`<p class="warnings-none">No warnings.</p>`;
	return html`<h3>Warnings</h3>
		<ul class="warnings">
			${list.map((warning) => html`<li>${warning}</li>`)}
		</ul>`;
}

function preview(job: PresentedJob): SafeHtml | null {
	const artifact = job.artifacts.find((file) => file.kind === 'preview');
	if (!artifact?.previewUrl) return null;
	const state = artifact.watermarked ? ', watermarked until the downloads are unlocked' : '';
	return html`<figure class="preview">
		<img src="${artifact.previewUrl}" alt="Stitch preview of ${job.title}${state}" width="240" />
		<figcaption>Stitch preview${state}</figcaption>
	</figure>`;
}

function files(job: PresentedJob): SafeHtml {
	const items: SafeHtml[] = [];
	if (job.source?.downloadUrl) {
		items.push(html`<li><a href="${job.source.downloadUrl}">Source: ${job.source.name}</a></li>`);
	}
	for (const output of job.outputs) {
		items.push(
			output.downloadUrl
				? html`<li><a href="${output.downloadUrl}">Machine file: ${output.name}</a></li>`
				: html`<li>
						Machine file ${output.name}: locked. Unlock the job to download
						it${job.unlock.canUnlock && job.unlock.creditCost > 0
							? ` (${job.unlock.creditCost} ${job.unlock.creditCost === 1 ? 'credit' : 'credits'})`
							: ''}.
					</li>`,
		);
	}
	if (items.length === 0) return html`<p>No files yet.</p>`;
	return html`<h3>Files</h3>
		<ul class="files">
			${items}
		</ul>`;
}
