import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { insertRow, openDatabase, transaction } from '../../../sandbox/storage/database';

describe('the sandbox database', () => {
	it('syncs a durable transaction (a confirmed charge) to the disk, and bookkeeping commits without waiting', () => {
		const dir = mkdtempSync(join(tmpdir(), 'sandbox-db-'));
		try {
			const db = openDatabase(join(dir, 'sandbox.db'));
			const synchronous = () => (db.prepare('PRAGMA synchronous').get() as any).synchronous;
			expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
			// 1 is NORMAL (durable at the next sync), 2 FULL: the WAL synced at every commit, and all before it.
			expect(synchronous()).toBe(1);
			expect(transaction(db, synchronous, { durable: true })).toBe(2);
			expect(transaction(db, synchronous)).toBe(1);
			expect(() =>
				transaction(
					db,
					() => {
						throw new Error('refused');
					},
					{ durable: true },
				),
			).toThrow('refused');
			expect(synchronous()).toBe(1);
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
