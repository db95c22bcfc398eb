/**
 * The example workflows in examples/*.json, made ready for one local n8n: every Embroidery node
 * points at the given credential, and their folder settings at folders of this machine.
 */
import { createHmac } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { basename, join } from 'node:path';

import type { CredentialExport, WorkflowExport } from './n8n';
import { freePort, repoRoot } from './n8n';

export const examplesDir = join(repoRoot, 'examples');
/** The ids the example workflows carry (n8n 1.x keeps a trigger's poll state only for ids of up to 16 characters). */
export const exampleIds = {
	conversion: 'embroideryExConv',
	digitising: 'embroideryExDigi',
	finishedJobs: 'embroideryExJobs',
	shopOrder: 'embroideryExShop',
	shopify: 'embroideryShopif',
	wooCommerce: 'embroideryWooCom',
} as const;
/**
 * What the shop workflows need on this machine: the webhook secret their Verify signature node checks
 * (the shipped placeholder is refused by the workflows themselves) and the artwork hosts they accept
 * (the sample files are served on loopback).
 */
export const localShop = {
	webhookSecret: 'local-shop-webhook-secret',
	artworkHosts: '127.0.0.1',
} as const;

/** The signature the shop workflows check: base64 HMAC-SHA256 of the raw body (Shopify's and WooCommerce's scheme). */
export function signBody(
	rawBody: string | Buffer,
	secret: string = localShop.webhookSecret,
): string {
	return createHmac('sha256', secret).update(rawBody).digest('base64');
}
export const embroideryNodeTypes = [
	'n8n-nodes-embroidery.embroidery',
	'n8n-nodes-embroidery.embroideryTrigger',
];

export interface Example {
	/** File name without .json, e.g. "convert-embroidery-file". */
	slug: string;
	workflow: WorkflowExport;
}

export async function readExamples(): Promise<Example[]> {
	const files = (await readdir(examplesDir)).filter((file) => file.endsWith('.json')).sort();
	return await Promise.all(
		files.map(async (file) => ({
			slug: file.replace(/\.json$/, ''),
			workflow: JSON.parse(await readFile(join(examplesDir, file), 'utf8')) as WorkflowExport,
		})),
	);
}

/** The credential the sandbox's demo account needs in n8n. */
export function sandboxCredential(
	sandbox: { baseUrl: string; demoKey: string },
	id = 'embroideryDemo01',
	name = 'Embroidery sandbox (demo account)',
): CredentialExport {
	return {
		id,
		name,
		type: 'embroideryApi',
		data: { apiKey: sandbox.demoKey, baseUrl: sandbox.baseUrl },
	};
}

export function useCredential(
	workflow: WorkflowExport,
	credential: Pick<CredentialExport, 'id' | 'name'>,
): WorkflowExport {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			embroideryNodeTypes.includes(node.type)
				? { ...node, credentials: { embroideryApi: { id: credential.id, name: credential.name } } }
				: node,
		),
	};
}

interface Assignment {
	name: string;
	value: unknown;
}

/**
 * Gives the examples' folder fields (sourceFile, deliveryFolder, noticeFolder: plain values in their
 * Settings or Order node, the one place users edit an example) the values of this machine, and the
 * shop workflows the local webhook secret and artwork hosts (`localShop`, unless `values` names others).
 */
export function withLocalValues(
	workflow: WorkflowExport,
	localValues: Record<string, string>,
): WorkflowExport {
	const values: Record<string, string> = { artworkHosts: localShop.artworkHosts, ...localValues };
	const secret = values.webhookSecret ?? localShop.webhookSecret;
	return {
		...workflow,
		nodes: workflow.nodes.map((node) => {
			if (node.type === 'n8n-nodes-base.crypto' && node.parameters.action === 'hmac') {
				return { ...node, parameters: { ...node.parameters, secret } };
			}
			if (node.type !== 'n8n-nodes-base.set') return node;
			const assignments = (node.parameters.assignments as { assignments: Assignment[] } | undefined)
				?.assignments;
			if (!assignments?.some((assignment) => assignment.name in values)) return node;
			const updated = assignments.map((assignment) =>
				assignment.name in values ? { ...assignment, value: values[assignment.name] } : assignment,
			);
			return { ...node, parameters: { ...node.parameters, assignments: { assignments: updated } } };
		}),
	};
}

export function hasManualTrigger(workflow: WorkflowExport): boolean {
	return workflow.nodes.some((node) => node.type === 'n8n-nodes-base.manualTrigger');
}

/** Serves examples/files (the sample artwork) so orders can point their artworkUrl at it. */
export async function serveSampleFiles(
	preferredPort = 0,
): Promise<{ server: Server; url: string }> {
	const folder = join(examplesDir, 'files');
	const server = createServer((request, response) => {
		const file = join(
			folder,
			basename(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)),
		);
		if (!existsSync(file) || file === folder) {
			response.writeHead(404).end('Not found');
			return;
		}
		const type = file.endsWith('.svg') ? 'image/svg+xml' : 'application/octet-stream';
		response.writeHead(200, { 'content-type': type });
		createReadStream(file).pipe(response);
	});
	const port = await freePort(preferredPort);
	await new Promise<void>((resolveListen) => server.listen(port, '127.0.0.1', resolveListen));
	return { server, url: `http://127.0.0.1:${port}` };
}
