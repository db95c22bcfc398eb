/**
 * Peak memory of the process running the Embroidery node (n8n-core execution, filesystem binary data) while it
 * downloads a 50 MB output and while it uploads 10 sources in one batch, next to buffering variants. Each variant
 * runs in its own child process, so one cannot inflate another's figures; the file server runs in this process.
 * Run: npm run bench (or tsx bench/node-memory.ts).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { IExecuteFunctions, INodeType } from 'n8n-workflow';

import { registerNodeType } from '../test/support/nodeTypes';
import { runNode, withinNodeExecution } from '../test/support/nodeRun';
import type { InputItem } from '../test/support/nodeRun';
import { fixed, printTable } from './support/table';
import { createConversion } from '../test/support/jobParameters';
import { listenOnLoopback } from '../test/support/loopback';

// Named with its extension: tsx would otherwise resolve the extension-less path to the codex Embroidery.node.json.
const { Embroidery } =
	require('../nodes/Embroidery/Embroidery.node.ts') as typeof import('../nodes/Embroidery/Embroidery.node');

const mb = 1024 * 1024;
const outputBytes = 50 * mb;
const sourceCount = 10;
const sourceBytes = 5 * mb;
const chunk = Buffer.alloc(64 * 1024, 0x5a);
const fakeJobId = (n: number) => `01JBENCHMEMORY${String(n).padStart(12, '0')}`;

type Variant =
	| 'download-streamed'
	| 'download-streamed-200'
	| 'download-streamed-gc'
	| 'download-buffered'
	| 'upload-batch'
	| 'upload-buffered-copy';

interface ChildFigures {
	variant: Variant;
	seconds: number;
	rssBaseMb: number;
	rssPeakAddedMb: number;
	heapPeakAddedMb: number;
	externalPeakAddedMb: number;
	bytes: number;
}

/** The service side: a 50 MB signed download and a multipart job creation that drains and counts the upload. */
function serve(request: IncomingMessage, response: ServerResponse): void {
	if (request.url?.startsWith('/api/v1/uploads/')) {
		const size = Number(
			new URL(request.url, 'http://127.0.0.1').searchParams.get('size') ?? outputBytes,
		);
		response.writeHead(200, {
			'content-type': 'application/octet-stream',
			'content-length': String(size),
			'content-disposition': 'attachment; filename="order-1.pes"',
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
	let received = 0;
	request.on('data', (part: Buffer) => (received += part.length));
	request.on('end', () => {
		if (received < sourceCount * sourceBytes) {
			response.writeHead(422, { 'content-type': 'application/json' });
			return void response.end(
				JSON.stringify({ message: `only ${received} bytes arrived`, errors: {} }),
			);
		}
		const jobs = Array.from({ length: sourceCount }, (_, n) => ({
			id: fakeJobId(n),
			status: 'queued',
			workflow: 'conversion',
		}));
		response.writeHead(202, { 'content-type': 'application/json' });
		response.end(
			JSON.stringify({
				message: 'Accepted.',
				job: jobs[0],
				jobs,
				freeUsage: { previewRemaining: 0, creditBalance: 0 },
			}),
		);
	});
}

/** Samples resident and heap memory every 2 ms from `start` to `stop`. */
function memorySampler() {
	global.gc?.();
	const base = process.memoryUsage();
	const peak = { rss: base.rss, heap: base.heapUsed, external: base.external + base.arrayBuffers };
	const sample = () => {
		const now = process.memoryUsage();
		peak.rss = Math.max(peak.rss, now.rss);
		peak.heap = Math.max(peak.heap, now.heapUsed);
		peak.external = Math.max(peak.external, now.external + now.arrayBuffers);
	};
	const timer = setInterval(sample, 2);
	return () => {
		clearInterval(timer);
		sample();
		return {
			rssBaseMb: base.rss / mb,
			rssPeakAddedMb: (peak.rss - base.rss) / mb,
			heapPeakAddedMb: (peak.heap - base.heapUsed) / mb,
			externalPeakAddedMb: (peak.external - base.external - base.arrayBuffers) / mb,
		};
	};
}

/** The Embroidery node, measured from the moment n8n hands it its items (after the input node stored the sources). */
function measuredEmbroidery(
	onDone: (figures: ReturnType<ReturnType<typeof memorySampler>>) => void,
): INodeType {
	const real = new Embroidery();
	return {
		description: real.description,
		methods: real.methods,
		async execute(this: IExecuteFunctions) {
			const stop = memorySampler();
			try {
				return await real.execute.call(this);
			} finally {
				onDone(stop());
			}
		},
	};
}

async function runChild(variant: Variant, baseUrl: string): Promise<ChildFigures> {
	const credentials = { apiKey: 'bench-key-not-secret', baseUrl };
	const size = variant === 'download-streamed-200' ? 4 * outputBytes : outputBytes;
	const url = `${baseUrl}/uploads/${fakeJobId(0)}/download?expires=9999999999&signature=bench&size=${size}`;
	// Collecting often shows what the stream really holds: the rest of its peak is chunks already written, awaiting GC.
	const collector =
		variant === 'download-streamed-gc'
			? setInterval(() => global.gc?.({ type: 'minor' }), 10)
			: undefined;
	let figures: ReturnType<ReturnType<typeof memorySampler>> | undefined;
	registerNodeType(
		'bench.embroidery',
		measuredEmbroidery((measured) => (figures = measured)),
	);
	registerNodeType(
		'bench.copy',
		bufferingCopyNode((measured) => (figures = measured)),
	);
	const started = performance.now();
	let bytes = 0;
	if (variant.startsWith('download-streamed')) {
		const run = await runNode({
			nodeType: 'bench.embroidery',
			credentials,
			parameters: { resource: 'file', operation: 'download', url, binaryPropertyName: 'data' },
		});
		if (run.error) throw new Error(run.error.message);
		bytes = Number(run.items[0].binary?.data.bytes ?? 0);
	} else if (variant === 'download-buffered') {
		// What a download costs when the whole body is read into memory before it is handed to n8n.
		await withinNodeExecution(credentials, async (context) => {
			const stop = memorySampler();
			const body = (await context.helpers.httpRequestWithAuthentication.call(
				context,
				'embroideryApi',
				{
					method: 'GET',
					url,
					encoding: 'arraybuffer',
					json: false,
				},
			)) as ArrayBuffer;
			const stored = await context.helpers.prepareBinaryData(Buffer.from(body), 'order-1.pes');
			figures = stop();
			bytes = Number(stored.bytes ?? body.byteLength);
		});
	} else {
		const input: InputItem[] = Array.from({ length: sourceCount }, (_, n) => ({
			binary: {
				data: {
					data: Buffer.alloc(sourceBytes, n + 1),
					fileName: `order-${n + 1}.dst`,
					mimeType: 'application/octet-stream',
				},
			},
		}));
		if (variant === 'upload-batch') {
			const run = await runNode({
				nodeType: 'bench.embroidery',
				credentials,
				input,
				parameters: createConversion({ options: { batching: 'combine' } }),
			});
			if (run.error) throw new Error(run.error.message);
			bytes = sourceCount * sourceBytes;
		} else {
			// What holding every source twice (n8n's buffer plus a copy into the form) would cost.
			const run = await runNode({ nodeType: 'bench.copy', credentials, input, parameters: {} });
			if (run.error) throw new Error(run.error.message);
			bytes = sourceCount * sourceBytes;
		}
	}
	clearInterval(collector);
	if (!figures) throw new Error('nothing was measured');
	return { variant, seconds: (performance.now() - started) / 1000, bytes, ...figures };
}

/** A probe node that reads each source into memory and copies it, as a buffering upload would before sending. */
function bufferingCopyNode(
	onDone: (figures: ReturnType<ReturnType<typeof memorySampler>>) => void,
): INodeType {
	return {
		description: {
			displayName: 'Buffer Copy',
			name: 'bufferCopy',
			group: ['transform'],
			version: 1,
			description: 'Reads every source into memory',
			defaults: { name: 'Buffer Copy' },
			inputs: ['main'],
			outputs: ['main'],
			properties: [],
		},
		async execute(this: IExecuteFunctions) {
			const stop = memorySampler();
			const held: Uint8Array[] = [];
			for (let index = 0; index < this.getInputData().length; index++) {
				held.push(Uint8Array.from(await this.helpers.getBinaryDataBuffer(index, 'data')));
			}
			const form = new FormData();
			for (const [index, bytes] of held.entries())
				form.append(
					'files[]',
					new Blob([bytes as Uint8Array<ArrayBuffer>]),
					`order-${index + 1}.dst`,
				);
			await new Response(form).arrayBuffer();
			onDone(stop());
			return [[{ json: { held: held.length }, pairedItem: { item: 0 } }]];
		},
	};
}

async function childMain(variant: Variant, baseUrl: string): Promise<void> {
	const figures = await runChild(variant, baseUrl);
	process.stdout.write(`FIGURES ${JSON.stringify(figures)}\n`);
}

async function measureInChild(variant: Variant, baseUrl: string): Promise<ChildFigures> {
	const child = spawn(
		process.execPath,
		['--expose-gc', '--import', 'tsx', __filename, 'child', variant, baseUrl],
		{
			stdio: ['ignore', 'pipe', 'inherit'],
			env: { ...process.env, N8N_LOG_LEVEL: 'silent' },
		},
	);
	let output = '';
	child.stdout.on('data', (part: Buffer) => (output += part.toString()));
	const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
	const line = output.split('\n').find((text) => text.startsWith('FIGURES '));
	if (code !== 0 || !line) throw new Error(`The ${variant} child failed (exit ${code}): ${output}`);
	return JSON.parse(line.slice('FIGURES '.length)) as ChildFigures;
}

export async function nodeMemoryBenchmark(): Promise<void> {
	const server = createServer(serve);
	const { baseUrl, close } = await listenOnLoopback(server);
	const rows: ChildFigures[] = [];
	try {
		const variants: Variant[] = [
			'download-streamed',
			'download-streamed-200',
			'download-streamed-gc',
			'download-buffered',
			'upload-batch',
			'upload-buffered-copy',
		];
		for (const variant of variants) {
			rows.push(await measureInChild(variant, baseUrl));
		}
	} finally {
		await close();
	}
	const labels: Record<Variant, string> = {
		'download-streamed': 'download 50 MB, node (streamed)',
		'download-streamed-200': 'download 200 MB, node (streamed)',
		'download-streamed-gc': 'download 50 MB, node, minor GC every 10 ms',
		'download-buffered': 'download 50 MB, buffered variant',
		'upload-batch': 'upload 10 x 5 MB in one batch, node',
		'upload-buffered-copy': 'upload 10 x 5 MB, buffered copy variant',
	};
	printTable(
		'Memory of the process running the node (n8n-core execution, filesystem binary data), one child process per row',
		[
			'what',
			'MB moved',
			'seconds',
			'RSS before MB',
			'peak RSS added MB',
			'peak heap added MB',
			'peak buffers added MB',
		],
		rows.map((row) => [
			labels[row.variant],
			fixed(row.bytes / mb, 0),
			fixed(row.seconds, 2),
			fixed(row.rssBaseMb, 0),
			fixed(row.rssPeakAddedMb, 1),
			fixed(row.heapPeakAddedMb, 1),
			fixed(row.externalPeakAddedMb, 1),
		]),
		[
			'goal: a 50 MB download adds less than 32 MB to peak RSS',
			'sampled every 2 ms from the moment the node starts (after n8n stored the input sources)',
		],
	);
}

if (require.main === module) {
	const [mode, variant, baseUrl] = process.argv.slice(2);
	const main = mode === 'child' ? childMain(variant as Variant, baseUrl) : nodeMemoryBenchmark();
	main.catch((error: unknown) => {
		console.error(error);
		process.exitCode = 1;
	});
}
