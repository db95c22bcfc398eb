#!/usr/bin/env bash
# npm start: everything needed to try the nodes from a fresh clone. Installs Node 24, the dev
# dependencies and n8n ($N8N_VERSION_TESTED of scripts/n8n.sh) when missing, builds the package, then hands
# over to scripts/start.ts (phases 5 to 7):
#   npm start                   sandbox + a local n8n editor with the package, a credential and the examples
#   npm start -- --port=5700    the same with the editor on another port (default 5678)
#   npm start -- --headless     (= npm run demo) run the examples once and write their results to demo-output/
# Each phase says what it does and how long it took; npm's own output goes to npm-start.log in the state
# folder (EMBROIDERY_LOCAL_DIR, default ~/.cache/n8n-nodes-embroidery/local), whose path it prints.
# EMBROIDERY_BUILT=1 skips the build (the caller built dist/ already, as test/e2e/run.sh does).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/node24.sh
. scripts/n8n.sh

export EMBROIDERY_LOCAL_DIR="${EMBROIDERY_LOCAL_DIR:-$(embroidery_cache_dir)/local}"
mkdir -p "$EMBROIDERY_LOCAL_DIR"
export EMBROIDERY_INSTALL_LOG="$EMBROIDERY_LOCAL_DIR/npm-start.log"
: >"$EMBROIDERY_INSTALL_LOG"
echo "npm start: what npm and the build print goes to $EMBROIDERY_INSTALL_LOG"

# Runs one of phases 1 to 4 in this shell (they export PATH and n8n's location) and says how long it took.
phase() {
	local number="$1" label="$2" started=$SECONDS
	shift 2
	echo "[$number/7] $label..."
	"$@"
	echo "      done in $((SECONDS - started)) s"
}

build() {
	if [ "${EMBROIDERY_BUILT:-}" = 1 ]; then
		echo "      built already (EMBROIDERY_BUILT=1)"
		return
	fi
	if ! npm run build >>"$EMBROIDERY_INSTALL_LOG" 2>&1; then
		echo "The build failed; the last lines of $EMBROIDERY_INSTALL_LOG:" >&2
		tail -n 30 "$EMBROIDERY_INSTALL_LOG" >&2
		return 1
	fi
}

phase 1 "Node 24 (installed once into $(embroidery_cache_dir)/node24 when this machine's Node is older)" ensure_node24
phase 2 "Dependencies (npm ci once per package-lock.json into $(embroidery_cache_dir), copied into node_modules when it is missing or from another lockfile)" ensure_dependencies
if install_is_complete "$(n8n_install_dir)"; then
	n8n_label="n8n $N8N_VERSION_TESTED (in place in $(n8n_install_dir))"
else
	# The first run: as long as it takes, and safe to stop (scripts/n8n.sh installs into a staging folder).
	n8n_label="n8n $N8N_VERSION_TESTED (installed once into $(n8n_install_dir): $N8N_INSTALL_TIME and 3 GB; \
Ctrl-C is safe, the next npm start starts it afresh)"
fi
phase 3 "$n8n_label" ensure_n8n
phase 4 "Building the package" build
exec node --import tsx scripts/start.ts "$@"
