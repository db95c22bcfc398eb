/**
 * An upload the sandbox's own disk refuses is the service's failure: 503 with what happened, not the 422 "the
 * multipart body could not be read" that sends a user looking for a fault in the file. The full disk is Linux's
 * /dev/full, which takes any open and answers every write with ENOSPC, reached through a link in a folder of the
 * test's own: the sandbox removes a failed upload's file, and must remove the link, never the device.
 */
import { existsSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';

import { installErrorHandlers } from '../../../sandbox/http/errors';
import {
	multipartLimits,
	readJobRequest,
	removeTemporaryFiles,
} from '../../../sandbox/http/multipart';
import { UploadTurns } from '../../../sandbox/http/uploadTurns';
import { fixture } from '../../support/embroideryFiles';

/** A server whose job route stores each upload where `temporaryPath` says, and answers what it read. */
async function storingServer(temporaryPath: () => string): Promise<FastifyInstance> {
	const app = Fastify();
	installErrorHandlers(app);
	await app.register(multipart, { limits: multipartLimits, throwFileSizeLimit: false });
	const turns = new UploadTurns();
	app.post('/jobs', async (request) => {
		const ticket = turns.begin('account');
		try {
			const form = await readJobRequest(request, temporaryPath, ticket);
			await removeTemporaryFiles(form);
			return { sizes: form.sources.map((source) => source.size) };
		} finally {
			ticket.end();
		}
	});
	return app;
}

function jobForm(): FormData {
	const form = new FormData();
	form.append('workflow', 'conversion');
	form.append('format', 'pes');
	form.append('file', new Blob([new Uint8Array(fixture('Star.DST'))]), 'Star.DST');
	return form;
}

async function post(app: FastifyInstance): Promise<{ status: number; body: any }> {
	const origin = await app.listen({ host: '127.0.0.1', port: 0 });
	const answer = await fetch(`${origin}/jobs`, { method: 'POST', body: jobForm() });
	return { status: answer.status, body: await answer.json() };
}

describe('an upload the disk refuses', () => {
	let folder: string;
	let app: FastifyInstance | undefined;

	beforeEach(() => {
		folder = mkdtempSync(join(tmpdir(), 'embroidery-storage-'));
	});

	afterEach(async () => {
		await app?.close();
		app = undefined;
		rmSync(folder, { recursive: true, force: true });
	});

	it('is stored and read where the disk takes it', async () => {
		app = await storingServer(() => join(folder, 'upload'));
		expect(await post(app)).toEqual({ status: 200, body: { sizes: [fixture('Star.DST').length] } });
		expect(existsSync(join(folder, 'upload'))).toBe(false);
	});

	it("answers 503 saying the service's disk is full and that nothing was created or charged", async () => {
		symlinkSync('/dev/full', join(folder, 'full'));
		app = await storingServer(() => join(folder, 'full'));
		const { status, body } = await post(app);
		expect(status).toBe(503);
		expect(body).toEqual({
			message:
				'The service could not store the uploaded file: no space is left on its disk. No job was created ' +
				'and nothing was charged; send the job again later.',
		});
		expect(existsSync(join(folder, 'full'))).toBe(false);
		expect(statSync('/dev/full').isCharacterDevice()).toBe(true);
	});

	it('answers 503 naming the error when the folder for uploads is gone', async () => {
		app = await storingServer(() => join(folder, 'removed', 'upload'));
		const { status, body } = await post(app);
		expect(status).toBe(503);
		expect(body.message).toMatch(
			/^The service could not store the uploaded file: its disk answered ENOENT\./,
		);
		expect(body.message).not.toContain(folder);
	});
});
