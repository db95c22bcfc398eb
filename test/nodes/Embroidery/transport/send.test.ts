import {
	FormatsResponseSchema,
	JobAcceptedSchema,
	UsageResponseSchema,
	defaultRetryPolicy,
	embroideryApiRequest,
	downloadSignedFile,
	routes,
} from '../../../../nodes/Embroidery/transport';
import { withinNodeExecution, caughtApiError } from '../../../support/nodeRun';
import { useTestClock } from '../../../support/testClock';
import { sendJson, startScriptedServer } from '../../support/scriptedServer';
import type { Handler } from '../../support/scriptedServer';
import { limitedUsage as usage, secretApiKey as apiKey } from '../../support/fakeJobs';

const formats = {
	data: [{ format: 'dst', label: 'Tajima', readable: true, writable: true, warning: null }],
	artworkInputs: ['png'],
};

async function withServer<T>(
	handler: Handler,
	run: (baseUrl: string, server: Awaited<ReturnType<typeof startScriptedServer>>) => Promise<T>,
) {
	const server = await startScriptedServer(handler);
	try {
		return await run(server.baseUrl, server);
	} finally {
		await server.close();
	}
}

const caught = caughtApiError;

function getUsage(baseUrl: string) {
	return withinNodeExecution({ apiKey, baseUrl: `${baseUrl}//` }, async (context) =>
		embroideryApiRequest.call(context, { ...routes.getUsage(), schema: UsageResponseSchema }),
	);
}

describe('transport', () => {
	// Backoff and Retry-After on a driven clock: they pass as soon as no request is under way, and a request's
	// real time, however slow the machine, is small beside the waits it is measured against.
	const clock = useTestClock();

	test('sends the Bearer key to the base URL (trailing slashes tolerated) and parses the answer', async () => {
		await withServer(
			(_request, response) => sendJson(response, 200, usage),
			async (baseUrl, server) => {
				const answer = await getUsage(baseUrl);
				expect(answer.freeUsage.creditBalance).toBe(5);
				expect(server.requests[0].url).toBe('/api/v1/usage');
				expect(server.requests[0].headers.authorization).toBe(`Bearer ${apiKey}`);
				expect(server.requests[0].headers.accept).toContain('application/json');
			},
		);
	});

	test('429 with Retry-After waits that long, then succeeds', async () => {
		await withServer(
			(_request, response, count) =>
				count === 1
					? sendJson(response, 429, { message: 'Too many' }, { 'retry-after': '1' })
					: sendJson(response, 200, usage),
			async (baseUrl, server) => {
				const started = clock.now();
				await getUsage(baseUrl);
				expect(server.requests).toHaveLength(2);
				expect(clock.now() - started).toBeGreaterThanOrEqual(1000);
			},
		);
	});

	test('429 without Retry-After backs off, and attempts are bounded by the time budget', async () => {
		await withServer(
			(_request, response) =>
				sendJson(response, 429, { message: 'Slow down' }, { 'retry-after': '0' }),
			async (baseUrl, server) => {
				// Waits of 1 and 2 minutes (plus jitter) fit in 4 minutes, with almost a minute to spare for the
				// requests themselves; the next, 4 minutes, would not.
				const error = await caught(
					withinNodeExecution({ apiKey, baseUrl }, async (context) =>
						embroideryApiRequest.call(context, {
							...routes.getUsage(),
							schema: UsageResponseSchema,
							retryPolicy: {
								...defaultRetryPolicy,
								baseDelayMs: 60_000,
								maxDelayMs: 600_000,
								refusedBudgetMs: 4 * 60_000,
							},
						}),
					),
				);
				expect(server.requests).toHaveLength(3);
				expect(error.httpCode).toBe('429');
				expect(error.message).toContain('Slow down');
			},
		);
		await withServer(
			(_request, response, count) =>
				count === 1 ? sendJson(response, 429, { message: 'x' }) : sendJson(response, 200, usage),
			async (baseUrl, server) => {
				const started = clock.now();
				await getUsage(baseUrl);
				expect(server.requests).toHaveLength(2);
				expect(clock.now() - started).toBeGreaterThanOrEqual(1000);
			},
		);
	});

	test('a Retry-After longer than the node waits fails at once and says how long to wait', async () => {
		await withServer(
			(_request, response) =>
				sendJson(response, 429, { message: 'Daily burst used' }, { 'retry-after': '3600' }),
			async (baseUrl, server) => {
				const error = await caught(getUsage(baseUrl));
				expect(server.requests).toHaveLength(1);
				expect(error.httpCode).toBe('429');
				expect(error.description).toContain('asks to wait 3600 s');
			},
		);
	});

	test('a POST is never repeated after a 5xx', async () => {
		await withServer(
			(_request, response) => sendJson(response, 503, { message: 'Worker crashed' }),
			async (baseUrl, server) => {
				const form = new FormData();
				form.append('workflow', 'conversion');
				const error = await caught(
					withinNodeExecution({ apiKey, baseUrl }, async (context) =>
						embroideryApiRequest.call(context, {
							...routes.createJobs(),
							body: form,
							schema: JobAcceptedSchema,
						}),
					),
				);
				expect(server.requests).toHaveLength(1);
				expect(error.httpCode).toBe('503');
				expect(error.description).toContain('not repeated');
			},
		);
	});

	test('a POST is never repeated after a dropped connection', async () => {
		await withServer(
			(_request, response) => response.socket?.destroy(),
			async (baseUrl, server) => {
				await caught(
					withinNodeExecution({ apiKey, baseUrl }, async (context) =>
						embroideryApiRequest.call(context, {
							...routes.unlockJob({ id: '01J9Z3Q4W8Y6V5T2R1P0N9M8K7', workflow: 'conversion' }),
							schema: UsageResponseSchema,
						}),
					),
				);
				expect(server.requests).toHaveLength(1);
			},
		);
	});

	test('a GET is retried after a 5xx and after a dropped connection', async () => {
		await withServer(
			(_request, response, count) => {
				if (count === 1) return sendJson(response, 502, { message: 'Bad gateway' });
				if (count === 2) return response.socket?.destroy();
				sendJson(response, 200, usage);
			},
			async (baseUrl, server) => {
				await getUsage(baseUrl);
				expect(server.requests).toHaveLength(3);
			},
		);
	});

	test('422 lists every field with its messages', async () => {
		await withServer(
			(_request, response) =>
				sendJson(response, 422, {
					message: 'The given data was invalid.',
					errors: {
						format: ['The format must differ from the source format.'],
						width_mm: ['Too wide.', 'Must be a number.'],
					},
				}),
			async (baseUrl) => {
				const error = await caught(
					withinNodeExecution({ apiKey, baseUrl }, async (context) =>
						embroideryApiRequest.call(context, {
							...routes.createJobs(),
							body: new FormData(),
							schema: JobAcceptedSchema,
						}),
					),
				);
				expect(error.httpCode).toBe('422');
				expect(error.message).toContain('The given data was invalid.');
				expect(error.description).toContain(
					'format: The format must differ from the source format.',
				);
				expect(error.description).toContain('width_mm: Too wide.; Must be a number.');
			},
		);
	});

	test('409 and 410 explain the job state and the next step', async () => {
		await withServer(
			(request, response) =>
				request.url.endsWith('/unlock')
					? sendJson(response, 409, { message: 'Job is not completed.' })
					: sendJson(response, 410, { message: 'Source expired.' }),
			async (baseUrl) => {
				const unlock = await caught(
					withinNodeExecution({ apiKey, baseUrl }, async (context) =>
						embroideryApiRequest.call(context, {
							...routes.unlockJob({ id: '01J9Z3Q4W8Y6V5T2R1P0N9M8K7', workflow: 'digitising' }),
							schema: UsageResponseSchema,
						}),
					),
				);
				expect(unlock.httpCode).toBe('409');
				expect(unlock.description).toContain('Only completed jobs can be unlocked');
				const retry = await caught(
					withinNodeExecution({ apiKey, baseUrl }, async (context) =>
						embroideryApiRequest.call(context, {
							...routes.retryJob({ id: '01J9Z3Q4W8Y6V5T2R1P0N9M8K7', workflow: 'conversion' }),
							schema: UsageResponseSchema,
						}),
					),
				);
				expect(retry.httpCode).toBe('410');
				expect(retry.description).toContain('Create a new job from the original file');
			},
		);
	});

	test('401 and 403 tell invalid key from missing ability; the key never appears in the error', async () => {
		await withServer(
			(request, response) =>
				request.url.endsWith('/usage')
					? sendJson(response, 401, {
							message: `Invalid key ${String(request.headers.authorization)}`,
						})
					: sendJson(response, 403, { message: 'Missing ability.' }),
			async (baseUrl) => {
				const invalid = await caught(getUsage(baseUrl));
				expect(invalid.httpCode).toBe('401');
				expect(invalid.description).toContain('invalid, expired or revoked');
				const lacking = await caught(
					withinNodeExecution({ apiKey, baseUrl }, async (context) =>
						embroideryApiRequest.call(context, {
							...routes.listFormats(),
							schema: FormatsResponseSchema,
						}),
					),
				);
				expect(lacking.description).toContain('formats:read');
				for (const error of [invalid, lacking]) {
					const everything = JSON.stringify({
						...error,
						message: error.message,
						description: error.description,
						stack: error.stack,
					});
					expect(everything).not.toContain(apiKey);
				}
			},
		);
	});

	test('a network failure after retries names the problem without the key', async () => {
		const server = await startScriptedServer((_request, response) =>
			sendJson(response, 200, formats),
		);
		const baseUrl = server.baseUrl;
		await server.close();
		const error = await caught(getUsage(baseUrl));
		expect(error.message).toMatch(/could not be reached/);
		expect(JSON.stringify({ ...error, m: error.message, d: error.description })).not.toContain(
			apiKey,
		);
	});

	test('an answer missing a required field is an error naming the field', async () => {
		await withServer(
			(_request, response) =>
				sendJson(response, 200, {
					data: [{ format: 'dst', label: 'Tajima', readable: true, warning: null }],
					artworkInputs: [],
				}),
			async (baseUrl) => {
				const error = await caught(
					withinNodeExecution({ apiKey, baseUrl }, async (context) =>
						embroideryApiRequest.call(context, {
							...routes.listFormats(),
							schema: FormatsResponseSchema,
						}),
					),
				);
				expect(error.message).toContain('missing required field "data[0].writable"');
			},
		);
	});

	test('signed URLs are fetched exactly as given, streamed, and only from the service host', async () => {
		await withServer(
			(_request, response) => {
				response.writeHead(200, {
					'content-type': 'application/octet-stream',
					'content-disposition': 'attachment; filename="Star.dst"',
				});
				response.end(Buffer.from('STITCHES'));
			},
			async (baseUrl, server) => {
				const url = `${server.origin}/api/v1/uploads/01ABC/download?expires=1999999999&signature=abc%2Fdef`;
				const file = await withinNodeExecution({ apiKey, baseUrl }, async (context) => {
					return await downloadSignedFile(context, url, undefined, async (downloaded) => {
						const chunks: Buffer[] = [];
						for await (const chunk of downloaded.stream as AsyncIterable<Buffer>)
							chunks.push(chunk);
						return { ...downloaded, text: Buffer.concat(chunks).toString() };
					});
				});
				expect(server.requests[0].url).toBe(
					'/api/v1/uploads/01ABC/download?expires=1999999999&signature=abc%2Fdef',
				);
				expect(file.text).toBe('STITCHES');
				expect(file.fileName).toBe('Star.dst');
				await expect(
					withinNodeExecution({ apiKey, baseUrl }, async (context) =>
						downloadSignedFile(
							context,
							'http://localhost:1/uploads/x/download?signature=y',
							undefined,
							async (downloaded) => await Promise.resolve(downloaded),
						),
					),
				).rejects.toThrow(/not the service's host/);
				expect(server.requests).toHaveLength(1);
			},
		);
	});
});
