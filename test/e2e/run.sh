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
#   bash test/e2e/run.sh --lane=realtime                   one lane of the n8n lines (below): realtime or main;
#                                                          queue mode runs whole under either lane
#
# EMBROIDERY_BUILT=1 skips the build (the caller built dist/ already; a second build while another
# environment packs dist/ would hand it half-written files). EMBROIDERY_TEST_RESULTS=<folder> leaves each
# environment's jest results there (<environment>.json) with its seconds and exit status
# (<environment>.seconds, <environment>.status), for scripts/test.sh's summary; with --lane, under
# <environment>.<lane>.* (scripts/test.sh runs the real-time lanes during jest and merges them after).
# EMBROIDERY_E2E_PROGRESS=<folder> keeps the jest runs' progress files there, so that a run beside this one
# shows them on the same progress line.
# Exits 0 when every environment passed, 130 or 143 when one was stopped by SIGINT or SIGTERM (a Ctrl-C: a
# caller that ignores SIGINT, as scripts/test.sh's background lanes do, learns of it only so), and 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/node24.sh
. scripts/n8n.sh
. scripts/progress.sh

environments=()
parallel=0
lane="" lane_label=""
# jest's options go to every environment, in the order given; a test file only to the environments of
# its folder, and --bench only to queue mode.
e2e_run=()
e2e_given=()
queue_run=()
e2e_files=0
queue_files=0
queue_bench=()
for arg in "$@"; do
	case "$arg" in
	--only=*) IFS=',' read -r -a environments <<<"${arg#--only=}" ;;
	--parallel) parallel=1 ;;
	--bench) queue_bench=(--bench) ;;
	--lane=realtime | --lane=main) lane="${arg#--lane=}" lane_label="${lane/realtime/real-time} lane" ;;
	--lane=*) echo "Unknown lane \"${arg#--lane=}\"; use --lane=realtime or --lane=main." >&2 && exit 2 ;;
	*)
		case "${arg#"$PWD/"}" in
		test/e2e/* | ./test/e2e/*) e2e_given+=("$arg") e2e_files=$((e2e_files + 1)) ;;
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
		# Queue mode has one lane: it runs whole under either --lane (npm test starts it with the real-time lanes).
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
lanes_dir="$(mktemp -d "${TMPDIR:-/tmp}/embroidery-e2e-lanes-XXXXXX")"
trap 'rm -rf "$lanes_dir"' EXIT

# The e2e files of an n8n line run in two lanes side by side, each a jest run with its own global setup
# (sandbox, n8n user folder): the real-time lane, files that spend real minutes waiting and so use little CPU,
# each in a worker of its own (the trigger files, test/e2e/trigger*.e2e.ts, wait for n8n's polls, which n8n
# refuses more often than once a minute; start.e2e.ts waits for `npm start` to set up, start and stop;
# testRun.e2e.ts waits for runs of `npm test` to reach the phase it interrupts, and for them to stop;
# examples.e2e.ts waits for the finished-jobs example's first poll, at n8n's next minute, which in the main
# lane left the cores nearly idle while both n8n lines and queue mode waited at once); and every other file,
# in band: the main lane. --lane=<lane> runs one of them. The lanes' results are merged
# into one <environment>.json (<environment>.<lane>.json with --lane).
run_lanes() {
	local environment="$1" key="$2" file status=0 lane_pid files=() main=() realtime=() main_report=() realtime_report=()
	if [ ${#e2e_given[@]} -gt 0 ]; then files=("${e2e_given[@]}"); else files=(test/e2e/*.e2e.ts); fi
	for file in "${files[@]}"; do
		case "$(basename "$file")" in
		trigger*.e2e.ts | start.e2e.ts | testRun.e2e.ts | examples.e2e.ts) [ "$lane" = main ] || realtime+=("$file") ;;
		*) [ "$lane" = realtime ] || main+=("$file") ;;
		esac
	done
	if [ -n "$results" ]; then
		main_report=(--json "--outputFile=$results/$environment.lane-main.json")
		realtime_report=(--json "--outputFile=$results/$environment.lane-realtime.json")
	fi
	if [ ${#realtime[@]} -gt 0 ]; then
		EMBROIDERY_E2E_ENV=$environment EMBROIDERY_PROGRESS_LABEL="e2e $environment (real-time lane)" \
			npx jest -c test/e2e/jest.config.js --maxWorkers=${#realtime[@]} --runTestsByPath \
			${realtime_report[@]+"${realtime_report[@]}"} ${e2e_run[@]+"${e2e_run[@]}"} "${realtime[@]}" \
			>"$lanes_dir/$environment.realtime.log" 2>&1 &
		lane_pid=$!
	fi
	if [ ${#main[@]} -gt 0 ]; then
		EMBROIDERY_E2E_ENV=$environment EMBROIDERY_PROGRESS_LABEL="e2e $environment" \
			npx jest -c test/e2e/jest.config.js --runInBand --runTestsByPath \
			${main_report[@]+"${main_report[@]}"} ${e2e_run[@]+"${e2e_run[@]}"} "${main[@]}" || status=$?
	fi
	if [ ${#realtime[@]} -gt 0 ]; then
		local realtime_status=0
		wait "$lane_pid" || realtime_status=$?
		# A stop (130, 143) that ended the main lane is kept: the caller needs it more than a failure.
		case $status in 130 | 143) ;; *) [ $realtime_status -eq 0 ] || status=$realtime_status ;; esac
		[ ${#main[@]} -eq 0 ] || echo "----- e2e $environment, real-time lane (ran beside the files above) -----" >&2
		cat "$lanes_dir/$environment.realtime.log" >&2
	fi
	if [ -n "$results" ]; then
		local ran=()
		[ ${#main[@]} -eq 0 ] || ran+=("$results/$environment.lane-main.json")
		[ ${#realtime[@]} -eq 0 ] || ran+=("$results/$environment.lane-realtime.json")
		node scripts/merge-jest-results.mjs "$results/$key.json" ${ran[@]+"${ran[@]}"}
		rm -f ${ran[@]+"${ran[@]}"}
	fi
	return $status
}

# Runs one environment; jest itself always runs on Node 24, the n8n it drives on its own Node. Its results
# are named after the environment, and after the lane too when --lane names one (queue mode has one lane).
run_environment() {
	local environment="$1" started=$SECONDS status=0 report=() key="$1" label="e2e $1"
	if [ -n "$lane" ] && [ "$environment" != queue ]; then key="$environment.$lane" label="e2e $environment ($lane_label)"; fi
	# jest's machine-readable results, when a results folder was asked for.
	if [ -n "$results" ]; then report=(--json "--outputFile=$results/$key.json"); fi
	case "$environment" in
	n8n2)
		ensure_n8n "$N8N_VERSION_TESTED" 24
		run_lanes n8n2 "$key" || status=$?
		;;
	n8n1)
		ensure_n8n "$N8N1_VERSION_TESTED" 22
		run_lanes n8n1 "$key" || status=$?
		;;
	queue)
		if [ ${#queue_bench[@]} -gt 0 ]; then
			bash test/queue/run.sh --bench ${queue_run[@]+"${queue_run[@]}"} || status=$?
		else
			bash test/queue/run.sh ${report[@]+"${report[@]}"} ${queue_run[@]+"${queue_run[@]}"} || status=$?
		fi
		;;
	esac
	echo "$label: $([ $status -eq 0 ] && echo passed || echo "FAILED ($status)") in $((SECONDS - started)) s" >&2
	if [ -n "$results" ]; then
		echo $((SECONDS - started)) >"$results/$key.seconds"
		echo $status >"$results/$key.status"
	fi
	return $status
}

failed=() stopped=0
# Notes an environment that did not pass, and whether a signal ended it (130: SIGINT, 143: SIGTERM).
not_passed() {
	failed+=("$1")
	if [ "$2" = 130 ] || [ "$2" = 143 ]; then stopped=$2; fi
}
if [ $parallel -eq 1 ] && [ ${#environments[@]} -gt 1 ]; then
	logs="$(mktemp -d "${TMPDIR:-/tmp}/embroidery-e2e-logs-XXXXXX")"
	progress_dir="${EMBROIDERY_E2E_PROGRESS:-$logs}"
	declare -A pids=()
	for environment in "${environments[@]}"; do
		EMBROIDERY_PROGRESS_DIR="$progress_dir" run_environment "$environment" >"$logs/$environment.log" 2>&1 &
		pids[$environment]=$!
	done
	# One line with each jest run's progress while the environments run into their logs.
	show_progress "$progress_dir" &
	progress=$!
	for environment in "${environments[@]}"; do
		status=0
		wait "${pids[$environment]}" || status=$?
		[ $status -eq 0 ] || not_passed "$environment" $status
	done
	kill "$progress" 2>/dev/null || true
	wait "$progress" 2>/dev/null || true
	if [ -t 2 ]; then echo >&2; fi
	for environment in "${environments[@]}"; do
		echo "===== e2e $environment${lane_label:+ ($lane_label)} =====" >&2
		cat "$logs/$environment.log" >&2
	done
	rm -rf "$logs"
else
	for environment in "${environments[@]}"; do
		status=0
		run_environment "$environment" || status=$?
		[ $status -eq 0 ] || not_passed "$environment" $status
	done
fi
if [ ${#failed[@]} -gt 0 ]; then
	echo "End-to-end environments that failed: ${failed[*]}" >&2
	if [ $stopped -ne 0 ]; then exit $stopped; fi
	exit 1
fi
