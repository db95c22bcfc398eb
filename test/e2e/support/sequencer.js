/**
 * Jest's own order, except that the files sharing a served n8n (`openServedEnvironment` in
 * test/e2e/support/environment.ts) run one after another: a file that starts n8n of its own between two of
 * them would stop the served one, and the next would boot it again. They run last in n8n 2.x's main lane and
 * first in n8n 1.x's: `npm test` runs both lanes (and queue mode) side by side on two cores, and the served
 * files mostly wait on jobs while the others (the journey's Chromium, the examples' fresh boots) are busy.
 * In the same order both lanes waited at the same time, at the end, with the cores half idle for two minutes.
 */
const { default: Sequencer } = require('@jest/test-sequencer');
const { readFileSync } = require('node:fs');

/** A file that opens only the served environment (n8n.e2e.ts opens both, to test how they meet). */
const served = (test) => {
	const source = readFileSync(test.path, 'utf8');
	return source.includes('openServedEnvironment(') && !source.includes('openEnvironment(');
};

/** Whether this run's served files go first: n8n 1.x's (EMBROIDERY_E2E_ENV, set by test/e2e/run.sh). */
const servedFirst = () => process.env.EMBROIDERY_E2E_ENV === 'n8n1';

class ServedTogether extends Sequencer {
	sort(tests) {
		const ordered = super.sort(tests);
		const isServed = new Map(ordered.map((test) => [test, served(test)]));
		const servedFiles = ordered.filter((test) => isServed.get(test));
		const others = ordered.filter((test) => !isServed.get(test));
		return servedFirst() ? [...servedFiles, ...others] : [...others, ...servedFiles];
	}
}

module.exports = ServedTogether;
