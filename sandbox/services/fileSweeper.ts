import type { DatabaseSync } from 'node:sqlite';

import { transaction } from '../storage/database';
import type { FileStore } from '../storage/fileStore';
import type { UploadsTable } from '../storage/uploads';
import type { SandboxClock } from './clock';

/** How often, in real time, the sweeper looks for expired files between moves of the sandbox clock. */
export const sweepIntervalMs = 60_000;

/**
 * Deletes expired files from disk on the schedule their API access ends: a source upload at the source TTL,
 * a job's output and previews at the output retention, both read on the sandbox clock. The records stay
 * (marked deleted), so their URLs answer 410 like any expired file. The sandbox sweeps at start, every
 * `sweepIntervalMs`, and each time the control API moves the clock.
 */
export class FileSweeper {
	constructor(
		private readonly db: DatabaseSync,
		private readonly uploads: UploadsTable,
		private readonly store: FileStore,
		private readonly clock: SandboxClock,
	) {}

	/** Deletes every expired file still on disk; returns how many. */
	sweep(): number {
		const now = this.clock.now();
		const expired = this.uploads.expiredOnDisk(now);
		for (const upload of expired) {
			this.store.remove(upload.path);
			transaction(this.db, () => this.uploads.markDeleted(upload.id, now));
		}
		return expired.length;
	}
}
