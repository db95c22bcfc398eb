/**
 * A reader's warnings reach the job (issue 40): a DST that ends without its END record converts, and the
 * job says how much of the design was read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { processJob } from '../../../../sandbox/services/workers/processJob';
import { fixture } from '../../../support/embroideryFiles';
import { engineTask } from '../../support/engineTasks';

describe('processJob', () => {
	let dir: string;
	beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'process-job-'))));
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	const conversion = (bytes: Uint8Array, sourceFileName: string, sourceFormat: string) =>
		engineTask(dir, 'job-1', bytes, { sourceFileName, sourceFormat, format: 'exp' });

	it("passes the reader's warning on: a DST without its END record converts and says it ends early", async () => {
		const star = new Uint8Array(fixture('Star.DST'));
		const result = await processJob(
			conversion(star.subarray(0, star.length - 3), 'cut.dst', 'dst'),
		);
		expect(result.ok).toBe(true);
		expect(result.warnings).toContainEqual(
			expect.stringMatching(
				/^The file ends early \(without its END record\): read [\d,]+ stitches, 2,566 of the 2,567 records/,
			),
		);
	});

	it('fails a design with no stitches instead of completing it', async () => {
		const star = new Uint8Array(fixture('Star.DST'));
		const empty = star.slice(0, 512 + 3);
		empty.set([0, 0, 0xf3], 512);
		const result = await processJob(conversion(empty, 'empty.dst', 'dst'));
		expect(result).toMatchObject({ ok: false, failureCode: 'unreadable_source' });
	});
});
