/**
 * The end-to-end suite: the sandbox and a real n8n (2.41.1 or 1.123.81, picked by test/e2e/run.sh),
 * its CLI and server as child processes, on loopback ports.
 */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	// The same transform cache whatever TMPDIR scripts/test.sh sets for its run.
	cacheDirectory: require('../support/cacheDirectory'),
	// jest's own output, and one progress line (files and tests done, seconds) where jest shows none: logs, CI.
	reporters: ['default', '<rootDir>/test/support/progressReporter.js'],
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.ts'],
	// Transpile only (ts-jest, test/support/transform.js); `npm run typecheck` checks the types once.
	transform: require('../support/transform'),
	// The files that share a running n8n run one after another.
	testSequencer: '<rootDir>/test/e2e/support/sequencer.js',
	globalSetup: '<rootDir>/test/e2e/support/global-setup.ts',
	globalTeardown: '<rootDir>/test/e2e/support/global-teardown.ts',
	// Every n8n command is a separate process of a few seconds; waits inside are bounded separately.
	testTimeout: 300000,
	maxWorkers: 1,
	verbose: true,
};
