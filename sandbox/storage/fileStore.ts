import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

/** Files under the data directory: `files/<account>/<upload>.<ext>`, and `tmp/` for uploads in flight. */
export class FileStore {
	readonly root: string;
	readonly tmp: string;

	constructor(dataDir: string) {
		this.root = join(dataDir, 'files');
		this.tmp = join(dataDir, 'tmp');
		mkdirSync(this.root, { recursive: true });
		// Uploads a previous run left half-streamed belong to no job.
		rmSync(this.tmp, { recursive: true, force: true });
		mkdirSync(this.tmp, { recursive: true });
	}

	/** Relative path for a stored file; the account folder is created on demand. */
	relativePath(accountId: string, uploadId: string, extension: string): string {
		mkdirSync(join(this.root, accountId), { recursive: true });
		return `${accountId}/${uploadId}.${extension}`;
	}

	absolute(relativePath: string): string {
		const full = resolve(this.root, relativePath);
		if (!full.startsWith(this.root + sep))
			throw new Error(`Stored path escapes the file root: ${relativePath}`);
		return full;
	}

	temporaryPath(): string {
		return join(this.tmp, randomUUID());
	}

	remove(relativePath: string): void {
		rmSync(this.absolute(relativePath), { force: true });
	}

	/** The relative path of every stored file (as `relativePath` names them). */
	storedPaths(): string[] {
		return readdirSync(this.root, { recursive: true, withFileTypes: true })
			.filter((entry) => entry.isFile())
			.map((entry) => relative(this.root, join(entry.parentPath, entry.name)).split(sep).join('/'));
	}

	/** Everything gone, for the control API's reset. */
	clear(): void {
		rmSync(this.root, { recursive: true, force: true });
		rmSync(this.tmp, { recursive: true, force: true });
		mkdirSync(this.root, { recursive: true });
		mkdirSync(this.tmp, { recursive: true });
	}
}
