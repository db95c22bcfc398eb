/**
 * Ports for servers this repo starts in a process of their own (n8n, its task broker, a sandbox), chosen
 * before the server binds them.
 *
 * A port the kernel hands out for `listen(0)` comes from the ephemeral range, the same range every outgoing
 * connection takes its local port from. Between choosing such a port and the server's bind (n8n takes seconds
 * to boot, and keeps its port across a stop and a start), any of the hundreds of connections the test lanes
 * open can take it: an e2e run on a fresh machine failed with "n8n's port 44629 is already in use". So the
 * ports come from below the ephemeral range, where no outgoing connection lands, and each is claimed in a
 * file (`<tmpdir>/embroidery-ports/<port>`, holding the claiming pid) so that two processes choosing at the
 * same time never take the same one. A claim whose process has ended is stale and taken over; a process's
 * claims are removed when it exits.
 */
import { createServer } from 'node:net';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Linux's ephemeral range when /proc does not say (and the range elsewhere is higher still). */
const defaultEphemeralRange: readonly [number, number] = [32768, 60999];
/** The lowest port chosen: above the well-known and the commonly configured service ports. */
const lowestPort = 20000;
/** How many ports are tried before giving up: only a machine with thousands of listeners gets near it. */
const attempts = 200;

/** The kernel's ephemeral range from the text of /proc/sys/net/ipv4/ip_local_port_range ("32768\t60999"). */
export function ephemeralRange(rangeText: string | undefined): readonly [number, number] {
	const [low, high] = (rangeText ?? '').trim().split(/\s+/).map(Number);
	if (!Number.isInteger(low) || !Number.isInteger(high) || low < 1 || high < low || high > 65535)
		return defaultEphemeralRange;
	return [low, high];
}

/**
 * The ports to choose from, [first, last], given the ephemeral range: those below it from `lowestPort`, or,
 * when the range starts too low to leave a thousand (a machine configured so), those above it.
 */
export function portsOutside(
	ephemeral: readonly [number, number],
): readonly [number, number] | undefined {
	const [low, high] = ephemeral;
	if (low - lowestPort >= 1000) return [lowestPort, low - 1];
	if (65535 - high >= 1000) return [high + 1, 65535];
	return undefined;
}

function readRange(): string | undefined {
	try {
		return readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8');
	} catch {
		return undefined;
	}
}

/** Whether `pid` names a running process (one of another user's counts: kill says EPERM). */
function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

export interface PortClaims {
	/** The folder of claim files: one per port, named by it, holding the claiming pid. */
	readonly folder: string;
	/** This process's pid, written into its claims. */
	readonly pid: number;
}

const ownClaims = new Set<string>();
let cleanupInstalled = false;

function removeOwnClaims(): void {
	for (const file of ownClaims) rmSync(file, { force: true });
	ownClaims.clear();
}

/**
 * Claims `port` for this process: true when the claim file was made, or was another ended process's (stale),
 * false when a running process holds it.
 */
export function claimPort(port: number, claims: PortClaims): boolean {
	mkdirSync(claims.folder, { recursive: true });
	const file = join(claims.folder, String(port));
	for (let tries = 0; tries < 2; tries++) {
		try {
			writeFileSync(file, String(claims.pid), { flag: 'wx' });
			ownClaims.add(file);
			if (!cleanupInstalled) {
				cleanupInstalled = true;
				process.on('exit', removeOwnClaims);
			}
			return true;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
		}
		let holder = Number.NaN;
		try {
			holder = Number(readFileSync(file, 'utf8'));
		} catch {
			// Removed meanwhile: try again.
			continue;
		}
		if (holder === claims.pid || (Number.isInteger(holder) && holder > 0 && alive(holder)))
			return false;
		rmSync(file, { force: true });
	}
	return false;
}

/**
 * Binds `port` at 127.0.0.1 (0: one the kernel picks) and lets it go again: the port bound, or undefined when
 * something else listens there.
 */
async function bindOnce(port: number): Promise<number | undefined> {
	return await new Promise((resolvePort, reject) => {
		const server = createServer();
		server.unref();
		server.on('error', (error: NodeJS.ErrnoException) => {
			if (error.code === 'EADDRINUSE' || error.code === 'EACCES') resolvePort(undefined);
			else reject(error);
		});
		server.listen(port, '127.0.0.1', () => {
			const address = server.address();
			const bound = typeof address === 'object' && address ? address.port : port;
			server.close(() => resolvePort(bound));
		});
	});
}

export interface FreePortOptions {
	/** Where claims are kept; `<tmpdir>/embroidery-ports` and this process by default. */
	claims?: PortClaims;
	/** The text of the kernel's ephemeral range (read from /proc by default). */
	ephemeralRange?: string;
	/** A number in [0, 1): Math.random by default. */
	random?: () => number;
}

/**
 * `preferred` when nothing listens on it, otherwise a port outside the ephemeral range that nothing listens on
 * and no other running process has claimed, claimed for this process until it exits.
 */
export async function freePort(preferred = 0, options: FreePortOptions = {}): Promise<number> {
	if (preferred && (await bindOnce(preferred)) !== undefined) return preferred;
	const claims = options.claims ?? { folder: join(tmpdir(), 'embroidery-ports'), pid: process.pid };
	const range = portsOutside(ephemeralRange(options.ephemeralRange ?? readRange()));
	const random = options.random ?? Math.random;
	if (range === undefined) {
		// A machine whose ranges leave no other choice: a port the kernel picks, from the ephemeral range.
		const port = await bindOnce(0);
		if (port === undefined) throw new Error('No port could be bound at 127.0.0.1.');
		return port;
	}
	const [first, last] = range;
	for (let attempt = 0; attempt < attempts; attempt++) {
		const port = first + Math.floor(random() * (last - first + 1));
		if (!claimPort(port, claims)) continue;
		if ((await bindOnce(port)) !== undefined) return port;
		releasePort(port, claims);
	}
	throw new Error(
		`No free port found in ${first}-${last} after ${attempts} tries: close some listening servers and run again.`,
	);
}

/** Gives up this process's claim on `port`. */
export function releasePort(port: number, claims: PortClaims): void {
	const file = join(claims.folder, String(port));
	if (!ownClaims.delete(file)) return;
	rmSync(file, { force: true });
}
