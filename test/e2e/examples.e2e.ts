/** The example workflows in examples/*.json, imported as they ship and run in n8n with `n8n execute`. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { importExamples, exampleFolders, runExample, type ExampleFolders } from '../../scripts/demo';
import { readExamples } from '../../scripts/examples';
import type { LocalN8n, WorkflowExport } from '../../scripts/n8n';
import { measurePattern, readPattern } from '../../sandbox/engine';
import { openEnvironment } from './support/environment';

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('the example workflows', () => {
	let n8n: LocalN8n;
	let root: string;
	let folders: ExampleFolders;
	let workflows: Map<string, WorkflowExport>;

	beforeAll(async () => {
		const environment = await openEnvironment();
		({ n8n, root } = environment);
		folders = exampleFolders(join(environment.filesDir, 'examples'));
		const examples = await readExamples();
		const imported = await importExamples(n8n, examples, environment.sandbox, folders);
		workflows = new Map(examples.map(({ slug }, index) => [slug, imported[index]]));
	});

	it('converts the sample JEF design to DST: upload, wait, unlock, download, save', async () => {
		const slug = 'convert-embroidery-file';
		const { outcome } = await runExample(n8n, slug, workflows.get(slug)!, join(root, 'demo'));

		expect(outcome.error).toBeUndefined();
		expect(outcome.status).toBe('success');
		expect(outcome.jobs).toEqual([expect.objectContaining({ workflow: 'conversion', status: 'completed', downloadsUnlocked: true })]);
		const machineFile = outcome.files.find((file) => file.field === 'data')!;
		expect(machineFile.fileName).toMatch(/\.dst$/i);
		const bytes = await readFile(machineFile.path);
		const source = readPattern(await readFile(join(folders.inbox, 'Star.JEF')), 'jef');
		expect(measurePattern(readPattern(bytes, 'dst')).stitchCount).toBeGreaterThanOrEqual(measurePattern(source).stitchCount * 0.95);
		expect(await readFile(join(folders.delivered(slug), machineFile.fileName))).toEqual(bytes);
		const preview = outcome.files.find((file) => file.field === 'preview')!;
		expect((await readFile(preview.path)).subarray(0, 8)).toEqual(pngSignature);
	});

	it('digitises the sample order at 80 mm in at most 3 colours and saves the PES for production', async () => {
		const slug = 'shop-order-to-machine-file';
		const { outcome } = await runExample(n8n, slug, workflows.get(slug)!, join(root, 'demo'));

		expect(outcome.error).toBeUndefined();
		expect(outcome.jobs).toEqual([expect.objectContaining({ workflow: 'digitising', status: 'completed', downloadsUnlocked: true })]);
		const saved = await readFile(join(folders.delivered(slug), 'order-SAMPLE-1001.pes'));
		const metrics = measurePattern(readPattern(saved, 'pes'));
		expect(metrics.widthMm).toBeGreaterThan(70);
		expect(metrics.widthMm).toBeLessThanOrEqual(81);
		expect(metrics.colourCount).toBeGreaterThanOrEqual(1);
		expect(metrics.colourCount).toBeLessThanOrEqual(3);
		expect(metrics.stitchCount).toBeGreaterThan(100);
	});
});
