import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How to reach a running sandbox's control API, kept in its data folder (owner-only, as the folder is):
 * `npm run sign-in-link` reads it to ask the running sandbox for a fresh sign-in link, so the admin token
 * never has to be printed.
 */
export interface ControlAccess {
	origin: string;
	adminToken: string;
	demoAccountId: string;
	/** The process that runs the sandbox. */
	pid: number;
}

export const controlAccessFileName = 'control.json';

export function controlAccessFile(dataDir: string): string {
	return join(dataDir, controlAccessFileName);
}

export function writeControlAccess(dataDir: string, sandbox: Omit<ControlAccess, 'pid'>): void {
	const access: ControlAccess = {
		origin: sandbox.origin,
		adminToken: sandbox.adminToken,
		demoAccountId: sandbox.demoAccountId,
		pid: process.pid,
	};
	writeFileSync(controlAccessFile(dataDir), `${JSON.stringify(access, null, 2)}\n`, {
		mode: 0o600,
	});
}

/** The record of the sandbox running with this data folder, or undefined when none was written. */
export function readControlAccess(dataDir: string): ControlAccess | undefined {
	let text: string;
	try {
		text = readFileSync(controlAccessFile(dataDir), 'utf8');
	} catch {
		return undefined;
	}
	return JSON.parse(text) as ControlAccess;
}

/** Called as the sandbox stops: a record left behind would point at a port another program may take. */
export function removeControlAccess(dataDir: string): void {
	rmSync(controlAccessFile(dataDir), { force: true });
}
