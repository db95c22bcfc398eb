#!/usr/bin/env bash
# The unit and integration tier (jest) on a busy machine: two CPU-bound processes run beside it for its whole
# length, as a contributor's build or browser would, so that a test which races the wall clock fails here and
# not on someone else's laptop (issue 42).
#
#   bash scripts/test-under-load.sh                 the whole unit tier, once
#   bash scripts/test-under-load.sh --runs=3        three times in a row; exits 1 when any run failed
#   bash scripts/test-under-load.sh --burners=4 test/sandbox/cli.test.ts   more load, some files (jest arguments)
#
# Prints each run's seconds, the load average it saw and its passed/failed counts; the burners are stopped
# however the script ends (Ctrl-C too).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/node24.sh
ensure_node24

runs=1 burners=2 jest_args=()
for arg in "$@"; do
	case "$arg" in
	--runs=*) runs="${arg#--runs=}" ;;
	--burners=*) burners="${arg#--burners=}" ;;
	*) jest_args+=("$arg") ;;
	esac
done
case "$runs$burners" in *[!0-9]*) echo "--runs and --burners take a whole number." >&2; exit 2 ;; esac

# test/package reads dist/, as in `npm test`, where the build tier comes first; built before the burners start.
npm run build >/dev/null

work="$(mktemp -d "${TMPDIR:-/tmp}/embroidery-load-XXXXXX")"
burner_pids=()
stop_burners() {
	local pid
	for pid in ${burner_pids[@]+"${burner_pids[@]}"}; do kill "$pid" 2>/dev/null || true; done
	for pid in ${burner_pids[@]+"${burner_pids[@]}"}; do wait "$pid" 2>/dev/null || true; done
	burner_pids=()
}
trap 'stop_burners; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# A CPU-bound process: Node spinning on arithmetic, at the same priority as jest.
for _ in $(seq "$burners"); do
	node -e 'let x = 0; for (;;) x = (x * 1103515245 + 12345) % 2147483648;' &
	burner_pids+=($!)
done

failed_runs=0
for run in $(seq "$runs"); do
	started=$SECONDS status=0
	npx jest --ci --json --outputFile="$work/run$run.json" ${jest_args[@]+"${jest_args[@]}"} >"$work/run$run.log" 2>&1 || status=$?
	load="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
	counts="$(node -e '
		const r = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"));
		const failed = r.testResults.filter((f) => f.status === "failed").map((f) => f.name.replace(process.cwd() + "/", ""));
		console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numRuntimeErrorTestSuites} suites that could not run` +
			(failed.length ? `; failing files: ${failed.join(", ")}` : ""));
	' "$work/run$run.json" 2>/dev/null || echo "no results (jest exit $status)")"
	echo "run $run of $runs beside $burners CPU-bound processes: $((SECONDS - started)) s, load average $load: $counts"
	# jest's results of every run, for test/durations.json (node scripts/test-durations.mjs <file>).
	if [ -s "$work/run$run.json" ]; then
		results="${TMPDIR:-/tmp}/embroidery-load-run$run-$(date +%Y%m%d-%H%M%S).json"
		cp "$work/run$run.json" "$results"
		echo "jest's results of run $run: $results"
	fi
	if [ $status -ne 0 ]; then
		failed_runs=$((failed_runs + 1))
		# The failures themselves (jest's first lines of each), for the report; the whole output is kept.
		awk '/^  ● /{n=25} n-- > 0' "$work/run$run.log" | head -300 || true
		kept="${TMPDIR:-/tmp}/embroidery-load-run$run-$(date +%Y%m%d-%H%M%S).log"
		cp "$work/run$run.log" "$kept"
		echo "jest's whole output of run $run: $kept"
	fi
done
stop_burners
[ $failed_runs -eq 0 ]
