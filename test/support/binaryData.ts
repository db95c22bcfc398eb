/**
 * n8n-core's BinaryDataService as every harness run uses it: filesystem mode under a temporary n8n folder,
 * started once per test file, and the bytes of a binary property that a node produced.
 */
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { BinaryDataService } from 'n8n-core';
import type { IBinaryData } from 'n8n-workflow';

// n8n-core resolves its own copy of the DI container; services must come from that one.
const { Container } = createRequire(require.resolve('n8n-core'))(
	'@n8n/di',
) as typeof import('@n8n/di');

let binaryDataReady: Promise<void> | undefined;

/** Points n8n at a temporary folder and starts the BinaryDataService in filesystem mode (once per test file). */
export async function ensureBinaryDataService(): Promise<void> {
	binaryDataReady ??= (async () => {
		if (!process.env.N8N_USER_FOLDER) {
			process.env.N8N_USER_FOLDER = mkdtempSync(path.join(tmpdir(), 'n8n-embroidery-'));
			// The test environment removes it when the file ends (test/support/environment.js).
			process.env.EMBROIDERY_TEST_N8N_FOLDER = process.env.N8N_USER_FOLDER;
		}
		process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
		// n8n's error reporter logs every node error; tests read errors from the run instead.
		process.env.N8N_LOG_LEVEL ??= 'silent';
		await Container.get(BinaryDataService).init();
	})();
	await binaryDataReady;
}
/** The bytes of a binary property produced by a node run. */
export async function binaryBuffer(binary: IBinaryData): Promise<Buffer> {
	await ensureBinaryDataService();
	return await Container.get(BinaryDataService).getAsBuffer(binary);
}
