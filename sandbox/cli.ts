import { parseArgs } from 'node:util';

import { removeControlAccess, writeControlAccess } from './controlAccess';
import { startSandbox } from './index';

const usage = `Usage: npm run sandbox -- [options]
  --host HOST               listen address (default 127.0.0.1)
  --port PORT               port, 0 for any free one (default 8787)
  --data DIR                keep state in DIR across restarts (default: a temporary folder)
  --admin-token TOKEN       token for the /__sandbox control API (default: stable per data folder)
  --demo-key KEY            API key of the demo account (default: stable per data folder)
  --signed-url-ttl SECONDS  lifetime of signed file URLs (default 600)
  --source-ttl SECONDS      how long source uploads stay retryable (default 86400)
  --workers N               engine worker threads (default 2)
  --worker-memory MB        heap ceiling of each engine thread (default 1024)
  --network-rate-limit N    v1 requests per minute per client address, whatever the key (default 1200, 0 = off)
  --log                     log every request`;

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			host: { type: 'string' },
			port: { type: 'string' },
			data: { type: 'string' },
			'admin-token': { type: 'string' },
			'demo-key': { type: 'string' },
			'signed-url-ttl': { type: 'string' },
			'source-ttl': { type: 'string' },
			workers: { type: 'string' },
			'worker-memory': { type: 'string' },
			'network-rate-limit': { type: 'string' },
			log: { type: 'boolean' },
			help: { type: 'boolean', short: 'h' },
		},
	});
	if (values.help) {
		console.log(usage);
		return;
	}
	const sandbox = await startSandbox({
		host: values.host,
		port: integer(values.port, '--port'),
		dataDir: values.data,
		adminToken: values['admin-token'],
		demoKey: values['demo-key'],
		signedUrlTtlSeconds: integer(values['signed-url-ttl'], '--signed-url-ttl'),
		sourceTtlSeconds: integer(values['source-ttl'], '--source-ttl'),
		workers: integer(values.workers, '--workers'),
		workerMemoryMb: integer(values['worker-memory'], '--worker-memory'),
		networkRateLimit: integer(values['network-rate-limit'], '--network-rate-limit'),
		logRequests: values.log,
	});
	let stopping = false;
	const stop = (signal: string) => {
		// A signal repeated while closing (a second Ctrl+C, a supervisor's retry) must not cut the close short.
		if (stopping) return;
		stopping = true;
		console.log(`\n${signal}: giving running jobs 3 s, then stopping the engine and closing...`);
		// Never outlive a stop request by more than a few seconds, whatever holds the close up.
		setTimeout(() => {
			console.error('The sandbox did not close within 10 s; exiting anyway.');
			process.exit(1);
		}, 10_000).unref();
		removeControlAccess(sandbox.dataDir);
		sandbox.close().then(
			() => process.exit(0),
			(error: Error) => {
				console.error(error);
				process.exit(1);
			},
		);
	};
	// Claimed before the record is written and the start-up lines printed: until Node has a handler, a signal
	// ends the process at once and would leave the record behind.
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
	writeControlAccess(sandbox.dataDir, sandbox);
	console.log(`Embroidery sandbox running.
  Base URL:     ${sandbox.baseUrl}
  Demo API key: ${sandbox.demoKey}   (all four abilities, demo account with credits)
  Admin token:  ${sandbox.adminToken}   (header X-Sandbox-Admin on ${sandbox.origin}/__sandbox)
  Sign-in link: ${sandbox.signInLink()}
                (the demo account's pages: API keys, usage, recent jobs; use it once, within 15 minutes;
                a new one at any time: npm run sign-in-link -- --data ${sandbox.dataDir})
  Data:         ${sandbox.dataDir}${values.data ? '' : '   (temporary, removed on exit; use --data DIR to keep it)'}
Press Ctrl+C to stop.`);
	// performance.now() counts from this process's start; one process per core warms up first (docs/sandbox.md).
	void sandbox
		.enginesReady()
		.then(() =>
			console.log(
				`Engine processes ready, ${(performance.now() / 1000).toFixed(1)} s after start.`,
			),
		);
}

function integer(value: string | undefined, flag: string): number | undefined {
	if (value === undefined) return undefined;
	if (!/^\d+$/.test(value)) {
		console.error(`${flag} needs a whole number, got "${value}".\n\n${usage}`);
		process.exit(2);
	}
	return Number(value);
}

main().catch((error: Error) => {
	console.error(`The sandbox could not start: ${error.message}`);
	process.exit(1);
});
