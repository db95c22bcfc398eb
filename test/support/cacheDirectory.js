/**
 * jest's cache folder, where jest would put it by default ($TMPDIR/jest_<uid>), but from the temporary folder
 * scripts/test.sh was started with: that script points TMPDIR at a folder of its own run (removed when it
 * ends), which would otherwise leave jest's transform cache cold on every run.
 */
const { realpathSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const base = process.env.EMBROIDERY_OUTER_TMPDIR || tmpdir();
let real = base;
try {
	real = realpathSync(base);
} catch {
	// A folder that cannot be resolved is used as given.
}
module.exports = join(real, `jest_${process.getuid ? process.getuid().toString(36) : 'x'}`);
