/**
 * The digitise example (examples/digitise-artwork.json), imported as it ships into the lane's running n8n and run
 * there as the editor's "Execute workflow" runs it: the sample logo is digitised at the Settings' width and
 * colours, unlocked, and saved with its preview.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { exampleFolders, importExamples, runExample } from '../../scripts/demo';
import { readExamples } from '../../scripts/examples';
import { measurePattern, readPattern } from '../../sandbox/engine';
import { openServedEnvironment } from './support/environment';

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('the digitise example', () => {
	it('digitises the sample logo to PES at 80 mm in at most 4 colours, and saves it with its preview', async () => {
		const environment = await openServedEnvironment();
		const { n8n, root } = environment;
		const folders = exampleFolders(join(environment.filesDir, 'digitise-example'));
		const slug = 'digitise-artwork';
		const examples = (await readExamples()).filter((example) => example.slug === slug);
		const [workflow] = await importExamples(n8n, examples, environment.sandbox, folders);

		const { outcome } = await runExample(n8n, slug, workflow, join(root, 'demo-digitise'));

		expect(outcome.error).toBeUndefined();
		expect(outcome.status).toBe('success');
		expect(outcome.jobs).toEqual([
			expect.objectContaining({
				workflow: 'digitising',
				status: 'completed',
				downloadsUnlocked: true,
			}),
		]);
		const machineFile = outcome.files.find((file) => file.field === 'data')!;
		expect(machineFile.fileName).toMatch(/\.pes$/i);
		const bytes = await readFile(join(folders.delivered(slug), machineFile.fileName));
		const metrics = measurePattern(readPattern(bytes, 'pes'));
		expect(metrics.stitchCount).toBeGreaterThan(100);
		expect(metrics.colourCount).toBeLessThanOrEqual(4);
		expect(Math.abs(metrics.widthMm - 80)).toBeLessThan(8);
		const preview = outcome.files.find((file) => file.field === 'preview')!;
		expect(
			(await readFile(join(folders.delivered(slug), preview.fileName))).subarray(0, 8),
		).toEqual(pngSignature);
	}, 300_000);
});
