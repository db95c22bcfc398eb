# One progress line per tier from the lines jest runs keep in a folder (test/support/progressReporter.js writes
# "<label>: D of F files, T [of about N ]tests done (X failed), S s" into <label>.progress when
# EMBROIDERY_PROGRESS_DIR names the folder). The runs of one tier ("e2e n8n2", "e2e n8n2 (lane 2)",
# "e2e n8n2 (trigger lane)") add up into one line: files and tests done of all its lanes, the longest seconds.
# Sourced by test/e2e/run.sh and scripts/test.sh.

# Prints the tiers' lines, in the order jest, e2e n8n2, e2e n8n1, e2e queue, then any other.
progress_lines() {
	node -e '
		const { readdirSync, readFileSync } = require("node:fs");
		const dir = process.argv[1];
		const pattern = /^([^:]+): (\d+) of (\d+) files, (\d+)(?: of about (\d+))? tests done \((\d+) failed\), (\d+) s$/;
		const tiers = new Map();
		let names = [];
		try {
			names = readdirSync(dir).filter((name) => name.endsWith(".progress")).sort();
		} catch {}
		for (const name of names) {
			let text = "";
			try {
				text = readFileSync(`${dir}/${name}`, "utf8").trim();
			} catch {}
			const m = pattern.exec(text);
			if (!m) continue;
			const tier = m[1].replace(/ \(.*\)$/, "");
			const t = tiers.get(tier) ?? { lanes: 0, done: 0, files: 0, tests: 0, about: 0, known: true, failed: 0, seconds: 0 };
			t.lanes += 1;
			t.done += Number(m[2]);
			t.files += Number(m[3]);
			t.tests += Number(m[4]);
			if (m[5] === undefined) t.known = false;
			else t.about += Number(m[5]);
			t.failed += Number(m[6]);
			t.seconds = Math.max(t.seconds, Number(m[7]));
			tiers.set(tier, t);
		}
		const rank = (tier) => {
			const at = ["jest", "e2e n8n2", "e2e n8n1", "e2e queue"].indexOf(tier);
			return at === -1 ? 9 : at;
		};
		for (const [tier, t] of [...tiers].sort((a, b) => rank(a[0]) - rank(b[0]) || a[0].localeCompare(b[0]))) {
			const of = t.known ? ` of about ${t.about}` : "";
			const lanes = t.lanes > 1 ? `, ${t.lanes} lanes` : "";
			console.log(`${tier}: ${t.done} of ${t.files} files, ${t.tests}${of} tests done (${t.failed} failed)${lanes}, ${t.seconds} s`);
		}
	' "$1"
}
