import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { insertRow, openDatabase } from '../../../sandbox/storage/database';

describe('the sandbox database', () => {
	it('syncs every commit (synchronous = FULL in WAL mode), so a confirmed unlock charge survives a crash', () => {
		const dir = mkdtempSync(join(tmpdir(), 'sandbox-db-'));
		try {
			const db = openDatabase(join(dir, 'sandbox.db'));
			expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
			// 2 is FULL; NORMAL (1) may drop the last commits of a WAL database on power loss.
			expect(db.prepare('PRAGMA synchronous').get()).toEqual({ synchronous: 2 });
			db.close();
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it('inserts a row by naming its columns once, taking only those fields of the object', () => {
		const dir = mkdtempSync(join(tmpdir(), 'sandbox-db-'));
		try {
			const db = openDatabase(join(dir, 'sandbox.db'));
			const row = { key: 'clockOffsetMs', value: '42', notAColumn: 'left out' };
			insertRow(db, 'meta', ['key', 'value'], row);
			expect(db.prepare("SELECT * FROM meta WHERE key = 'clockOffsetMs'").all()).toEqual([
				{ key: 'clockOffsetMs', value: '42' },
			]);
			expect(() => insertRow(db, 'meta', ['key', 'value'], row)).toThrow(
				/UNIQUE constraint failed: meta.key/,
			);
			db.close();
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
