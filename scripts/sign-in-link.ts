/**
 * `npm run sign-in-link`: a fresh one-time sign-in link to the running sandbox's account pages (API keys,
 * usage, recent jobs), from the sandbox `npm start` (or `npm run sandbox -- --data DIR`) runs, without a
 * restart. It asks the sandbox's control API, whose address and token the sandbox keeps in its data folder
 * (sandbox/controlAccess.ts).
 *   npm run sign-in-link                       the demo account of npm start's sandbox
 *   npm run sign-in-link -- --data DIR         the sandbox running with data folder DIR
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { controlAccessFile, readControlAccess } from '../sandbox/controlAccess';
import { cacheDir } from './n8n';
import { requestSignInLink } from './sandbox-client';

const usage =
	"Usage: npm run sign-in-link [-- --data DIR]   (DIR: the sandbox's data folder; default npm start's)";

/** npm start's sandbox data folder (scripts/start.ts: EMBROIDERY_LOCAL_DIR/sandbox). */
function startDataDir(): string {
	return join(process.env.EMBROIDERY_LOCAL_DIR ?? join(cacheDir(), 'local'), 'sandbox');
}

async function main(): Promise<number> {
	const { values } = parseArgs({
		options: { data: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
	});
	if (values.help) {
		console.log(usage);
		return 0;
	}
	const dataDir = values.data ?? startDataDir();
	const access = readControlAccess(dataDir);
	if (!access) {
		console.error(
			`No sandbox is running with the data folder ${dataDir} (it has no ${controlAccessFile(dataDir)}). ` +
				'Start it with npm start, or name the data folder of yours: npm run sign-in-link -- --data DIR',
		);
		return 1;
	}
	const link = await requestSignInLink(access);
	console.log(
		`${link.url}\n  a one-time sign-in link to the demo account's pages (API keys, usage, recent jobs), ` +
			`valid until ${link.expiresAt}`,
	);
	return 0;
}

main().then(
	(code) => process.exit(code),
	(error: Error) => {
		console.error(error.message);
		process.exit(1);
	},
);
