// Worker threads start outside tsx and jest, so this plain-JS entry teaches them TypeScript first.
require('tsx/cjs/api').register();
require('./worker.ts');
