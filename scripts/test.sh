#!/usr/bin/env bash
# The whole test suite, from a fresh clone: Node 24, dependencies, build, lint, scan, types, unit and
# integration tests against the sandbox, and the end-to-end runs in every environment
# (test/e2e/run.sh: the two n8n versions of scripts/n8n.sh, on Node 24 and 22, queue mode when present).
#
# Every core is used: after the build, every tier starts at once and runs beside the others, each into a log
# of its own: the end-to-end environments first (their n8n installs, then their lanes; most of their time is
# waiting on n8n's minute polls and on queue mode's servers starting), then, at a lower priority (nice) that
# leaves the e2e tiers' real n8n processes the cores when they need them, the lint, the scan and the type
# check, and jest (two workers per core). One line per tier shows how far it is while they run; then come
# their logs, in order. Every tier runs even when another failed (the end-to-end runs need the build), and
# the run ends with a summary: each tier's time and test count, then the line "N passed, N failed".
#
# Ctrl-C (SIGINT or SIGTERM) at any point stops everything the run started, detached process groups
# included (n8n and its task runners, sandboxes, Postgres, Redis, Chromium), and removes every temporary
# folder it made: a second Ctrl-C kills at once instead of waiting for them to stop. test/e2e/testRun.e2e.ts
# checks this.
#
# A smaller run (for that test, or to try a change of this script):
#   EMBROIDERY_TEST_TIERS=build,jest,n8n2   the tiers to run (build lint scan typecheck jest n8n2 n8n1 queue)
#   EMBROIDERY_TEST_JEST="test/x.test.ts"   jest's arguments for the jest tier
#   EMBROIDERY_TEST_E2E="test/e2e/n8n.e2e.ts"  test/e2e/run.sh's arguments (test files)
#   EMBROIDERY_TEST_KEEP_RESULTS=<folder>    where to keep the tiers' jest results (for scripts/test-durations.mjs)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/node24.sh
. scripts/n8n.sh
. scripts/chromium.sh
. test/e2e/progress.sh

all_tiers=(build lint scan typecheck jest n8n2 n8n1)
[ -f test/queue/run.sh ] && all_tiers+=(queue)
IFS=',' read -r -a tiers <<<"${EMBROIDERY_TEST_TIERS:-$(
	IFS=,
	echo "${all_tiers[*]}"
)}"
for name in "${tiers[@]}"; do
	case " ${all_tiers[*]} " in *" $name "*) ;; *)
		echo "EMBROIDERY_TEST_TIERS names \"$name\"; the tiers are: ${all_tiers[*]}." >&2
		exit 2
		;;
	esac
done
wanted() { case " ${tiers[*]} " in *" $1 "*) return 0 ;; *) return 1 ;; esac }

# Everything this run starts carries this mark in its environment, and every temporary folder it makes is
# inside $work (TMPDIR): on Ctrl-C, stop_run finds the processes by the mark or by a working folder inside
# $work (Postgres runs as its own account, without the mark), ends their process groups, and removes $work.
export EMBROIDERY_TEST_RUN="npm-test-$$-$(date +%s)"
outer_tmp="${TMPDIR:-/tmp}"
work="$(mktemp -d "$outer_tmp/embroidery-test-XXXXXX")"
# The Postgres account of test/queue reaches its folders inside.
chmod 755 "$work"
mkdir "$work/tmp"
chmod 1777 "$work/tmp"
# jest's transform cache stays where it was (it is keyed on the temporary folder otherwise); a run inside
# another (test/e2e/testRun.e2e.ts) keeps the outer one's.
export EMBROIDERY_OUTER_TMPDIR="${EMBROIDERY_OUTER_TMPDIR:-$outer_tmp}"
export TMPDIR="$work/tmp"

# The pids of this run's processes (the mark, or a working folder in $work), this shell aside: one process
# reads /proc (a grep per process took minutes for a sweep on a loaded machine). The shells between that
# process and this script (command substitutions, forks that keep the mark in their environment) are not
# counted: they are the sweep itself.
run_pids() {
	node -e '
		const { readdirSync, readFileSync, readlinkSync } = require("node:fs");
		const [mark, work, script] = process.argv.slice(1);
		const parentOf = (pid) => {
			try {
				const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
				return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1];
			} catch {
				return undefined;
			}
		};
		const sweep = new Set([String(process.pid), script]);
		for (let pid = parentOf(process.pid); pid && pid !== "0" && pid !== script; pid = parentOf(pid))
			sweep.add(pid);
		for (const pid of readdirSync("/proc").filter((entry) => /^[0-9]+$/.test(entry))) {
			if (sweep.has(pid)) continue;
			let found = false;
			try {
				found = readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(mark);
			} catch {}
			if (!found) {
				try {
					const cwd = readlinkSync(`/proc/${pid}/cwd`);
					found = cwd === work || cwd.startsWith(`${work}/`);
				} catch {}
			}
			if (found) console.log(pid);
		}
	' "EMBROIDERY_TEST_RUN=$EMBROIDERY_TEST_RUN" "$work" "$$"
}

# Sets `group` to the process group of a process, from /proc (no process started for it); empty once it ended.
group_of() {
	local stat
	group=""
	read -r stat 2>/dev/null <"/proc/$1/stat" || return 0
	# The fields after the command's name in parentheses: state, ppid, pgrp, ...
	stat="${stat##*) }"
	# shellcheck disable=SC2086 # split into its fields
	set -- $stat
	group="$3"
}

# Sends a signal to this run's processes and to their process groups (n8n's task runners and Chromium's
# helpers need not carry the mark), never to this script's own group (npm and the terminal's other commands).
signal_run() {
	local signal="$1" pid group own_group
	group_of $$
	own_group="$group"
	for pid in $(run_pids); do
		group_of "$pid"
		if [ -n "$group" ] && [ "$group" != "$own_group" ]; then
			kill "-$signal" -- "-$group" 2>/dev/null || true
		fi
		kill "-$signal" "$pid" 2>/dev/null || true
	done
}

# Ctrl-C: everything gets SIGTERM and up to 15 s to stop (n8n saves its state), then SIGKILL; a second
# Ctrl-C skips the wait. Then the temporary folders go.
stop_now=0
# The pids of the tiers running side by side, and of the progress lines (below).
pids=()
shower=""
stop_run() {
	trap 'stop_now=1' INT TERM
	# The commands below must not carry the mark themselves.
	export -n EMBROIDERY_TEST_RUN
	echo >&2
	echo "Interrupted: stopping everything this run started (Ctrl-C again to kill it at once)..." >&2
	# This script's own subshells (the tiers run side by side, the progress lines) show no mark in /proc (a
	# fork keeps the environment this script started with): they are stopped by their pids.
	if [ -n "${shower:-}" ]; then
		kill -KILL "$shower" 2>/dev/null || true
		{ wait "$shower"; } 2>/dev/null || true
	fi
	[ ${#pids[@]} -eq 0 ] || kill -TERM "${pids[@]}" 2>/dev/null || true
	signal_run TERM
	local waited=0
	while [ -n "$(run_pids)" ] && [ $stop_now -eq 0 ] && [ $waited -lt 150 ]; do
		sleep 0.1 || true
		waited=$((waited + 1))
	done
	# Killed again until none is left: a process whose parent was just killed may have started one more
	# (an n8n import the e2e setup was spawning) after the sweep before it.
	signal_run KILL
	waited=0
	while [ -n "$(run_pids)" ] && [ $waited -lt 50 ]; do
		sleep 0.1 || true
		signal_run KILL
		waited=$((waited + 1))
	done
	local left
	left="$(run_pids | paste -sd' ')"
	rm -rf "$work"
	if [ -n "$left" ]; then
		echo "Stopped, but these processes of the run did not end: $left" >&2
	else
		echo "Stopped: no process of this run is left, and its temporary folders are removed." >&2
	fi
	exit 130
}
trap stop_run INT TERM
trap 'rm -rf "$work"' EXIT

ensure_node24
ensure_dependencies
# The account pages' tests drive Debian's Chromium; without it they fail and say so.
if wanted jest || wanted n8n2 || wanted n8n1; then
	ensure_chromium || echo "Chromium could not be installed; the browser tests will fail." >&2
fi
# Each tier leaves <tier>.seconds and <tier>.status here, and jest's results in <tier>.json.
results="$work/results"
mkdir -p "$results"

# Runs one tier (its name, then the command) and records its seconds and exit status.
tier() {
	local name="$1" started=$SECONDS status=0
	shift
	"$@" || status=$?
	echo $((SECONDS - started)) >"$results/$name.seconds"
	echo $status >"$results/$name.status"
	return $status
}

if wanted build; then tier build npm run build || true; fi

# After the build every other tier starts at once, each into its log (printed in order at the end), and
# one line per tier shows how far each is. The end-to-end environments start first: most of their time is
# waiting (the trigger's real minutes, queue mode's Postgres, Redis and n8n instances starting), which the
# checks and jest fill with work. The n8n installs (once, cached) come first in that tier, one after another
# so that npm and the sqlite3 builds do not fight each other, while the checks and jest keep the cores busy.
progress_dir="$work/progress"
mkdir -p "$progress_dir"
e2e_tiers=()
for name in n8n2 n8n1 queue; do if wanted $name; then e2e_tiers+=("$name"); fi; done
started_tiers=()
start_tier() {
	"$@" &
	pids+=($!)
}
end_to_end() {
	if wanted n8n2 || wanted queue; then ensure_n8n "$N8N_VERSION_TESTED" 24 || return 1; fi
	if wanted n8n1; then ensure_n8n "$N8N1_VERSION_TESTED" 22 || return 1; fi
	return 0
}
run_end_to_end() {
	local built=()
	# Without the build tier, test/e2e/run.sh builds.
	if wanted build; then built=(EMBROIDERY_BUILT=1); fi
	if ! end_to_end >"$work/install.log" 2>&1; then
		cat "$work/install.log"
		echo "Installing n8n for the end-to-end runs failed (log above); the end-to-end environments did not run."
	elif wanted build && [ "$(cat "$results/build.status")" != 0 ]; then
		echo "The build failed; the end-to-end environments did not run."
	else
		# shellcheck disable=SC2086 # EMBROIDERY_TEST_E2E is a list of arguments.
		env ${built[@]+"${built[@]}"} EMBROIDERY_TEST_RESULTS="$results" EMBROIDERY_PROGRESS_DIR="$progress_dir" \
			EMBROIDERY_PROGRESS_SHOWN=1 bash test/e2e/run.sh --parallel "--only=$(
				IFS=,
				echo "${e2e_tiers[*]}"
			)" ${EMBROIDERY_TEST_E2E:-} || true
	fi
}
if [ ${#e2e_tiers[@]} -gt 0 ]; then
	start_tier run_end_to_end >"$work/e2e.log" 2>&1
	started_tiers+=("${e2e_tiers[@]}")
fi
# The checks and jest run at a lower priority than the end-to-end tiers (nice): those wait on real n8n
# processes within real limits (n8n's boots, a hook's 300 s), so they get the cores when they need them,
# and the checks (no time limits at all) and jest take whatever the e2e tiers leave, which is most of it.
# The scan packs what the build tier built (scripts/scan.sh would build again, under the e2e tiers' feet).
for name in lint scan typecheck; do
	if wanted $name; then
		if [ $name = scan ] && wanted build; then
			start_tier tier scan nice -n 10 npm run scan -- "$PWD" >"$work/scan.log" 2>&1
		else
			start_tier tier $name nice -n 10 npm run $name >"$work/$name.log" 2>&1
		fi
		started_tiers+=("$name")
	fi
done
if wanted jest; then
	# shellcheck disable=SC2086 # EMBROIDERY_TEST_JEST is a list of arguments.
	start_tier tier jest nice -n 5 env EMBROIDERY_PROGRESS_DIR="$progress_dir" npx jest --ci --json \
		--outputFile="$results/jest.json" ${EMBROIDERY_TEST_JEST:-} >"$work/jest.log" 2>&1
	started_tiers+=(jest)
fi

# One line per tier while they run: the checks' seconds, jest's and each e2e environment's files and tests
# done (test/e2e/progress.sh), then "passed"/"FAILED" with the tier's seconds once it has ended. On a
# terminal the lines are rewritten in place; in a log (CI) they come every 30 s.
tier_lines() {
	local name label elapsed=$1 jest_lines
	jest_lines="$(progress_lines "$progress_dir")"
	for name in "${started_tiers[@]}"; do
		case "$name" in n8n2 | n8n1 | queue) label="e2e $name" ;; *) label="$name" ;; esac
		if [ -f "$results/$name.status" ]; then
			if [ "$(cat "$results/$name.status")" = 0 ]; then
				echo "$label: passed in $(cat "$results/$name.seconds") s"
			else
				echo "$label: FAILED in $(cat "$results/$name.seconds") s"
			fi
		elif grep -q "^$label: " <<<"$jest_lines"; then
			# The jest runs write their line when a file ends or every 30 s: the seconds here are the tier's own.
			grep "^$label: " <<<"$jest_lines" | sed -E "s/, [0-9]+ s\$/, $elapsed s/"
		else
			echo "$label: running, $elapsed s"
		fi
	done
}
show_tiers() {
	local started=$SECONDS shown=0 ticks=0 width
	width=$(($(tput cols 2>/dev/null || echo 200) - 1))
	draw() {
		local lines line
		lines="$(tier_lines $((SECONDS - started)))"
		if [ -t 2 ]; then
			[ $shown -eq 0 ] || printf '\033[%dA\033[J' "$shown" >&2
			shown=0
			while IFS= read -r line; do
				printf '%s\n' "${line:0:$width}" >&2
				shown=$((shown + 1))
			done <<<"$lines"
		elif [ "$1" = always ] || [ $((ticks % 6)) -eq 5 ]; then
			sed "s/^/[npm test, $((SECONDS - started)) s] /" <<<"$lines" >&2
		fi
	}
	# Told to stop (every tier has ended): the lines once more, as they end.
	local sleeper=""
	trap 'kill $sleeper 2>/dev/null; draw always; exit 0' TERM
	while :; do
		draw sometimes
		ticks=$((ticks + 1))
		sleep 5 &
		sleeper=$!
		wait $sleeper || true
	done
}
if [ ${#pids[@]} -gt 0 ]; then
	echo "Running side by side: ${started_tiers[*]} (each tier's output follows once all have ended)." >&2
	show_tiers &
	shower=$!
	for pid in "${pids[@]}"; do wait "$pid" || true; done
	kill "$shower" 2>/dev/null || true
	wait "$shower" 2>/dev/null || true
	for name in lint scan typecheck jest; do
		if [ -f "$work/$name.log" ]; then
			echo "===== $name ====="
			cat "$work/$name.log"
		fi
	done
	if [ -f "$work/e2e.log" ]; then cat "$work/e2e.log"; fi
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
echo "Summary (seconds of wall time; after the build every tier ran side by side, so the total is less than their sum):"
for name in "${tiers[@]}"; do
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
		# A check that could not run says so here too (the scan's YARA rules are optional, see docs/development.md).
		if [ -f "$work/$name.log" ]; then
			not_run="$(grep -E '^⚠️ +.*: not run: ' "$work/$name.log" | sed -E 's/^⚠️ +//; s/: not run: .*//' | paste -sd, || true)"
			[ -z "$not_run" ] || verdict="$verdict, not run: $not_run"
		fi
		printf '  %-10s %6s  %s\n' "$label" "$seconds s" "$verdict"
	fi
done
printf '  %-10s %6s\n' total "$SECONDS s"
echo "${passed} passed, ${failed} failed"
# EMBROIDERY_TEST_KEEP_RESULTS=<folder> keeps the tiers' jest results (jest.json, n8n2.json, ...), for
# `node scripts/test-durations.mjs <folder>/*.json` (test/durations.json).
if [ -n "${EMBROIDERY_TEST_KEEP_RESULTS:-}" ]; then
	mkdir -p "$EMBROIDERY_TEST_KEEP_RESULTS"
	cp "$results"/*.json "$EMBROIDERY_TEST_KEEP_RESULTS/" 2>/dev/null || true
fi
[ "$failed_tiers" -eq 0 ] && [ "$failed" -eq 0 ]
