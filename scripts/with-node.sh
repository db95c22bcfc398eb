#!/usr/bin/env bash
# Every package script starts here: runs it on the Node this machine has when it is recent enough,
# otherwise on Node 24 installed once into ~/.cache/n8n-nodes-embroidery (scripts/node24.sh), says
# which on stderr before it starts, and installs the dev dependencies on a fresh clone:
#   bash scripts/with-node.sh 20 bash scripts/lint.sh    the compiler and n8n's lint run on Node 20
#   bash scripts/with-node.sh 22.13 node --import tsx sandbox/cli.ts
#                                    the sandbox needs node:sqlite (Node 22.13 or later)
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
	# Inside another script (npm test runs npm run build) the Node on PATH may be the cached one.
	case "$(command -v node)" in
	"$(embroidery_cache_dir)"/*) echo "Running on Node $found from $(embroidery_cache_dir) (needs $minimum or later)." >&2 ;;
	*) echo "Running on this machine's Node $found (needs $minimum or later)." >&2 ;;
	esac
else
	ensure_node24
	echo "Running on Node $(node -v) from $(embroidery_cache_dir)/node24 (this machine has $found; needs $minimum or later)." >&2
fi
# A fresh clone: the dev dependencies first (npm test also refreshes them after a lockfile change; npm start,
# which does not start here, installs them as its phase 2).
[ -d node_modules ] || ensure_dependencies
exec "$@"
