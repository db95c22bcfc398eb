import {
	kindOf,
	parseAccounting,
	recordListing,
	summarise,
	tierStartedBy,
	type SeenProcess,
} from '../../bench/test-cpu';

/**
 * A line as Debian's dump-acct 6.6 prints it: name | version | user | system | elapsed | uid | gid | memory |
 * io | pid | ppid | flags | exit | tty | start, times in hundredths of a second.
 */
function record(name: string, user: number, system: number, pid: number, ppid: number): string {
	const field = (value: number, width: number) => value.toFixed(2).padStart(width);
	return [
		name.padEnd(16),
		'v3',
		field(user, 9),
		field(system, 9),
		field(user + system + 500, 9),
		'     0',
		'     0',
		field(409024, 9),
		field(67840, 9),
		String(pid).padStart(8),
		String(ppid).padStart(8),
		'     ',
		'       0',
		'__      ',
		'Mon Nov 30 15:25:46 2026',
	].join('|');
}

const dump = [
	record('MainThread', 5000, 1000, 300, 200),
	record('node', 1800, 200, 401, 400),
	record('node', 350, 50, 402, 400),
	record('node', 100, 20, 403, 1),
	record('chromium', 6000, 1500, 501, 500),
	record('tsc', 3000, 800, 601, 600),
	record('sleep', 0, 0, 700, 100),
].join('\n');

// `ps -eo pid,ppid,args --no-headers` as sampled during the run: the lane's tree (400's child 403 was later
// reparented to init), a browser under the main lane, the type check, a nested npm test inside the
// real-time lane.
const listing = [
	'  100     1 bash scripts/test.sh',
	'  200   100 npm run jest --ci --json --outputFile=/tmp/x/results/jest.json',
	'  300   200 node /repo/node_modules/jest-worker/build/processChild.js',
	'  390   100 bash test/e2e/run.sh --parallel --lane=realtime --only=n8n2',
	'  395   390 bash scripts/test.sh',
	'  396   395 bash test/e2e/run.sh --parallel --lane=main --only=n8n2',
	'  400   396 node /repo/node_modules/.bin/jest -c test/e2e/jest.config.js',
	'  401   400 /cache/node24/bin/node /cache/n8n-2.41.1/node_modules/n8n/bin/n8n start',
	'  402   400 /cache/node24/bin/node /cache/n8n-2.41.1/node_modules/n8n/bin/n8n import:workflow --input=x',
	'  403   400 /cache/node24/bin/node --max-old-space-size=1024 /repo/sandbox/services/workers/bootstrap.js',
	'  490   100 bash test/e2e/run.sh --parallel --lane=main --only=n8n1',
	'  500   490 node /repo/node_modules/.bin/jest -c test/e2e/jest.config.js',
	'  501   500 /usr/lib/chromium/chromium --type=renderer',
	'  590   100 npm run typecheck',
	'  600   590 node /repo/node_modules/typescript/bin/tsc -p tsconfig.test.json --noEmit',
].join('\n');

describe('npm test CPU by process accounting (bench/test-cpu.ts)', () => {
	it('reads every accounted process with its user and system time in seconds', () => {
		const processes = parseAccounting(`${dump}\nnot a record\n`);
		expect(processes).toHaveLength(7);
		expect(processes[0]).toEqual({ pid: 300, ppid: 200, command: 'MainThread', cpuSeconds: 60 });
		expect(processes.find(({ pid }) => pid === 403)?.cpuSeconds).toBeCloseTo(1.2);
	});

	it('keeps the first parent and command line ps saw for a process', () => {
		const seen = new Map<number, SeenProcess>();
		recordListing(listing, seen);
		recordListing('  403     1 /cache/node24/bin/node something else', seen);
		expect(seen.get(403)).toEqual({
			ppid: 400,
			args: '/cache/node24/bin/node --max-old-space-size=1024 /repo/sandbox/services/workers/bootstrap.js',
		});
		expect(seen.size).toBe(15);
	});

	it('names the tiers scripts/test.sh and test/e2e/run.sh start', () => {
		expect(tierStartedBy('npm run lint')).toBe('lint');
		expect(tierStartedBy('npm run typecheck')).toBe('typecheck');
		expect(tierStartedBy('npx jest --ci --json --outputFile=x')).toBe('jest');
		expect(tierStartedBy('bash test/e2e/run.sh --parallel --lane=realtime --only=n8n1')).toBe(
			'n8n1 realtime',
		);
		expect(tierStartedBy('bash test/e2e/run.sh --parallel --lane=realtime --only=queue')).toBe(
			'queue',
		);
		expect(tierStartedBy('npm run lintish')).toBeNull();
		expect(tierStartedBy('bash scripts/test.sh')).toBeNull();
	});

	it('tells the kinds of process apart', () => {
		expect(kindOf('/x/node /cache/n8n-1.123.81/node_modules/n8n/bin/n8n start', 'node')).toBe(
			'n8n start',
		);
		expect(kindOf('/x/node /cache/n8n/bin/n8n update:workflow --all', 'node')).toBe(
			'n8n update:workflow',
		);
		expect(kindOf('/usr/lib/chromium/chromium --type=gpu-process', 'chromium')).toBe('chromium');
		expect(kindOf('', 'chrome_crashpad')).toBe('chromium');
		expect(kindOf('node /repo/node_modules/jest-worker/build/processChild.js', 'MainThread')).toBe(
			'jest worker',
		);
		expect(kindOf('node /repo/sandbox/services/workers/bootstrap.js', 'node')).toBe(
			'engine process',
		);
		expect(kindOf('', 'sleep')).toBe('sleep');
	});

	it('sums the CPU by the outermost tier above each process, a reparented one too', () => {
		const seen = new Map<number, SeenProcess>();
		recordListing(listing, seen);
		const summary = summarise(parseAccounting(dump), seen);
		expect(summary.totalSeconds).toBeCloseTo(60 + 20 + 4 + 1.2 + 75 + 38);
		// The nested run's main lane (396) lies inside n8n2's real-time lane (390): counted there.
		const lane = summary.byTier.get('n8n2 realtime');
		expect(lane?.cpuSeconds).toBeCloseTo(25.2);
		expect(lane?.processes).toBe(3);
		expect(lane?.kinds.get('engine process')).toBeCloseTo(1.2);
		expect(summary.byTier.get('n8n2 main')).toBeUndefined();
		expect(summary.byTier.get('n8n1 main')?.kinds.get('chromium')).toBeCloseTo(75);
		expect(summary.byTier.get('jest')?.kinds.get('jest worker')).toBeCloseTo(60);
		expect(summary.byTier.get('typecheck')?.cpuSeconds).toBeCloseTo(38);
		// sleep (700) ran under scripts/test.sh itself, in no tier.
		expect(summary.byTier.get('other')?.cpuSeconds).toBe(0);
		expect(summary.byKind.get('n8n start')).toEqual({ cpuSeconds: 20, processes: 1, largest: 20 });
	});
});
