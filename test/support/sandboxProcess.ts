/**
 * The sandbox as its own process, the way `npm run sandbox` starts it: spawn it, wait for its
 * start-up lines, read what it printed; and the processes below it (its engine processes).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const repositoryRoot = join(__dirname, '..', '..');

export interface SandboxProcess {
	child: ChildProcess;
	/** The values of the start-up lines ("Base URL: …", "Demo API key: …", "Admin token: …", "Sign-in link: …"). */
	printed: { baseUrl: string; demoKey: string; adminToken: string; signInLink: string };
}

/**
 * Runs Node (this one, or the `node` binary given) with `nodeArguments` from the repository root and
 * resolves once the sandbox has printed "Press Ctrl+C"; rejects with everything it printed if it exits first.
 */
export async function spawnSandbox(
	nodeArguments: string[],
	node = process.execPath,
): Promise<SandboxProcess> {
	const child = spawn(node, nodeArguments, {
		cwd: repositoryRoot,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	child.stderr!.on('data', (chunk) => (output += chunk));
	await new Promise<void>((resolve, reject) => {
		child.stdout!.on('data', (chunk) => {
			output += chunk;
			if (output.includes('Press Ctrl+C')) resolve();
		});
		child.once('exit', (code) => reject(new Error(`The sandbox exited with ${code}: ${output}`)));
	});
	const line = (label: string) => new RegExp(`${label}:\\s+(\\S+)`).exec(output)?.[1] ?? '';
	return {
		child,
		printed: {
			baseUrl: line('Base URL'),
			demoKey: line('Demo API key'),
			adminToken: line('Admin token'),
			signInLink: line('Sign-in link'),
		},
	};
}

/** True while a process with this pid exists (signal 0 reaches it; a zombie not yet reaped still counts). */
export function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/** Every process below `pid`, read from /proc (a process that ends meanwhile is passed over). */
export function descendants(pid: number): number[] {
	const children = new Map<number, number[]>();
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			// The parent pid is the field after the command name, which is in parentheses.
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
		} catch {
			// The process ended while the table was read.
		}
	}
	const below = (parent: number): number[] =>
		(children.get(parent) ?? []).flatMap((child) => [child, ...below(child)]);
	return below(pid);
}
