#!/usr/bin/env bash
# The whole test suite, from a fresh clone: Node 24, dependencies, build, lint, types, unit and
# integration tests against the sandbox, then the end-to-end runs in every environment
# (test/e2e/run.sh: the two n8n versions of scripts/n8n.sh, on Node 24 and 22, queue mode when present).
#
# Every core is used: the n8n installs download during the checks; lint, scan and the type check run
# side by side once the build is done; jest runs two workers per core; the end-to-end environments run
# side by side (each has its own sandbox, n8n ports, user folder and data, see test/e2e/run.sh).
# Every tier runs even when an earlier one failed (the end-to-end runs need the build), and the run ends
# with a summary: each tier's time and test count, then the line "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/node24.sh
. scripts/n8n.sh
. scripts/chromium.sh
ensure_node24
ensure_dependencies
# The account pages' tests drive Debian's Chromium; without it they fail and say so.
ensure_chromium || echo "Chromium could not be installed; the browser tests will fail." >&2

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Each tier leaves <tier>.seconds and <tier>.status here, and jest's results in <tier>.json.
results="$work/results"
mkdir -p "$results"

# The n8n installs (once, cached) download while the checks below keep the cores busy; they run one
# after another so that npm and the sqlite3 builds do not fight each other.
(ensure_n8n "$N8N_VERSION_TESTED" 24 && ensure_n8n "$N8N1_VERSION_TESTED" 22) >"$work/install.log" 2>&1 &
installs=$!

# Runs one tier (its name, then the command) and records its seconds and exit status.
tier() {
	local name="$1" started=$SECONDS status=0
	shift
	"$@" || status=$?
	echo $((SECONDS - started)) >"$results/$name.seconds"
	echo $status >"$results/$name.status"
	return $status
}

# Runs package scripts as tiers side by side, each into its own log, and prints the logs in order.
checks_side_by_side() {
	local name pids=()
	for name in "$@"; do
		tier "$name" npm run "$name" >"$work/$name.log" 2>&1 &
		pids+=($!)
	done
	for index in "${!pids[@]}"; do
		wait "${pids[$index]}" || true
		cat "$work/${@:index+1:1}.log"
	done
}

tier build npm run build || true
# scan.sh builds again before it packs; nothing else reads dist/ until jest (test/package).
checks_side_by_side lint scan typecheck
tier jest npx jest --ci --json --outputFile="$results/jest.json" || true

e2e_tiers=(n8n2 n8n1)
[ -f test/queue/run.sh ] && e2e_tiers+=(queue)
if ! wait "$installs"; then
	cat "$work/install.log" >&2
	echo "Installing n8n for the end-to-end runs failed (log above); the end-to-end environments did not run." >&2
elif [ "$(cat "$results/build.status")" != 0 ]; then
	echo "The build failed; the end-to-end environments did not run." >&2
else
	EMBROIDERY_BUILT=1 EMBROIDERY_TEST_RESULTS="$results" bash test/e2e/run.sh --parallel || true
fi

# Passed, failed and skipped tests of a jest results file; a suite that could not run counts as failed, and
# so does a results file that cannot be read.
jest_counts() {
	node -e '
		const r = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"));
		console.log(r.numPassedTests, r.numFailedTests + r.numRuntimeErrorTestSuites, r.numPendingTests + r.numTodoTests);
	' "$1" 2>/dev/null || echo 0 1 0
}

passed=0 failed=0 failed_tiers=0
echo
echo "Summary (seconds of wall time; lint, scan and typecheck ran side by side, and so did the e2e environments):"
for name in build lint scan typecheck jest "${e2e_tiers[@]}"; do
	case "$name" in n8n2 | n8n1) label="e2e $name" ;; *) label="$name" ;; esac
	if [ ! -f "$results/$name.status" ]; then
		printf '  %-10s %6s  did not run\n' "$label" '-'
		failed=$((failed + 1)) failed_tiers=$((failed_tiers + 1))
		continue
	fi
	seconds="$(cat "$results/$name.seconds")" status="$(cat "$results/$name.status")"
	verdict=passed
	[ "$status" = 0 ] || verdict="FAILED (exit $status)" failed_tiers=$((failed_tiers + 1))
	if [ -f "$results/$name.json" ]; then
		read -r tier_passed tier_failed tier_skipped < <(jest_counts "$results/$name.json")
		# A jest that exits non-zero with no failed test (a crash, a failed global setup) still counts one.
		if [ "$status" != 0 ] && [ "$tier_failed" = 0 ]; then tier_failed=1; fi
		passed=$((passed + tier_passed)) failed=$((failed + tier_failed))
		printf '  %-10s %6s  %s: %s tests passed, %s failed, %s skipped\n' "$label" "$seconds s" "$verdict" "$tier_passed" "$tier_failed" "$tier_skipped"
	else
		# A failed check without tests (build, lint, scan, typecheck, or a jest that left no results) counts as one.
		[ "$status" = 0 ] || failed=$((failed + 1))
		printf '  %-10s %6s  %s\n' "$label" "$seconds s" "$verdict"
	fi
done
printf '  %-10s %6s\n' total "$SECONDS s"
echo "${passed} passed, ${failed} failed"
[ "$failed_tiers" -eq 0 ] && [ "$failed" -eq 0 ]
