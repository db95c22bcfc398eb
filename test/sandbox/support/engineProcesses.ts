/** What the system says of this jest worker's engine processes (sandbox/services/workers/pool.ts). */
import { readdirSync, readFileSync } from 'node:fs';

/** The nice value of every thread of a process. */
export function threadNices(pid: number): number[] {
	return readdirSync(`/proc/${pid}/task`).map((thread) => {
		const stat = readFileSync(`/proc/${pid}/task/${thread}/stat`, 'latin1');
		// The 19th field: the 17th after the command name in parentheses.
		return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
	});
}

/** The engine processes of this jest worker (a sandbox started in it forks them). */
export function enginePids(): number[] {
	return readdirSync('/proc')
		.filter((entry) => /^\d+$/.test(entry))
		.map(Number)
		.filter((pid) => {
			try {
				const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
				const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
				return (
					parent === process.pid &&
					readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('bootstrap.js')
				);
			} catch {
				return false;
			}
		});
}
