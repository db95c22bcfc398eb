/**
 * The two services n8n's queue mode needs, from Debian's packages, as throwaway processes: a
 * Postgres cluster and a Redis server on loopback ports, their data in temporary folders that
 * `stop()` removes. test/queue/run.sh installs the packages when they are missing.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { freePort, sleep } from '../../../scripts/n8n';

const run = promisify(execFile);

export interface PostgresInfo {
	host: string;
	port: number;
	database: string;
	user: string;
	password: string;
}

export interface QueueServices {
	postgres: PostgresInfo;
	redis: { host: string; port: number };
	/** Runs one SQL statement in n8n's database and returns its rows as tab-separated text. */
	sql(statement: string): Promise<string>;
	stop(): Promise<void>;
}

/** The newest Postgres server Debian installed (/usr/lib/postgresql/<major>/bin). */
export function postgresBinDir(): string {
	const root = '/usr/lib/postgresql';
	const majors = existsSync(root)
		? readdirSync(root).filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
		: [];
	if (majors.length === 0) {
		throw new Error(
			"Postgres is not installed: run test/queue/run.sh, which installs Debian's postgresql " +
				'package, or apt-get install postgresql.',
		);
	}
	return join(root, majors.sort((a, b) => Number(b) - Number(a))[0], 'bin');
}

/** Postgres refuses to run as root, so root runs it as the postgres account the Debian package creates. */
async function postgresAccount(): Promise<{ prefix: string[]; uid?: number; gid?: number }> {
	if (process.getuid?.() !== 0) return { prefix: [] };
	const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
	const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
	return { prefix: ['runuser', '-u', 'postgres', '--'], uid, gid };
}

async function runAs(
	prefix: string[],
	command: string,
	args: string[],
	timeoutMs = 120_000,
): Promise<string> {
	const [file, ...rest] = [...prefix, command, ...args];
	try {
		return (await run(file, rest, { timeout: timeoutMs, cwd: '/' })).stdout;
	} catch (error) {
		const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
		throw new Error(
			`${command} ${args.join(' ')} failed: ${(error as Error).message}\n${stdout}\n${stderr}`,
		);
	}
}

export async function startPostgres(): Promise<{
	info: PostgresInfo;
	sql: QueueServices['sql'];
	stop: () => Promise<void>;
}> {
	const bin = postgresBinDir();
	const account = await postgresAccount();
	const folder = await mkdtemp(join(tmpdir(), 'embroidery-queue-pg-'));
	if (account.uid !== undefined) await chown(folder, account.uid, account.gid!);
	const data = join(folder, 'data');
	const info: PostgresInfo = {
		host: '127.0.0.1',
		port: await freePort(),
		database: 'n8n',
		user: 'n8n',
		password: 'n8n-queue-test',
	};
	const stop = async () => {
		if (existsSync(join(data, 'postmaster.pid'))) {
			await runAs(account.prefix, join(bin, 'pg_ctl'), [
				'-D',
				data,
				'-m',
				'fast',
				'-w',
				'-t',
				'60',
				'stop',
			]).catch(() => undefined);
		}
		await rm(folder, { recursive: true, force: true });
	};
	try {
		// Trust is confined to this throwaway cluster, which listens on loopback and a socket in its own folder.
		await runAs(account.prefix, join(bin, 'initdb'), [
			'-D',
			data,
			'-U',
			info.user,
			'--auth=trust',
			'-E',
			'UTF8',
			'--no-sync',
		]);
		const settings = [
			`-c listen_addresses=${info.host}`,
			`-p ${info.port}`,
			`-k ${folder}`,
			// A test database: durability across a crash of the machine is not needed, speed on 2 cores is.
			'-c fsync=off -c synchronous_commit=off -c full_page_writes=off',
		].join(' ');
		await runAs(account.prefix, join(bin, 'pg_ctl'), [
			'-D',
			data,
			'-l',
			join(folder, 'postgres.log'),
			'-o',
			settings,
			'-w',
			'-t',
			'120',
			'start',
		]);
		await runAs([], join(bin, 'createdb'), [
			'-h',
			info.host,
			'-p',
			String(info.port),
			'-U',
			info.user,
			info.database,
		]);
	} catch (error) {
		await stop();
		throw error;
	}
	const sql = async (statement: string) =>
		await runAs([], join(bin, 'psql'), [
			'-h',
			info.host,
			'-p',
			String(info.port),
			'-U',
			info.user,
			'-d',
			info.database,
			'-At',
			'-F',
			'\t',
			'-v',
			'ON_ERROR_STOP=1',
			'-c',
			statement,
		]);
	return { info, sql, stop };
}

export async function startRedis(): Promise<{
	info: QueueServices['redis'];
	stop: () => Promise<void>;
}> {
	const folder = await mkdtemp(join(tmpdir(), 'embroidery-queue-redis-'));
	const info = { host: '127.0.0.1', port: await freePort() };
	const server: ChildProcess = spawn(
		'redis-server',
		[
			'--bind',
			info.host,
			'--port',
			String(info.port),
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			folder,
			'--logfile',
			join(folder, 'redis.log'),
		],
		{ stdio: 'ignore', cwd: folder },
	);
	const stop = async () => {
		if (server.exitCode === null && server.signalCode === null) {
			const exited = new Promise((resolveExit) => server.once('exit', resolveExit));
			server.kill('SIGTERM');
			await exited;
		}
		await rm(folder, { recursive: true, force: true });
	};
	const spawned = await new Promise<Error | undefined>((resolveSpawn) => {
		server.once('spawn', () => resolveSpawn(undefined));
		server.once('error', resolveSpawn);
	});
	if (spawned) {
		await rm(folder, { recursive: true, force: true });
		throw new Error(
			`Could not start redis-server (${spawned.message}): run test/queue/run.sh, which ` +
				`installs Debian's redis-server package.`,
		);
	}
	const deadline = Date.now() + 30_000;
	while (!(await redisAnswers(info.port))) {
		if (Date.now() > deadline || server.exitCode !== null) {
			await stop();
			throw new Error(`redis-server on port ${info.port} did not answer PING within 30 s`);
		}
		await sleep(200);
	}
	return { info, stop };
}

async function redisAnswers(port: number): Promise<boolean> {
	return await new Promise((resolveAnswer) => {
		const socket = connect(port, '127.0.0.1');
		socket.setTimeout(2_000, () => socket.destroy());
		socket.once('error', () => resolveAnswer(false));
		socket.once('close', () => resolveAnswer(false));
		socket.once('connect', () => socket.write('PING\r\n'));
		socket.once('data', (chunk) => {
			resolveAnswer(chunk.toString().startsWith('+PONG'));
			socket.destroy();
		});
	});
}

/** Postgres and Redis for one queue-mode run; `stop()` ends both and removes their data. */
export async function startQueueServices(): Promise<QueueServices> {
	const postgres = await startPostgres();
	let redis: Awaited<ReturnType<typeof startRedis>>;
	try {
		redis = await startRedis();
	} catch (error) {
		await postgres.stop();
		throw error;
	}
	return {
		postgres: postgres.info,
		redis: redis.info,
		sql: postgres.sql,
		stop: async () => {
			await Promise.allSettled([redis.stop(), postgres.stop()]);
		},
	};
}
