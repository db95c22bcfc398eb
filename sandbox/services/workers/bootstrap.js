// Worker threads start outside tsx and jest, so this plain-JS entry teaches them TypeScript first,
// then loads the thread body named in workerData (the engine's by default).
require('tsx/cjs/api').register();
require(require('node:worker_threads').workerData?.entry ?? './worker.ts');
