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
. test/e2e/progress.sh

environments=()
parallel=0
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

# The e2e files of an n8n line run in lanes side by side, each a jest run with its own global setup (sandbox,
# n8n user folder): the trigger files (test/e2e/trigger*.e2e.ts), which spend real minutes waiting for n8n's
# polls (n8n refuses polls more often than once a minute) and so use little CPU, each in a worker of its own;
# and every other file, in band, split into EMBROIDERY_E2E_LANES lanes (default 2) of about equal measured time
# (test/durations.json). The lanes' results are merged into one <environment>.json.
main_lanes="${EMBROIDERY_E2E_LANES:-2}"
case "$main_lanes" in [1-9]) ;; *)
	echo "EMBROIDERY_E2E_LANES is \"$main_lanes\"; give the number of lanes for the e2e files other than the trigger's, 1 to 9." >&2
	exit 2
	;;
esac

# Prints "<lane> <file>" for each file: longest first (test/durations.json's seconds, from an n8n 2.41 run; 60 s
# for a file it does not name), each to the lane with the fewest seconds so far.
split_into_lanes() {
	node -e '
		const [lanes, ...files] = process.argv.slice(1);
		const seconds = JSON.parse(require("node:fs").readFileSync("test/durations.json", "utf8"));
		const time = (file) => seconds[file.replace(/^\.\//, "")] ?? 60;
		const load = Array.from({ length: Number(lanes) }, () => 0);
		for (const file of [...files].sort((a, b) => time(b) - time(a))) {
			const lane = load.indexOf(Math.min(...load));
			load[lane] += time(file);
			console.log(lane + 1, file);
		}
	' "$1" "${@:2}"
}

run_lanes() {
	local environment="$1" file status=0 lane lanes=0 files=() main=() minutes=() pids=() names=() ran=()
	local report=()
	if [ ${#e2e_given[@]} -gt 0 ]; then files=("${e2e_given[@]}"); else files=(test/e2e/*.e2e.ts); fi
	for file in "${files[@]}"; do
		case "$(basename "$file")" in trigger*.e2e.ts) minutes+=("$file") ;; *) main+=("$file") ;; esac
	done
	# lane_files[N]: the files of main lane N, one list per lane.
	local -A lane_files=()
	if [ ${#main[@]} -gt 0 ]; then
		while read -r lane file; do
			lane_files[$lane]+=" $file"
			[ "$lane" -le "$lanes" ] || lanes=$lane
		done < <(split_into_lanes "$main_lanes" "${main[@]}")
	fi
	if [ ${#minutes[@]} -gt 0 ]; then
		report=()
		[ -z "$results" ] || report=(--json "--outputFile=$results/$environment.minutes.json")
		EMBROIDERY_E2E_ENV=$environment EMBROIDERY_PROGRESS_LABEL="e2e $environment (trigger lane)" \
			npx jest -c test/e2e/jest.config.js --maxWorkers=${#minutes[@]} --runTestsByPath \
			${report[@]+"${report[@]}"} ${e2e_run[@]+"${e2e_run[@]}"} "${minutes[@]}" \
			>"$lanes_dir/$environment.minutes.log" 2>&1 &
		pids+=($!) names+=(minutes)
		ran+=("$results/$environment.minutes.json")
	fi
	for ((lane = 1; lane <= lanes; lane++)); do
		report=()
		[ -z "$results" ] || report=(--json "--outputFile=$results/$environment.main$lane.json")
		local label="e2e $environment"
		[ "$lane" -eq 1 ] || label="e2e $environment (lane $lane)"
		# shellcheck disable=SC2086 # lane_files holds a list of paths without spaces (test/e2e/*.e2e.ts).
		EMBROIDERY_E2E_ENV=$environment EMBROIDERY_PROGRESS_LABEL="$label" \
			npx jest -c test/e2e/jest.config.js --runInBand --runTestsByPath \
			${report[@]+"${report[@]}"} ${e2e_run[@]+"${e2e_run[@]}"} ${lane_files[$lane]} \
			>"$lanes_dir/$environment.main$lane.log" 2>&1 &
		pids+=($!) names+=("main$lane")
		ran+=("$results/$environment.main$lane.json")
	done
	for index in "${!pids[@]}"; do
		wait "${pids[$index]}" || status=$?
	done
	for name in "${names[@]}"; do
		case "$name" in
		minutes) echo "----- e2e $environment, trigger lane -----" >&2 ;;
		*) echo "----- e2e $environment, lane ${name#main} of $lanes:$(printf ' %s' ${lane_files[${name#main}]}) -----" >&2 ;;
		esac
		cat "$lanes_dir/$environment.$name.log" >&2
	done
	if [ -n "$results" ] && [ ${#ran[@]} -gt 0 ]; then
		node scripts/merge-jest-results.mjs "$results/$environment.json" "${ran[@]}"
	fi
	return $status
}

# Runs one environment; jest itself always runs on Node 24, the n8n it drives on its own Node.
run_environment() {
	local environment="$1" started=$SECONDS status=0 report=()
	# jest's machine-readable results, when a results folder was asked for.
	if [ -n "$results" ]; then report=(--json "--outputFile=$results/$environment.json"); fi
	case "$environment" in
	n8n2)
		ensure_n8n "$N8N_VERSION_TESTED" 24
		run_lanes n8n2 || status=$?
		;;
	n8n1)
		ensure_n8n "$N8N1_VERSION_TESTED" 22
		run_lanes n8n1 || status=$?
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

# While the lanes and environments run into their logs: one line per environment with the progress of its jest
# runs (test/e2e/progress.sh), rewritten in place on a terminal, else every 30 s. scripts/test.sh, which shows
# every tier's line itself, gives its own EMBROIDERY_PROGRESS_DIR and EMBROIDERY_PROGRESS_SHOWN=1.
show_progress() {
	local dir="$1" started=$SECONDS line ticks=0
	while sleep 5; do
		ticks=$((ticks + 1))
		line="$(progress_lines "$dir" | paste -sd'|' | sed 's/|/ | /g')"
		line="e2e, $((SECONDS - started)) s: ${line:-starting}"
		if [ -t 2 ]; then
			printf '\r\033[K%s' "${line:0:$(($(tput cols 2>/dev/null || echo 200) - 1))}" >&2
		elif [ $((ticks % 6)) -eq 0 ]; then
			echo "$line" >&2
		fi
	done
}

progress=""
if [ "${EMBROIDERY_PROGRESS_SHOWN:-}" != 1 ]; then
	EMBROIDERY_PROGRESS_DIR="$(mktemp -d "${TMPDIR:-/tmp}/embroidery-e2e-progress-XXXXXX")"
	show_progress "$EMBROIDERY_PROGRESS_DIR" &
	progress=$!
fi
export EMBROIDERY_PROGRESS_DIR
stop_progress() {
	[ -n "$progress" ] || return 0
	kill "$progress" 2>/dev/null || true
	wait "$progress" 2>/dev/null || true
	if [ -t 2 ]; then echo >&2; fi
	rm -rf "$EMBROIDERY_PROGRESS_DIR"
	progress=""
}
trap 'stop_progress; rm -rf "$lanes_dir"' EXIT

failed=()
if [ $parallel -eq 1 ] && [ ${#environments[@]} -gt 1 ]; then
	logs="$(mktemp -d "${TMPDIR:-/tmp}/embroidery-e2e-logs-XXXXXX")"
	declare -A pids=()
	for environment in "${environments[@]}"; do
		run_environment "$environment" >"$logs/$environment.log" 2>&1 &
		pids[$environment]=$!
	done
	for environment in "${environments[@]}"; do
		wait "${pids[$environment]}" || failed+=("$environment")
	done
	stop_progress
	for environment in "${environments[@]}"; do
		echo "===== e2e $environment =====" >&2
		cat "$logs/$environment.log" >&2
	done
	rm -rf "$logs"
else
	for environment in "${environments[@]}"; do
		run_environment "$environment" || failed+=("$environment")
	done
	stop_progress
fi
if [ ${#failed[@]} -gt 0 ]; then
	echo "End-to-end environments that failed: ${failed[*]}" >&2
	exit 1
fi
