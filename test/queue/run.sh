#!/usr/bin/env bash
# The queue-mode suite (test/queue/*.e2e.ts): installs what is missing (Node 24, n8n 2.41.1, and
# Debian's postgresql and redis-server packages), builds the package, then runs n8n in queue mode
# (Postgres and Redis on loopback ports, data in temporary folders; one main, two workers) against
# the sandbox. Everything it starts is stopped when it ends. `--bench` runs bench/queue.ts instead.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/node24.sh
. scripts/n8n.sh
. scripts/debian-packages.sh

# Only the packages' files are needed: the suite starts its own throwaway servers, never the system services.
ensure_queue_services() {
	local missing=()
	compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
	command -v redis-server >/dev/null || missing+=(redis-server)
	if [ ${#missing[@]} -gt 0 ]; then
		debian_install "Queue mode needs" "${missing[@]}" || return 1
	fi
	# Postgres refuses to run as root; as root the suite runs it as the account the package creates.
	if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
		echo "The postgres account is missing although Postgres is installed." >&2
		return 1
	fi
}

# Every folder of the run (and so every process it starts: n8n, Postgres, Redis run inside their
# folders) lives under one directory; whatever still runs there when the run ends, even killed, is stopped.
stop_leftovers() {
	local proc cwd
	for proc in /proc/[0-9]*; do
		cwd=$(readlink "$proc/cwd" 2>/dev/null) || continue
		case "$cwd" in "$RUN_DIR"/*) kill -KILL "${proc#/proc/}" 2>/dev/null || true ;; esac
	done
	rm -rf "$RUN_DIR"
}

ensure_node24
ensure_n8n
ensure_queue_services
# test/e2e/run.sh builds once for every environment and says so (EMBROIDERY_BUILT=1).
[ "${EMBROIDERY_BUILT:-}" = 1 ] || npm run build >/dev/null
RUN_DIR=$(mktemp -d "${TMPDIR:-/tmp}/embroidery-queue-run-XXXXXX")
# The postgres account must reach its cluster's folder inside.
chmod 755 "$RUN_DIR"
trap stop_leftovers EXIT
export TMPDIR="$RUN_DIR"
if [ "${1:-}" = "--bench" ]; then
	shift
	npx tsx bench/queue.ts "$@"
else
	EMBROIDERY_PROGRESS_LABEL="e2e queue" npx jest -c test/queue/jest.config.js --runInBand "$@"
fi
