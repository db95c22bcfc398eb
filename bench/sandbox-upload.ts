/**
 * Large uploads into the sandbox: time and memory while a 45 MB source is accepted and a 60 MB one
 * is refused mid-stream. Client and server share this process (the client sends from a file-backed
 * Blob), so the memory figure is an upper bound for the server; an accepted source is read whole once
 * for detection by content.
 * Run: npx tsx bench/sandbox-upload.ts
 */
import { openAsBlob, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startSandbox } from '../sandbox';
import { fixturesDir } from '../test/support/embroideryFiles';

const megabyte = 1024 * 1024;

async function upload(baseUrl: string, key: string, path: string, name: string) {
	const form = new FormData();
	form.append('workflow', 'conversion');
	form.append('format', 'pes');
	form.append('file', await openAsBlob(path), name);
	let peak = 0;
	const base = process.memoryUsage();
	const sampler = setInterval(() => {
		const now = process.memoryUsage();
		peak = Math.max(peak, now.heapUsed + now.arrayBuffers - base.heapUsed - base.arrayBuffers);
	}, 5);
	const started = performance.now();
	const response = await fetch(`${baseUrl}/jobs`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' },
		body: form,
	});
	const body = (await response.json()) as { message: string };
	const seconds = (performance.now() - started) / 1000;
	clearInterval(sampler);
	return { status: response.status, message: body.message, seconds, peakMb: peak / megabyte };
}

async function main(): Promise<void> {
	const sandbox = await startSandbox({ port: 0, workers: 1 });
	const folder = join(tmpdir(), `sandbox-upload-${process.pid}`);
	const accepted = `${folder}-45.dst`;
	const refused = `${folder}-60.dst`;
	// A real DST header and design, padded after its end marker: detected and converted like any DST.
	const star = readFileSync(join(fixturesDir, 'Star.DST'));
	writeFileSync(accepted, Buffer.concat([star, Buffer.alloc(45 * megabyte - star.length)]));
	writeFileSync(refused, Buffer.concat([star, Buffer.alloc(60 * megabyte - star.length)]));
	try {
		global.gc?.();
		for (const [label, path] of [
			['45 MB source', accepted],
			['60 MB source', refused],
		] as const) {
			const result = await upload(sandbox.baseUrl, sandbox.demoKey, path, 'Big.DST');
			console.log(
				`${label}: HTTP ${result.status} in ${result.seconds.toFixed(2)} s ` +
					`(${(Number(label.slice(0, 2)) / result.seconds) | 0} MB/s), ` +
					`peak heap+buffers growth (client and server) ${result.peakMb.toFixed(1)} MB - ${result.message}`,
			);
		}
	} finally {
		rmSync(accepted, { force: true });
		rmSync(refused, { force: true });
		await sandbox.close();
	}
}

void main();
