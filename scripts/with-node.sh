#!/usr/bin/env bash
# Runs a package script on the Node this machine has when it is recent enough, otherwise on Node 24
# installed once into ~/.cache/n8n-nodes-embroidery (scripts/node24.sh), and says which on stderr:
#   bash scripts/with-node.sh 22.13 tsx sandbox/cli.ts   the sandbox needs node:sqlite (Node 22.13 or later)
#   bash scripts/with-node.sh 24 tsx bench/run.ts        anything that loads n8n-core 2.41 needs Node 24
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/node24.sh
minimum="$1"
shift

# True when `node` on PATH is at least the given major[.minor].
node_is_at_least() {
	node -e '
		const [major, minor = 0] = process.argv[1].split(".").map(Number);
		const [haveMajor, haveMinor] = process.versions.node.split(".").map(Number);
		process.exit(haveMajor > major || (haveMajor === major && haveMinor >= minor) ? 0 : 1);
	' "$1" 2>/dev/null
}

found="$(node -v 2>/dev/null || echo none)"
if node_is_at_least "$minimum"; then
	echo "Running on this machine's Node $found (needs $minimum or later)." >&2
else
	ensure_node24
	echo "Running on Node $(node -v) from $(embroidery_cache_dir)/node24 (this machine has $found; needs $minimum or later)." >&2
fi
# A fresh clone: the dev dependencies first, as npm start and npm test do.
[ -d node_modules ] || ensure_dependencies
exec "$@"
