/**
 * Jest's own order, except that the files sharing a served n8n (`openServedEnvironment` in
 * test/e2e/support/environment.ts) run one after another, last: a file that starts n8n of its own between two
 * of them would stop the served one, and the next would boot it again.
 */
const { default: Sequencer } = require('@jest/test-sequencer');
const { readFileSync } = require('node:fs');

/** A file that opens only the served environment (n8n.e2e.ts opens both, to test how they meet). */
const served = (test) => {
	const source = readFileSync(test.path, 'utf8');
	return source.includes('openServedEnvironment(') && !source.includes('openEnvironment(');
};

class ServedTogether extends Sequencer {
	sort(tests) {
		const ordered = super.sort(tests);
		const isServed = new Map(ordered.map((test) => [test, served(test)]));
		return [
			...ordered.filter((test) => !isServed.get(test)),
			...ordered.filter((test) => isServed.get(test)),
		];
	}
}

module.exports = ServedTogether;
