#!/usr/bin/env bash
# The end-to-end suites (npm run test:e2e), one per environment, each against its own sandbox and
# its own n8n (ports, user folder and encryption key of its own, so environments can run side by side):
#   n8n2   n8n $N8N_VERSION_TESTED (scripts/n8n.sh) on Node 24, regular mode: every test/e2e/*.e2e.ts
#   n8n1   n8n $N8N1_VERSION_TESTED on Node 22, regular mode: the same files (test/e2e/jest.config.js)
#   queue  n8n $N8N_VERSION_TESTED in queue mode (main, two workers, Postgres, Redis): test/queue/run.sh, when present
# Every n8n is installed once into ~/.cache/n8n-nodes-embroidery (EMBROIDERY_CACHE_DIR moves it).
#
#   bash test/e2e/run.sh                                   every environment, one after another
#   bash test/e2e/run.sh --only=n8n1                       one environment (a comma list for several)
#   bash test/e2e/run.sh --parallel                        the environments side by side (needs cores)
#   bash test/e2e/run.sh --only=n8n2 test/e2e/mcp.e2e.ts   other arguments go to jest: test files only to
#                                                          the environments of their folder (test/e2e or
#                                                          test/queue), which they pick when --only is not given
#   bash test/e2e/run.sh --bench                           the queue-mode benchmark (test/queue/run.sh --bench)
#
# EMBROIDERY_BUILT=1 skips the build (the caller built dist/ already; a second build while another
# environment packs dist/ would hand it half-written files). EMBROIDERY_TEST_RESULTS=<folder> leaves each
# environment's jest results there (<environment>.json) with its seconds and exit status
# (<environment>.seconds, <environment>.status), for scripts/test.sh's summary.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/node24.sh
. scripts/n8n.sh

environments=()
parallel=0
# jest's options go to every environment, in the order given; a test file only to the environments of
# its folder, and --bench only to queue mode.
e2e_run=()
queue_run=()
e2e_files=0
queue_files=0
queue_bench=()
for arg in "$@"; do
	case "$arg" in
	--only=*) IFS=',' read -r -a environments <<<"${arg#--only=}" ;;
	--parallel) parallel=1 ;;
	--bench) queue_bench=(--bench) ;;
	*)
		case "${arg#"$PWD/"}" in
		test/e2e/* | ./test/e2e/*) e2e_run+=("$arg") e2e_files=$((e2e_files + 1)) ;;
		test/queue/* | ./test/queue/*) queue_run+=("$arg") queue_files=$((queue_files + 1)) ;;
		*) e2e_run+=("$arg") queue_run+=("$arg") ;;
		esac
		;;
	esac
done
if [ ${#queue_bench[@]} -gt 0 ]; then queue_files=$((queue_files + 1)); fi
if [ ${#environments[@]} -eq 0 ]; then
	if [ $e2e_files -gt 0 ] || [ $queue_files -gt 0 ]; then
		# Test files (or --bench) pick the environments that run them.
		if [ $e2e_files -gt 0 ]; then environments+=(n8n2 n8n1); fi
		if [ $queue_files -gt 0 ]; then environments+=(queue); fi
	else
		environments=(n8n2 n8n1)
		[ -f test/queue/run.sh ] && environments+=(queue)
	fi
fi
for environment in "${environments[@]}"; do
	case "$environment" in
	n8n2 | n8n1) mine=$e2e_files others=$queue_files folder=test/e2e ;;
	queue)
		[ -f test/queue/run.sh ] || { echo "test/queue/run.sh is missing: no queue-mode suite in this checkout." >&2; exit 2; }
		mine=$queue_files others=$e2e_files folder=test/queue
		;;
	*) echo "Unknown environment \"$environment\"; use n8n2, n8n1 or queue." >&2; exit 2 ;;
	esac
	# Files given only for other environments would leave this one running its whole suite unasked.
	if [ "$mine" -eq 0 ] && [ "$others" -gt 0 ]; then
		echo "The $environment environment runs $folder, and no file given is there (--bench is for queue only)." >&2
		exit 2
	fi
done

ensure_node24
# Installs first, one after another (npm and the sqlite3 build would fight over the cores).
for environment in "${environments[@]}"; do
	case "$environment" in
	n8n2) ensure_n8n "$N8N_VERSION_TESTED" 24 ;;
	n8n1) ensure_n8n "$N8N1_VERSION_TESTED" 22 ;;
	esac
done
if [ "${EMBROIDERY_BUILT:-}" != 1 ]; then
	npm run build >/dev/null
	# The queue suite (test/queue/run.sh) builds too unless told it is done.
	export EMBROIDERY_BUILT=1
fi
results="${EMBROIDERY_TEST_RESULTS:-}"

# Runs one environment; jest itself always runs on Node 24, the n8n it drives on its own Node.
run_environment() {
	local environment="$1" started=$SECONDS status=0 report=()
	# jest's machine-readable results, when a results folder was asked for.
	if [ -n "$results" ]; then report=(--json "--outputFile=$results/$environment.json"); fi
	case "$environment" in
	n8n2)
		ensure_n8n "$N8N_VERSION_TESTED" 24
		EMBROIDERY_E2E_ENV=n8n2 npx jest -c test/e2e/jest.config.js --runInBand ${report[@]+"${report[@]}"} ${e2e_run[@]+"${e2e_run[@]}"} || status=$?
		;;
	n8n1)
		ensure_n8n "$N8N1_VERSION_TESTED" 22
		EMBROIDERY_E2E_ENV=n8n1 npx jest -c test/e2e/jest.config.js --runInBand ${report[@]+"${report[@]}"} ${e2e_run[@]+"${e2e_run[@]}"} || status=$?
		;;
	queue)
		if [ ${#queue_bench[@]} -gt 0 ]; then
			bash test/queue/run.sh --bench ${queue_run[@]+"${queue_run[@]}"} || status=$?
		else
			bash test/queue/run.sh ${report[@]+"${report[@]}"} ${queue_run[@]+"${queue_run[@]}"} || status=$?
		fi
		;;
	esac
	echo "e2e $environment: $([ $status -eq 0 ] && echo passed || echo "FAILED ($status)") in $((SECONDS - started)) s" >&2
	if [ -n "$results" ]; then
		echo $((SECONDS - started)) >"$results/$environment.seconds"
		echo $status >"$results/$environment.status"
	fi
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
