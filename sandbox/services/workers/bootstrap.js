// Engine processes and inspection threads start outside tsx and jest, so this plain-JS entry teaches
// them TypeScript first, then loads the body named in workerData (the engine process's when none is).
require('tsx/cjs/api').register();
require(require('node:worker_threads').workerData?.entry ?? './worker.ts');
