#!/usr/bin/env bash
# The whole test suite, from a fresh clone: Node 24, dependencies, build, lint, types, unit and
# integration tests against the sandbox, then the end-to-end runs in every environment
# (test/e2e/run.sh: n8n 2.41.1 on Node 24, n8n 1.123.81 on Node 22, queue mode when present).
#
# Every core is used: the n8n installs download during the checks; lint, scan and the type check run
# side by side once the build is done; jest runs a worker per core; the end-to-end environments run
# side by side (each has its own sandbox, n8n ports, user folder and data, see test/e2e/run.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/node24.sh
. scripts/n8n.sh
ensure_node24
ensure_dependencies

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The n8n installs (once, cached) download while the checks below keep the cores busy; they run one
# after another so that npm and the sqlite3 builds do not fight each other.
(ensure_n8n "$N8N_VERSION_TESTED" 24 && ensure_n8n "$N8N1_VERSION_TESTED" 22) >"$work/install.log" 2>&1 &
installs=$!

# Runs the checks named in parallel, each into its own log, and prints the logs in order once all ended.
checks_side_by_side() {
	local name pids=() status=0
	for name in "$@"; do
		npm run "$name" >"$work/$name.log" 2>&1 &
		pids+=($!)
	done
	for index in "${!pids[@]}"; do
		wait "${pids[$index]}" || status=1
		cat "$work/${@:index+1:1}.log"
	done
	return $status
}

npm run build
# scan.sh builds again before it packs; nothing else reads dist/ until jest (test/package).
checks_side_by_side lint scan typecheck
npx jest --ci

if ! wait "$installs"; then
	cat "$work/install.log" >&2
	echo "Installing n8n for the end-to-end runs failed (log above)." >&2
	exit 1
fi
EMBROIDERY_BUILT=1 bash test/e2e/run.sh --parallel
