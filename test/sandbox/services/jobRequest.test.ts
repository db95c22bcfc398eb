import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ValidationError } from '../../../sandbox/services/errors';
import {
	checkJobRequest,
	type IncomingSource,
	type JobRequest,
} from '../../../sandbox/services/jobRequest';
import { inspectSource } from '../../../sandbox/services/workers/inspection';
import { fixture } from '../../support/embroideryFiles';

// The request check alone: real files on disk, no database, no HTTP, no worker thread.
let dir: string;
beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), 'job-request-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function source(
	name: string,
	bytes: Buffer,
	field: IncomingSource['field'] = 'file',
): IncomingSource {
	const tempPath = join(dir, `${Math.random()}-${name}`);
	writeFileSync(tempPath, bytes);
	return { field, fileName: name, tempPath, size: bytes.length };
}

async function errorsOf(request: JobRequest): Promise<Record<string, string[]>> {
	const failure = await checkJobRequest(request, inspectSource).catch((error) => error);
	expect(failure).toBeInstanceOf(ValidationError);
	return (failure as ValidationError).errors;
}

describe('checkJobRequest', () => {
	it('accepts a conversion request and says what each source is, with its checksum', async () => {
		const checked = await checkJobRequest(
			{
				fields: { workflow: 'conversion', format: ' PES ' },
				sources: [
					source('Star.DST', fixture('Star.DST'), 'files'),
					source('Star.EXP', fixture('Star.EXP'), 'files'),
				],
			},
			inspectSource,
		);
		expect(checked).toMatchObject({ workflow: 'conversion', format: 'pes', filesField: 'files' });
		expect(checked.sources.map((one) => one.inspection.kind)).toEqual(['dst', 'exp']);
		expect(checked.sources[0].inspection.checksum).toMatch(/^[0-9a-f]{64}$/);
		expect(checked.options).toEqual({
			widthMm: null,
			colourCount: null,
			paletteKey: null,
			maximumStitchCount: null,
		});
	});

	it('collects every problem of a request into one ValidationError', async () => {
		expect(await errorsOf({ fields: {}, sources: [] })).toEqual({
			workflow: ['The workflow field is required.'],
			file: ['Send a source file as "file", or 1 to 10 files as "files[]".'],
			format: ['The format field is required.'],
		});
		const errors = await errorsOf({
			fields: { workflow: 'conversion', format: 'dst' },
			sources: [
				source('Star.DST', fixture('Star.DST')),
				{ field: 'file', fileName: 'huge.dst', tempPath: '', size: 0, truncatedAt: 50 << 20 },
			],
		});
		expect(errors.file).toEqual([
			'The "file" field takes one file; send several as "files[]".',
			'huge.dst is larger than 50 MB, the conversion limit per file.',
		]);
		expect(errors.format).toEqual([expect.stringMatching(/must differ from the source format/)]);
	});

	it('reports a source the inspection cannot read under its field', async () => {
		const errors = await errorsOf({
			fields: { workflow: 'conversion', format: 'pes' },
			sources: [{ field: 'file', fileName: 'gone.dst', tempPath: join(dir, 'missing'), size: 3 }],
		});
		expect(errors.file).toEqual([expect.stringMatching(/^gone\.dst could not be inspected \(/)]);
	});
});
