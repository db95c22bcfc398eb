/**
 * scripts/ports.ts: the ports servers are given before they bind come from outside the kernel's ephemeral range
 * (where outgoing connections take theirs) and are claimed, so neither a connection nor another process choosing
 * at the same time can take one between the choice and the bind. Every listener here is on 127.0.0.1.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	claimPort,
	ephemeralRange,
	freePort,
	portsOutside,
	releasePort,
	type PortClaims,
} from '../../scripts/ports';

describe('the ports chosen from', () => {
	it("reads the kernel's ephemeral range, and falls back to Linux's default on text it cannot read", () => {
		expect(ephemeralRange('32768\t60999\n')).toEqual([32768, 60999]);
		expect(ephemeralRange('49152 65535')).toEqual([49152, 65535]);
		expect(ephemeralRange(undefined)).toEqual([32768, 60999]);
		expect(ephemeralRange('60999 32768')).toEqual([32768, 60999]);
		expect(ephemeralRange('nonsense')).toEqual([32768, 60999]);
	});

	it('lies below the ephemeral range, or above it when too little is left below, or nowhere', () => {
		expect(portsOutside([32768, 60999])).toEqual([20000, 32767]);
		expect(portsOutside([20500, 60000])).toEqual([60001, 65535]);
		expect(portsOutside([1024, 65000])).toBeUndefined();
	});
});

describe('freePort', () => {
	let folder: string;
	let claims: PortClaims;
	const listeners: Server[] = [];
	/** A random source that gives these numbers in turn, then the last one again. */
	const sequence =
		(...values: number[]): (() => number) =>
		() =>
			values.length > 1 ? (values.shift() as number) : values[0];
	/** The random number that picks `port` in a range of 20000-32767. */
	const at = (port: number): number => (port - 20000 + 0.5) / 12768;

	beforeEach(() => {
		folder = mkdtempSync(join(tmpdir(), 'embroidery-ports-'));
		claims = { folder, pid: process.pid };
	});

	afterEach(async () => {
		for (const server of listeners.splice(0)) await new Promise((done) => server.close(done));
		rmSync(folder, { recursive: true, force: true });
	});

	it('gives a port below the ephemeral range and claims it for this process', async () => {
		const port = await freePort(0, {
			claims,
			ephemeralRange: '32768 60999',
			random: sequence(at(23456)),
		});
		expect(port).toBe(23456);
		expect(readFileSync(join(folder, '23456'), 'utf8')).toBe(String(process.pid));
		releasePort(port, claims);
		expect(existsSync(join(folder, '23456'))).toBe(false);
	});

	it('never gives the same port twice while it is claimed, in one process', async () => {
		const random = sequence(at(24001), at(24001), at(24002));
		const first = await freePort(0, { claims, ephemeralRange: '32768 60999', random });
		const second = await freePort(0, { claims, ephemeralRange: '32768 60999', random });
		expect([first, second]).toEqual([24001, 24002]);
	});

	it("passes over another running process's claim, and takes over an ended process's", async () => {
		const other = spawn(process.execPath, ['-e', 'setTimeout(() => undefined, 60000)'], {
			stdio: 'ignore',
		});
		try {
			writeFileSync(join(folder, '25001'), String(other.pid));
			const ended = spawnSync(process.execPath, ['-p', 'process.pid'], {
				encoding: 'utf8',
			}).stdout.trim();
			writeFileSync(join(folder, '25002'), ended);
			const port = await freePort(0, {
				claims,
				ephemeralRange: '32768 60999',
				random: sequence(at(25001), at(25002)),
			});
			expect(port).toBe(25002);
			expect(readFileSync(join(folder, '25001'), 'utf8')).toBe(String(other.pid));
			expect(readFileSync(join(folder, '25002'), 'utf8')).toBe(String(process.pid));
		} finally {
			other.kill();
		}
	});

	it('passes over a port something listens on, and gives up its claim on it', async () => {
		const server = createServer();
		listeners.push(server);
		const taken = await freePort(0, {
			claims,
			ephemeralRange: '32768 60999',
			random: sequence(at(26001)),
		});
		releasePort(taken, claims);
		await new Promise<void>((listening) => server.listen(taken, '127.0.0.1', listening));
		const port = await freePort(0, {
			claims,
			ephemeralRange: '32768 60999',
			random: sequence(at(taken), at(26002)),
		});
		expect(port).toBe(26002);
		expect(existsSync(join(folder, String(taken)))).toBe(false);
	});

	it('gives the preferred port when it is free, and another when something listens on it', async () => {
		const preferred = await freePort(0, {
			claims,
			ephemeralRange: '32768 60999',
			random: sequence(at(27001)),
		});
		releasePort(preferred, claims);
		expect(await freePort(preferred, { claims })).toBe(preferred);
		const server = createServer();
		listeners.push(server);
		await new Promise<void>((listening) => server.listen(preferred, '127.0.0.1', listening));
		const other = await freePort(preferred, {
			claims,
			ephemeralRange: '32768 60999',
			random: sequence(at(27002)),
		});
		expect(other).toBe(27002);
	});

	it('says what to do when every port it tries is taken', async () => {
		const holder = spawn(process.execPath, ['-e', 'setTimeout(() => undefined, 60000)'], {
			stdio: 'ignore',
		});
		try {
			writeFileSync(join(folder, '28001'), String(holder.pid));
			await expect(
				freePort(0, { claims, ephemeralRange: '32768 60999', random: sequence(at(28001)) }),
			).rejects.toThrow(
				/No free port found in 20000-32767 after 200 tries: close some listening servers/,
			);
		} finally {
			holder.kill();
		}
	});

	it('claims a port once: a second claim by this process is refused until it is released', () => {
		expect(claimPort(29001, claims)).toBe(true);
		expect(claimPort(29001, claims)).toBe(false);
		releasePort(29001, claims);
		expect(claimPort(29001, claims)).toBe(true);
		releasePort(29001, claims);
	});
});
