#!/usr/bin/env bash
# The end-to-end suites (npm run test:e2e), one per environment, each against its own sandbox and
# its own n8n (ports, user folder and encryption key of its own, so environments can run side by side):
#   n8n2   n8n 2.41.1 on Node 24, regular mode: every test/e2e/*.e2e.ts
#   n8n1   n8n 1.123.81 on Node 22, regular mode: the same files (test/e2e/jest.config.js)
#   queue  n8n 2.41.1 in queue mode (main, worker, Redis): test/queue/run.sh, when present
# Every n8n is installed once into ~/.cache/n8n-nodes-embroidery (EMBROIDERY_CACHE_DIR moves it).
#
#   bash test/e2e/run.sh                                   every environment, one after another
#   bash test/e2e/run.sh --only=n8n1                       one environment (a comma list for several)
#   bash test/e2e/run.sh --parallel                        the environments side by side (needs cores)
#   bash test/e2e/run.sh --only=n8n2 test/e2e/mcp.e2e.ts   other arguments go to jest
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/node24.sh
. scripts/n8n.sh

environments=()
parallel=0
jest_args=()
for arg in "$@"; do
	case "$arg" in
	--only=*) IFS=',' read -r -a environments <<<"${arg#--only=}" ;;
	--parallel) parallel=1 ;;
	*) jest_args+=("$arg") ;;
	esac
done
if [ ${#environments[@]} -eq 0 ]; then
	environments=(n8n2 n8n1)
	[ -f test/queue/run.sh ] && environments+=(queue)
fi
for environment in "${environments[@]}"; do
	case "$environment" in
	n8n2 | n8n1) ;;
	queue) [ -f test/queue/run.sh ] || { echo "test/queue/run.sh is missing: no queue-mode suite in this checkout." >&2; exit 2; } ;;
	*) echo "Unknown environment \"$environment\"; use n8n2, n8n1 or queue." >&2; exit 2 ;;
	esac
done

ensure_node24
# Installs first, one after another (npm and the sqlite3 build would fight over the cores).
for environment in "${environments[@]}"; do
	case "$environment" in
	n8n2) ensure_n8n "$N8N_VERSION_TESTED" 24 ;;
	n8n1) ensure_n8n "$N8N1_VERSION_TESTED" 22 ;;
	esac
done
npm run build >/dev/null

# Runs one environment; jest itself always runs on Node 24, the n8n it drives on its own Node.
run_environment() {
	local environment="$1" started=$SECONDS status=0
	case "$environment" in
	n8n2)
		ensure_n8n "$N8N_VERSION_TESTED" 24
		EMBROIDERY_E2E_ENV=n8n2 npx jest -c test/e2e/jest.config.js --runInBand ${jest_args[@]+"${jest_args[@]}"} || status=$?
		;;
	n8n1)
		ensure_n8n "$N8N1_VERSION_TESTED" 22
		EMBROIDERY_E2E_ENV=n8n1 npx jest -c test/e2e/jest.config.js --runInBand ${jest_args[@]+"${jest_args[@]}"} || status=$?
		;;
	queue)
		bash test/queue/run.sh ${jest_args[@]+"${jest_args[@]}"} || status=$?
		;;
	esac
	echo "e2e $environment: $([ $status -eq 0 ] && echo passed || echo "FAILED ($status)") in $((SECONDS - started)) s" >&2
	return $status
}

failed=()
if [ $parallel -eq 1 ] && [ ${#environments[@]} -gt 1 ]; then
	logs="$(mktemp -d)"
	declare -A pids=()
	for environment in "${environments[@]}"; do
		run_environment "$environment" >"$logs/$environment.log" 2>&1 &
		pids[$environment]=$!
	done
	for environment in "${environments[@]}"; do
		wait "${pids[$environment]}" || failed+=("$environment")
		echo "===== e2e $environment =====" >&2
		cat "$logs/$environment.log" >&2
	done
	rm -rf "$logs"
else
	for environment in "${environments[@]}"; do
		run_environment "$environment" || failed+=("$environment")
	done
fi
if [ ${#failed[@]} -gt 0 ]; then
	echo "End-to-end environments that failed: ${failed[*]}" >&2
	exit 1
fi
