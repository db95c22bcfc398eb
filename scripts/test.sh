#!/usr/bin/env bash
# The whole test suite, from a fresh clone: Node 24, dependencies, build, lint, types, unit and
# integration tests against the sandbox, then the end-to-end runs in every environment
# (test/e2e/run.sh: the two n8n versions of scripts/n8n.sh, on Node 24 and 22, queue mode when present).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/node24.sh
. scripts/n8n.sh
ensure_node24
ensure_dependencies

# The n8n installs (once, cached) download while the checks below keep the cores busy; they run one
# after another so that npm and the sqlite3 builds do not fight each other.
install_log="$(mktemp)"
trap 'rm -f "$install_log"' EXIT
(ensure_n8n "$N8N_VERSION_TESTED" 24 && ensure_n8n "$N8N1_VERSION_TESTED" 22) >"$install_log" 2>&1 &
installs=$!

npm run build
npm run lint
npm run scan
npm run typecheck
npx jest --ci

if ! wait "$installs"; then
	cat "$install_log" >&2
	echo "Installing n8n for the end-to-end runs failed (log above)." >&2
	exit 1
fi
bash test/e2e/run.sh
