/** The end-to-end suite: a real n8n 2.41.1 and the sandbox, as processes on loopback ports (npm run test:e2e). */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', isolatedModules: true }],
	},
	globalSetup: '<rootDir>/test/e2e/support/global-setup.ts',
	// Every n8n command is a separate process of a few seconds; waits inside are bounded separately.
	testTimeout: 300000,
	maxWorkers: 1,
};
