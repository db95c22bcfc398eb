/**
 * jest's Node environment, with a test file's globals on an ordinary object instead of an intercepted one.
 *
 * jest-environment-node 30 runs each test file in a vm context made from a Proxy (it records what a file sets
 * on its globals, to delete it at teardown). V8 reaches every global of such a context (`Math`, `Int32Array`,
 * `Error`, `Buffer`) through an interceptor and the Proxy, on every use, without caching it: a hot loop that
 * calls `Math.max` or builds a typed array ran 130 times slower than in plain Node (the engine's readers, the
 * needle-path comparison of the fuzz tests: 556 s against 10 s). `vm.constants.DONT_CONTEXTIFY` (Node 22.8)
 * makes a context whose global is an ordinary object, which V8 optimises as it does Node's own; the
 * environment is otherwise jest's, unchanged (its globals, fake timers, module mocker).
 *
 * What a file leaves on its globals goes when its context does (nothing else holds it); jest's teardown
 * finds nothing of its own to delete, since it never sees the Proxy's records.
 */
const { rm } = require('node:fs/promises');
const vm = require('node:vm');
const { TestEnvironment } = require('jest-environment-node');

if (vm.constants?.DONT_CONTEXTIFY === undefined) {
	throw new Error(
		`The tests need vm.constants.DONT_CONTEXTIFY, which Node ${process.version} lacks (22.8 and later ` +
			'have it): run them through npm test or npm run test:unit, which bootstrap Node 24.',
	);
}

class OrdinaryGlobalsEnvironment extends TestEnvironment {
	constructor(config, context) {
		// jest's constructor asks node:vm for the context, once, from inside super(): for that one call it gets
		// a context with an ordinary global. Nothing else runs in between (the constructor is synchronous).
		const createContext = vm.createContext;
		vm.createContext = () => createContext(vm.constants.DONT_CONTEXTIFY);
		try {
			super(config, context);
		} finally {
			vm.createContext = createContext;
		}
	}

	/**
	 * The temporary n8n folder a file's node runs kept their binary data in (test/support/binaryData.ts) goes with
	 * the file: outside `npm test`, whose own temporary folder goes at its end, each file left one in the system's
	 * (up to 71 MB, where a test moves a 50 MB file).
	 */
	async teardown() {
		const folder = this.global.process?.env?.EMBROIDERY_TEST_N8N_FOLDER;
		await super.teardown();
		if (folder) await rm(folder, { recursive: true, force: true });
	}
}

module.exports = OrdinaryGlobalsEnvironment;
