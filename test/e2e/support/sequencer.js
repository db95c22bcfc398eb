/**
 * Jest's own order, except that the files sharing a served n8n (`openServedEnvironment` in
 * test/e2e/support/environment.ts) run one after another, first: a file that starts n8n of its own between two
 * of them would stop the served one, and the next would boot it again. First, because they mostly wait (a
 * stalled download's idle limit, a Stop during a wait's polls, the service's rate window): last, they were the
 * main lanes' final 90 s in `npm test`, after jest had ended, with the cores a quarter to a half busy. The files
 * that start n8n of their own (the browser journey, n8n's restart) keep the cores busy at the end instead.
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
			...ordered.filter((test) => isServed.get(test)),
			...ordered.filter((test) => !isServed.get(test)),
		];
	}
}

module.exports = ServedTogether;
