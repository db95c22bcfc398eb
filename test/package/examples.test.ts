/** The example workflows as the scripts and suites name them: every id in `exampleIds` is an example's own. */
import { exampleIds, readExamples } from '../../scripts/examples';

describe('examples/', () => {
	it(
		'holds one workflow per id the scripts and suites use, each id short enough for n8n 1.x to ' +
			'keep poll state',
		async () => {
			const ids = (await readExamples()).map((example) => example.workflow.id);
			expect([...ids].sort()).toEqual(Object.values(exampleIds).sort());
			for (const id of ids) expect(id.length).toBeLessThanOrEqual(16);
		},
	);
});
