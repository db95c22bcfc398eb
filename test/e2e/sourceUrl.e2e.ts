/**
 * Job > Create from a Source URL in a real n8n (2.41.1 or 1.123.81): loopback links and a name the machine
 * resolves to loopback are refused by default, fetched with Allow Private Network Addresses on, and a
 * server that stalls mid-file ends the execution at the idle limit. Every server is on loopback.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import { join } from 'node:path';

import { examplesDir } from '../../scripts/examples';
import { nodeItems, type LocalN8n, type WorkflowRun } from '../../scripts/n8n';
import { createFromUrl } from '../support/jobParameters';
import { listenOnLoopback, type Loopback } from '../support/loopback';
import { e2eCredentials, n8nUnderTest, openServedEnvironment } from './support/environment';
import { embroideryStep, manualWorkflow } from './support/workflows';

const create = (sourceUrl: string, allowPrivateNetworks: boolean) =>
	embroideryStep(
		'Create',
		createFromUrl(sourceUrl, allowPrivateNetworks ? { allowPrivateNetworks: true } : {}),
		e2eCredentials.demo,
	);

describe(`Source URL in ${n8nUnderTest()}`, () => {
	let n8n: LocalN8n;
	let files: Loopback;
	const requests: string[] = [];
	const stalled = new Set<ServerResponse>();
	const errorOf = (result: WorkflowRun) => result.data.resultData.error;

	beforeAll(async () => {
		({ n8n } = await openServedEnvironment());
		const design = await readFile(join(examplesDir, 'files', 'Star.JEF'));
		files = await listenOnLoopback(
			createServer((request, response) => {
				requests.push(request.url ?? '');
				if (request.url === '/stall') {
					stalled.add(response);
					response.writeHead(200, {
						'content-type': 'application/octet-stream',
						'content-length': '100000',
					});
					response.write(Buffer.alloc(10, 1));
					return;
				}
				response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(design);
			}),
		);
		const port = files.port;
		await n8n.importWorkflows([
			manualWorkflow('e2eSourceUrlLit1', 'Source URL: loopback address', [
				create(`http://127.0.0.1:${port}/Star.JEF`, false),
			]),
			manualWorkflow('e2eSourceUrlName', 'Source URL: name on loopback', [
				create(`http://runsc:${port}/Star.JEF`, false),
			]),
			manualWorkflow('e2eSourceUrlAllo', 'Source URL: allowed', [
				create(`http://runsc:${port}/Star.JEF`, true),
			]),
			manualWorkflow('e2eSourceUrlStal', 'Source URL: stalled', [
				create(`http://127.0.0.1:${port}/stall`, true),
			]),
		]);
	});

	afterAll(async () => {
		for (const response of stalled) response.destroy();
		await files?.close();
	});

	it('refuses a loopback address before any request, naming the class and the option', async () => {
		requests.length = 0;
		const error = errorOf(await n8n.execute('e2eSourceUrlLit1'));
		expect(error?.message).toMatch(
			/is on 127\.0\.0\.1, a loopback address: not fetched \[item 0\]/,
		);
		expect(String(error?.description)).toContain('Allow Private Network Addresses');
		expect(requests).toHaveLength(0);
	});

	it(
		'refuses a name the machine resolves to loopback (n8n 2: resolved first; n8n 1: the socket ' +
			'that answered)',
		async () => {
			requests.length = 0;
			const error = errorOf(await n8n.execute('e2eSourceUrlName'));
			expect(error?.message).toMatch(
				new RegExp(
					"^The 'Source URL' http:\\/\\/runsc:\\d+\\/Star\\.JEF (resolves to|was " +
						'answered from) [\\d.:a-f]+, a loopback address',
				),
			);
			console.log(
				`${n8nUnderTest()}: ${error?.message} (file server saw ${requests.length} request(s))`,
			);
		},
	);

	it('fetches it with Allow Private Network Addresses on', async () => {
		const result = await n8n.execute('e2eSourceUrlAllo');
		expect(errorOf(result)).toBeUndefined();
		expect(nodeItems(result, 'Create')[0].json).toEqual(
			expect.objectContaining({ sourceFile: 'Star.JEF' }),
		);
	});

	it('ends a server that sends 10 of 100000 bytes and stalls, at the idle limit', async () => {
		const started = Date.now();
		const error = errorOf(await n8n.execute('e2eSourceUrlStal'));
		const took = Date.now() - started;
		console.log(`${n8nUnderTest()}: stalled Source URL ended after ${took} ms`);
		expect(error?.message).toMatch(/stopped sending: no data for 30 s \[item 0\]/);
		expect(took).toBeLessThan(90_000);
	}, 150_000);
});
