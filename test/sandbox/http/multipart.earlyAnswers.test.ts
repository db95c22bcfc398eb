/**
 * A job request refused before its body was read (a field over its limit, a wrong key, a key past its rate
 * limit): the client still sending it gets the answer, not a connection closed under its upload ("EPIPE", "other
 * side closed").
 */
import { newClient } from '../support/apiClient';
import { announcedPost, formField } from '../support/rawUpload';
import { useWorkerSandbox } from '../../support/sandboxFixture';
import { sleep } from '../../support/realTime';

const suite = useWorkerSandbox();
const boundary = 'early-answer';

const field = (name: string, value: string) => formField(boundary, name, value);

interface Answer {
	status: number;
	body: string;
	/** Whether the answer came only after the client had written the whole body. */
	afterTheBody: boolean;
}

/**
 * Sends `fields`, then (once the server has had a second to refuse them) a file of `fileBytes` (200 KB unless
 * said) in 16 KB writes, as a slow or busy client does. Rejects when the request fails instead of getting an
 * answer.
 */
function slowUpload(key: string, fields: string, fileBytes = 200 * 1024): Promise<Answer> {
	const fileHead =
		`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="design.dst"\r\n` +
		'Content-Type: application/octet-stream\r\n\r\n';
	const file = Buffer.alloc(fileBytes, 0x41);
	const tail = `\r\n--${boundary}--\r\n`;
	const length = Buffer.byteLength(fields + fileHead + tail) + file.length;
	return new Promise((resolve, reject) => {
		let written = false;
		const request = announcedPost(
			`${suite.sandbox.baseUrl}/jobs`,
			{
				authorization: `Bearer ${key}`,
				'content-type': `multipart/form-data; boundary=${boundary}`,
			},
			length,
			(response) => {
				const afterTheBody = written;
				let body = '';
				response.on('data', (chunk: Buffer) => (body += chunk.toString()));
				response.on('end', () => resolve({ status: response.statusCode ?? 0, body, afterTheBody }));
			},
		);
		request.on('error', reject);
		request.write(fields);
		void (async () => {
			await sleep(1000);
			request.write(fileHead);
			for (let at = 0; at < file.length; at += 16 * 1024) {
				if (request.destroyed) return;
				request.write(file.subarray(at, at + 16 * 1024));
				await sleep(fileBytes > 1024 * 1024 ? 2 : 20);
			}
			request.end(tail, () => (written = true));
		})();
	});
}

describe('a job request refused before its body was read', () => {
	it('is answered once the body has arrived: a field over 1 KB gets its 422', async () => {
		const api = await newClient(suite.sandbox);
		const answer = await slowUpload(
			api.key!,
			field('workflow', 'conversion') + field('format', 'pes') + field('title', 'x'.repeat(2000)),
		);
		expect(answer).toEqual({
			status: 422,
			body: expect.stringContaining('The title field is longer than 1024 bytes.'),
			afterTheBody: true,
		});
		expect((await api.get('/jobs')).body.data).toEqual([]);
	});

	it('is answered once the body has arrived: a wrong key gets its 401', async () => {
		const answer = await slowUpload(
			'emb_sandbox_this_key_does_not_exist_000000',
			field('workflow', 'conversion') + field('format', 'pes'),
		);
		expect(answer).toEqual({
			status: 401,
			body: expect.stringContaining('The API key is not valid.'),
			afterTheBody: true,
		});
	});

	it("is answered once the body has arrived: a valid key past its minute's job requests gets its 429", async () => {
		const api = await newClient(suite.sandbox);
		// The key's 20 job requests a minute, spent on forms refused for what they lack.
		for (let n = 0; n < 20; n++) expect((await api.post('/jobs')).status).toBe(422);
		// A form over the 1 MB any caller's body is read up to: a known key's is read up to a job request's limit.
		const answer = await slowUpload(
			api.key!,
			field('workflow', 'conversion') + field('format', 'pes'),
			3 * 1024 * 1024,
		);
		expect(answer).toEqual({
			status: 429,
			body: expect.stringContaining('at most 20 per minute per API key'),
			afterTheBody: true,
		});
	});
});
