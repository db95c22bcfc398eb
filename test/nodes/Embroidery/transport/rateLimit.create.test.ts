/**
 * A 429 on POST /jobs costs a whole upload: the node learns the creation limit from the first refusal and
 * paces the next creations by it, instead of sending uploads that the same limit refuses again. Real HTTP
 * through n8n-core's request helpers against a loopback server with a creation limit of its own.
 */
import {
	JobAcceptedSchema,
	UsageResponseSchema,
	embroideryApiRequest,
	routes,
} from '../../../../nodes/Embroidery/transport';
import { defaultPacing } from '../../../../nodes/Embroidery/transport/rateLimit';
import { withinNodeExecution } from '../../../support/nodeRun';
import { sendJson, startScriptedServer } from '../../support/scriptedServer';
import {
	limitedUsage as usage,
	queuedJob as job,
	secretApiKey as apiKey,
} from '../../support/fakeJobs';

const uploadBytes = 256 * 1024;

function upload(): FormData {
	const form = new FormData();
	form.append('workflow', 'conversion');
	form.append('file', new Blob([new Uint8Array(uploadBytes).fill(7)]), 'design.dst');
	return form;
}

describe('job creation after a 429', () => {
	const saved = { ...defaultPacing };
	afterEach(() => {
		Object.assign(defaultPacing, saved);
	});

	test('learns the creation limit from its 429 and paces later uploads by it, while other requests go on', async () => {
		// The service: any number of GETs, at most 2 job creations per 2 s per key, Retry-After until a slot frees.
		Object.assign(defaultPacing, { windowMs: 2000 });
		const limit = 2;
		const windowMs = 2000;
		const createdAt: number[] = [];
		let refusedUploadBytes = 0;
		const server = await startScriptedServer((request, response) => {
			if (request.method === 'GET') return sendJson(response, 200, usage);
			const now = Date.now();
			const recent = createdAt.filter((at) => now - at < windowMs);
			if (recent.length >= limit) {
				refusedUploadBytes += request.body.length;
				const seconds = Math.max(1, Math.ceil((recent[0] + windowMs - now) / 1000));
				return sendJson(
					response,
					429,
					{ message: 'Too many job creation requests' },
					{ 'retry-after': String(seconds) },
				);
			}
			createdAt.push(now);
			sendJson(response, 202, { message: 'Accepted', job, jobs: [job] });
		});
		try {
			await withinNodeExecution({ apiKey, baseUrl: server.baseUrl }, async (context) => {
				// Like a workflow that checks usage, then creates, item after item.
				for (let item = 0; item < 6; item++) {
					for (let check = 0; check < 3; check++) {
						await embroideryApiRequest.call(context, {
							...routes.getUsage(),
							schema: UsageResponseSchema,
						});
					}
					await embroideryApiRequest.call(context, {
						...routes.createJobs(),
						body: upload(),
						schema: JobAcceptedSchema,
					});
				}
			});
			const refusedUploads = refusedUploadBytes / uploadBytes;
			console.log(
				`6 creations at 2 per 2 s: ${Math.round(refusedUploads * 10) / 10} uploads refused with 429`,
			);
			expect(createdAt).toHaveLength(6);
			// One refusal teaches the limit; every later upload waits for a free slot instead of being refused.
			expect(refusedUploads).toBeLessThanOrEqual(1.01);
		} finally {
			await server.close();
		}
	});
});
