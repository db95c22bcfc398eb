import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Real machine files (Embroidermodder's Star design, zlib licence; see NOTICE.md there) and how an
 * independent reader, pyembroidery, decodes each of them. Kept in the repository so that a clone
 * alone (CI on GitHub included) runs every test.
 */
export const fixturesDir = path.resolve(__dirname, '../fixtures/embroidery');

/** The bytes of one of those files, by its name (`Star.DST`). */
export function fixture(name: string): Buffer {
	return readFileSync(path.join(fixturesDir, name));
}
