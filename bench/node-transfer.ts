/**
 * Embroidery node transfer benchmark: a 50 MB download (Job > Download of an unlocked output and
 * File > Download) streamed into n8n's filesystem binary store, and a 50 MB conversion upload
 * (Job > Create), each through n8n-core's real execution against a local server that streams or
 * discards the bytes. Prints wall time and how far heap and resident memory rose above the
 * baseline, sampled every 5 ms. Run: npm run bench:node
 */
import { runNode } from '../test/support/nodeRun';
import { startScriptedServer, sendJson } from '../test/nodes/support/scriptedServer';
import { createConversion } from '../test/support/jobParameters';

const mb = 1024 * 1024;
const size = 50 * mb;
const jobId = '01J9Z3Q4W8Y6V5T2R1P0N9M8KA';
const chunk = Buffer.alloc(mb, 7);

function sampleMemory() {
	const base = process.memoryUsage();
	const peak = { heap: base.heapUsed, rss: base.rss };
	const timer = setInterval(() => {
		const now = process.memoryUsage();
		peak.heap = Math.max(peak.heap, now.heapUsed);
		peak.rss = Math.max(peak.rss, now.rss);
	}, 5);
	return () => {
		clearInterval(timer);
		return { heapMb: (peak.heap - base.heapUsed) / mb, rssMb: (peak.rss - base.rss) / mb };
	};
}

async function measure(label: string, action: () => Promise<void>) {
	global.gc?.();
	const stop = sampleMemory();
	const started = performance.now();
	await action();
	const seconds = (performance.now() - started) / 1000;
	const { heapMb, rssMb } = stop();
	console.log(
		`${label.padEnd(34)} ${seconds.toFixed(2).padStart(6)} s ` +
			` ${(size / mb / seconds).toFixed(0).padStart(5)} MB/s  heap ` +
			`+${heapMb.toFixed(1).padStart(6)} MB  rss +${rssMb.toFixed(1).padStart(6)} MB`,
	);
}

async function main() {
	const server = await startScriptedServer((request, response) => {
		if (request.url.startsWith('/api/v1/uploads/')) {
			response.writeHead(200, {
				'content-type': 'application/octet-stream',
				'content-length': String(size),
				'content-disposition': 'attachment; filename="big.pes"',
			});
			let sent = 0;
			const pump = () => {
				while (sent < size) {
					sent += chunk.length;
					if (!response.write(chunk)) return void response.once('drain', pump);
				}
				response.end();
			};
			return pump();
		}
		if (request.method === 'POST') {
			const job = { id: jobId, status: 'queued', workflow: 'conversion' };
			return sendJson(response, 202, {
				message: 'Accepted',
				job,
				jobs: [job],
				freeUsage: { previewRemaining: 0, creditBalance: 1 },
			});
		}
		const url = `${server.origin}/api/v1/uploads/up1/download?expires=9999999999&signature=s`;
		sendJson(response, 200, {
			job: {
				id: jobId,
				status: 'completed',
				formats: ['pes'],
				warnings: [],
				downloadsUnlocked: true,
				outputs: [{ name: 'big.pes', downloadUrl: url, previewUrl: null }],
			},
		});
	});
	const credentials = { apiKey: 'bench-key', baseUrl: server.baseUrl };
	console.log(`50 MB transfers through the Embroidery node (Node ${process.version})`);
	try {
		for (let run = 1; run <= 2; run++) {
			await measure(`Job > Download (run ${run})`, async () => {
				const result = await runNode({
					credentials,
					parameters: {
						resource: 'job',
						operation: 'download',
						jobId,
						workflow: 'conversion',
						files: ['outputs'],
					},
					input: [{}],
				});
				if (result.error || result.items[0].binary?.data.bytes !== size)
					throw new Error(`download failed: ${result.error?.message}`);
			});
			await measure(`File > Download (run ${run})`, async () => {
				const result = await runNode({
					credentials,
					parameters: {
						resource: 'file',
						operation: 'download',
						url: `${server.origin}/api/v1/uploads/up1/download?expires=1&signature=s`,
					},
					input: [{}],
				});
				if (result.error) throw new Error(`download failed: ${result.error.message}`);
			});
			await measure(`Job > Create, 50 MB source (run ${run})`, async () => {
				const result = await runNode({
					credentials,
					parameters: createConversion(),
					input: [
						{
							binary: {
								data: {
									data: Buffer.alloc(size - 1, 3),
									fileName: 'big.dst',
									mimeType: 'application/octet-stream',
								},
							},
						},
					],
				});
				if (result.error) throw new Error(`upload failed: ${result.error.message}`);
				const received = server.requests.at(-1)!.body.length;
				if (received < size - 1) throw new Error(`upload sent only ${received} bytes`);
				server.requests.length = 0;
			});
		}
	} finally {
		await server.close();
	}
}

void main();
