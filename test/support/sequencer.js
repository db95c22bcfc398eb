/**
 * Jest's own order, longest file first, also on a clone that has no timings yet: jest knows a file's duration
 * only from an earlier run on the same machine and otherwise goes by file size, which on a clean clone started
 * test/bench/fuzz.test.ts (36 s) among the last files, so it ran on alone at the end. test/durations.json
 * holds each file's seconds from a whole run (`node scripts/test-durations.mjs <jest --json results>` writes it
 * anew); a file it does not name is ordered by jest as before.
 */
const { default: Sequencer } = require('@jest/test-sequencer');
const { relative } = require('node:path');

const measuredSeconds = require('../durations.json');

class LongestFirst extends Sequencer {
	time(test) {
		const known = super.time(test);
		if (known !== undefined) return known;
		const file = relative(test.context.config.rootDir, test.path).split('\\').join('/');
		const seconds = measuredSeconds[file];
		return seconds === undefined ? undefined : seconds * 1000;
	}
}

module.exports = LongestFirst;
