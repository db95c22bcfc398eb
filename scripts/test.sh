#!/usr/bin/env bash
# The whole test suite, from a fresh clone: Node 24, dependencies, build, lint, types, unit and
# integration tests against the sandbox, then the end-to-end runs in every environment
# (test/e2e/run.sh: the two n8n versions of scripts/n8n.sh, on Node 24 and 22, queue mode when present).
#
# Every core is used: the n8n installs download during the checks; lint, scan and the type check run
# side by side once the build is done; jest runs two workers per core; the n8n lines' real-time lanes
# (files that mostly wait for real minutes) and queue mode run beside the checks and jest, and as the
# real-time lanes end the n8n lines' other files (their main lanes) start, beside the rest of jest (each
# environment and lane has its own sandbox, n8n ports, user folder and data, see test/e2e/run.sh).
# Every tier runs even when an earlier one failed (the end-to-end runs need the build), and the run ends
# with a summary: each tier's time and test count, then the line "N passed, N failed".
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
#   EMBROIDERY_BUILT=1                      dist/ is built already (a run without the build tier)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/node24.sh
. scripts/n8n.sh
. scripts/chromium.sh
. scripts/progress.sh

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
# A run inside another (test/e2e/testRun.e2e.ts) shows its own progress, not on the outer run's line.
unset EMBROIDERY_PROGRESS_DIR EMBROIDERY_PROGRESS_LABEL
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

# The pids of this run's processes, this shell aside: those with the mark in their environment, those working in
# $work, and this script's own forks (its subshells: the lanes, the progress line, the installs). A fork shows the
# environment this script was started with, without the mark it exported since; unseen, a lane's subshell went on
# to start the next lane once its first was killed, and a double Ctrl-C left that lane's n8n import behind. One
# process reads /proc (a grep per process took minutes for a sweep on a loaded machine). The shells between that
# process and this script (command substitutions), and what they run beside it, are the sweep itself. A sweep
# that could not finish (its node killed by a second Ctrl-C, or unable to start on a starved machine) prints
# "unknown": it must not pass for a sweep that found nothing.
run_pids() {
	node -e '
		const { readdirSync, readFileSync, readlinkSync } = require("node:fs");
		const [mark, work, script] = process.argv.slice(1);
		// Read once a sweep: every walk up from a process to the script passes the same few ancestors.
		const parents = new Map();
		const parentOf = (pid) => {
			if (!parents.has(pid)) {
				try {
					const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
					parents.set(pid, stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
				} catch {
					parents.set(pid, undefined);
				}
			}
			return parents.get(pid);
		};
		const sweep = new Set([String(process.pid), script]);
		for (let pid = parentOf(process.pid); pid && pid !== "0" && pid !== script; pid = parentOf(pid))
			sweep.add(pid);
		const underScript = (pid) => {
			for (let up = parentOf(pid), hops = 0; up && up !== "0" && hops < 100; up = parentOf(up), hops++) {
				if (up === script) return true;
				if (sweep.has(up)) return false;
			}
			return false;
		};
		// The forks (unmarked, under this script) come first: signalled before the commands they run, the
		// subshell of a lane ends before it can start the next lane.
		const forks = [];
		const others = [];
		for (const pid of readdirSync("/proc").filter((entry) => /^[0-9]+$/.test(entry))) {
			if (sweep.has(pid)) continue;
			let marked = false;
			try {
				marked = readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(mark);
			} catch {}
			let inWork = false;
			try {
				const cwd = readlinkSync(`/proc/${pid}/cwd`);
				inWork = cwd === work || cwd.startsWith(`${work}/`);
			} catch {}
			const under = underScript(pid);
			if (under && !marked) forks.push(pid);
			else if (marked || inWork || under) others.push(pid);
		}
		for (const pid of [...forks, ...others]) console.log(pid);
	' "EMBROIDERY_TEST_RUN=$EMBROIDERY_TEST_RUN" "$work" "$$" || echo unknown
}

# Reads a sweep's result ($1, run_pids' output) in this shell, without a fork (one more process that a second
# Ctrl-C would reach): sweep_pids gets the pids it found, space-separated, and sweep_cut is 1 when it was cut
# short (a sweep killed while printing its list printed part of it before "unknown").
read_sweep() {
	local found="${1%unknown}"
	sweep_cut=0
	[ "$found" = "$1" ] || sweep_cut=1
	found="${found//$'\n'/ }"
	sweep_pids="${found% }"
}

# Sends a signal to this run's processes and to their process groups (n8n's task runners and Chromium's
# helpers need not carry the mark), never to this script's own group (npm and the terminal's other commands).
signal_run() {
	local signal="$1" pid pgid own_group
	own_group="$(ps -o pgid= $$ | tr -d ' ')"
	read_sweep "$(run_pids)"
	for pid in $sweep_pids; do
		# A process that ended meanwhile has no group; one whose group cannot be read is still signalled itself.
		pgid="$(ps -o pgid= "$pid" 2>/dev/null | tr -d ' ')" || pgid=""
		if [ -n "$pgid" ] && [ "$pgid" != "$own_group" ]; then
			kill "-$signal" -- "-$pgid" 2>/dev/null || true
		fi
		kill "-$signal" "$pid" 2>/dev/null || true
	done
}

# Ctrl-C: everything gets SIGTERM and up to 15 s to stop (n8n saves its state), then SIGKILL; a second
# Ctrl-C skips the wait. Then the temporary folders go.
stop_now=0
# Removes the run's temporary folders. A file written into one while rm works through it (by a process still
# ending) makes rm fail with "Directory not empty", so it tries again, 5 times in about a second, and then says
# which folder is left.
remove_work() {
	local tries=1
	until rm -rf "$work" 2>/dev/null; do
		if [ $tries -ge 5 ]; then
			echo "The run's temporary folder $work could not be removed; it holds:" \
				"$(ls -A "$work" 2>&1 | head -5 | paste -sd' ')" >&2
			return 1
		fi
		tries=$((tries + 1))
		sleep 0.2 || true
	done
}
stop_run() {
	trap 'stop_now=1' INT TERM
	# Every step below runs, whatever the one before it met, and the run ends with 130. Under set -e a step that
	# failed ended the run there with its status: a clean-clone run's double Ctrl-C ended with 1.
	set +e
	# Without a process (a fork would lose the race): a line's subshell reads it before starting its main lane.
	: >"$work/stopping"
	# The commands below must not carry the mark themselves.
	export -n EMBROIDERY_TEST_RUN
	echo >&2
	echo "Interrupted: stopping everything this run started (Ctrl-C again to kill it at once)..." >&2
	signal_run TERM
	local waited=0
	while [ -n "$(run_pids)" ] && [ $stop_now -eq 0 ] && [ $waited -lt 150 ]; do
		sleep 0.1 || true
		waited=$((waited + 1))
	done
	# Killed again until four sweeps in a row (about a second) find none: a process whose parent was just
	# killed may have started one more (an n8n import the e2e setup was spawning), and while it is still being
	# exec'd its environment cannot be read, so one sweep can miss it. Two sweeps in a row (0.4 s) still left
	# such an `n8n import:credentials` running once, in a clean-clone run on a busy machine.
	signal_run KILL
	local empty=0
	waited=0
	while [ $empty -lt 4 ] && [ $waited -lt 50 ]; do
		sleep 0.2 || true
		if [ -n "$(run_pids)" ]; then
			empty=0
			signal_run KILL
		else
			empty=$((empty + 1))
		fi
		waited=$((waited + 1))
	done
	local left cut
	read_sweep "$(run_pids)"
	left="$sweep_pids"
	cut="$sweep_cut"
	local removed=1
	# Removed here, once: the exit trap would try again and name a folder that stays a second time.
	trap - EXIT
	remove_work || removed=0
	if [ "$cut" = 1 ]; then
		echo "Stopped, but the last look for processes of this run could not be made${left:+ (it found $left)}." >&2
	elif [ -n "$left" ]; then
		echo "Stopped, but these processes of the run did not end: $left" >&2
	elif [ $removed = 1 ]; then
		echo "Stopped: no process of this run is left, and its temporary folders are removed." >&2
	else
		echo "Stopped: no process of this run is left, but its temporary folder could not be removed (above)." >&2
	fi
	exit 130
}
trap stop_run INT TERM
trap 'remove_work || true' EXIT

ensure_node24
ensure_dependencies
# The account pages' tests drive Debian's Chromium; without it they fail and say so.
if wanted jest || wanted n8n2 || wanted n8n1; then
	ensure_chromium || echo "Chromium could not be installed; the browser tests will fail." >&2
fi
# Each tier leaves <tier>.seconds and <tier>.status here, and jest's results in <tier>.json.
results="$work/results"
mkdir -p "$results" "$work/e2e-progress"

# The n8n installs (once, cached) download while the checks below keep the cores busy; they run one
# after another so that npm and the sqlite3 builds do not fight each other.
e2e_tiers=()
for name in n8n2 n8n1 queue; do if wanted $name; then e2e_tiers+=("$name"); fi; done
installs=""
if [ ${#e2e_tiers[@]} -gt 0 ]; then
	(
		if wanted n8n2 || wanted queue; then ensure_n8n "$N8N_VERSION_TESTED" 24; fi
		if wanted n8n1; then ensure_n8n "$N8N1_VERSION_TESTED" 22; fi
	) >"$work/install.log" 2>&1 &
	installs=$!
fi

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
		tier "$name" env ${built[@]+"${built[@]}"} npm run "$name" >"$work/$name.log" 2>&1 &
		pids+=($!)
	done
	for index in "${!pids[@]}"; do
		wait "${pids[$index]}" || true
		cat "$work/${@:index+1:1}.log"
	done
}

if wanted build; then tier build npm run build || true; fi
# dist/ is ready when the build tier built it, or when the caller says so (EMBROIDERY_BUILT=1, as
# test/e2e/testRun.e2e.ts runs this script inside a running suite).
built=()
if wanted build; then
	if [ "$(cat "$results/build.status")" = 0 ]; then built=(EMBROIDERY_BUILT=1); fi
elif [ "${EMBROIDERY_BUILT:-}" = 1 ]; then
	built=(EMBROIDERY_BUILT=1)
fi

# The end-to-end runs (test/e2e/run.sh), with the build done, start here and run beside the checks and jest,
# each into a log printed at the end, their progress joining one line after jest:
# - each n8n line's real-time lane (the files that mostly wait for real minutes), then, as it ends, the same
#   line's main lane (every other file). The main lanes used to wait for jest, and then ran alone: in their
#   last 90 s both lines sat in real waits (a stalled download's 30 s idle limit, a Stop during a wait's polls)
#   with the cores a third busy, and the end of jest left a fifth of them idle. Started together once the
#   checks end (tried in 911459e, reverted), they kept the cores busy to the end but cost 150 CPU seconds more
#   at a load average of 21: 928 s against 896 in clean-clone runs.
# - queue mode, whose time is mostly waiting too (20 orders on one key at the service's 60 requests a minute,
#   the trigger's polls at n8n's minutes across a restart).
# Without the build (no build tier, no EMBROIDERY_BUILT) test/e2e/run.sh builds, once for all, after jest.
e2e_run() {
	# shellcheck disable=SC2086 # EMBROIDERY_TEST_E2E is a list of arguments.
	env ${built[@]+"${built[@]}"} EMBROIDERY_TEST_RESULTS="$results" EMBROIDERY_E2E_PROGRESS="$work/e2e-progress" \
		bash test/e2e/run.sh --parallel "$@" ${EMBROIDERY_TEST_E2E:-}
}
lines=() lanes="" queue_run=""
for name in n8n2 n8n1; do if wanted $name; then lines+=("$name"); fi; done
if [ ${#built[@]} -gt 0 ]; then
	for name in ${lines[@]+"${lines[@]}"}; do
		(
			realtime_status=0
			e2e_run --lane=realtime "--only=$name" >"$work/$name.realtime.log" 2>&1 || realtime_status=$?
			# Not after a Ctrl-C, which ends the real-time lane's jest at once (it is in this group). This subshell
			# ignores SIGINT, so it learns of it from the lane's status, 130 (143 for stop_run's SIGTERM). The mark
			# stop_run leaves first is not enough alone: on a loaded machine (a clean-clone run on 2 cores) the lane
			# ended and this subshell looked before stop_run had left it, and started the main lane.
			case $realtime_status in
			130 | 143) ;;
			*) [ -e "$work/stopping" ] || e2e_run --lane=main "--only=$name" >"$work/$name.main.log" 2>&1 || true ;;
			esac
		) &
		lanes="$lanes $!"
	done
	if wanted queue; then
		e2e_run --lane=realtime --only=queue >"$work/queue.log" 2>&1 &
		queue_run=$!
	fi
fi

# With the build done, scan.sh packs dist/ as it is (building again would empty it under the real-time lanes).
checks=()
for name in lint scan typecheck; do if wanted $name; then checks+=("$name"); fi; done
if [ ${#checks[@]} -gt 0 ]; then checks_side_by_side "${checks[@]}"; fi
if wanted jest; then
	# shellcheck disable=SC2086 # EMBROIDERY_TEST_JEST is a list of arguments.
	tier jest npx jest --ci --json --outputFile="$results/jest.json" ${EMBROIDERY_TEST_JEST:-} || true
fi

# Started above, with the build done.
if [ ${#built[@]} -gt 0 ]; then
	if [ -n "$lanes$queue_run" ]; then
		# jest is done: the end-to-end runs still going show their progress here.
		show_progress "$work/e2e-progress" &
		progress=$!
		for pid in $lanes $queue_run; do wait "$pid" || true; done
		kill "$progress" 2>/dev/null || true
		wait "$progress" 2>/dev/null || true
		if [ -t 2 ]; then echo >&2; fi
	fi
	[ -z "$installs" ] || wait "$installs" || cat "$work/install.log" >&2
	show_log() {
		[ -f "$work/$1.log" ] || return 0
		echo "===== $2, which began beside the checks and jest =====" >&2
		cat "$work/$1.log" >&2
	}
	for name in ${lines[@]+"${lines[@]}"}; do show_log "$name.realtime" "e2e $name, real-time lane"; done
	for name in ${lines[@]+"${lines[@]}"}; do show_log "$name.main" "e2e $name, main lane"; done
	show_log queue "queue mode"
	[ -z "$queue_run" ] || echo "beside jest" >"$results/queue.note"
	# Each n8n line's result is its two lanes': tests of both, failed if either failed; its time is the main
	# lane's (the real-time lane's is said beside it).
	for name in ${lines[@]+"${lines[@]}"}; do
		node scripts/merge-jest-results.mjs "$results/$name.json" "$results/$name.main.json" "$results/$name.realtime.json"
		main_status="$(cat "$results/$name.main.status" 2>/dev/null || echo 1)"
		realtime_status="$(cat "$results/$name.realtime.status" 2>/dev/null || echo 1)"
		echo $((main_status != 0 ? main_status : realtime_status)) >"$results/$name.status"
		cat "$results/$name.main.seconds" >"$results/$name.seconds" 2>/dev/null || echo - >"$results/$name.seconds"
		echo "after its real-time lane of $(cat "$results/$name.realtime.seconds" 2>/dev/null || echo -) s; both began beside jest" \
			>"$results/$name.note"
	done
elif [ ${#e2e_tiers[@]} -gt 0 ]; then
	if ! wait "$installs"; then
		cat "$work/install.log" >&2
		echo "Installing n8n for the end-to-end runs failed (log above); the end-to-end environments did not run." >&2
	elif wanted build; then
		echo "The build failed; the end-to-end environments did not run." >&2
	else
		e2e_run "--only=$(
			IFS=,
			echo "${e2e_tiers[*]}"
		)" || true
	fi
fi

# Whatever a test left running (a failed test's npm start and its n8n, say) is named and stopped here, so that
# nothing of the run outlives it.
left=()
read_sweep "$(run_pids)"
# A sweep cut short: what it found is stopped, and the gap is said.
if [ "$sweep_cut" = 1 ]; then
	echo "The look for processes a test left running could not be finished; what it found is stopped." >&2
fi
for pid in $sweep_pids; do
	command="$(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | cut -c1-160)" || true
	[ -z "$command" ] || left+=("  $pid: $command")
done 2>/dev/null
if [ ${#left[@]} -gt 0 ]; then
	echo "Processes of this run were still running at its end (a test left them); stopping them:" >&2
	printf '%s\n' "${left[@]}" >&2
	signal_run TERM
	sleep 3
	signal_run KILL
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
		note=""
		[ ! -f "$results/$name.note" ] || note=" ($(cat "$results/$name.note"))"
		printf '  %-10s %6s  %s: %s tests passed, %s failed, %s skipped%s\n' "$label" "$seconds s" "$verdict" "$tier_passed" "$tier_failed" "$tier_skipped" "$note"
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
# Each failed test by name, last: where only the end of this output is shown, the failures still are.
result_files=()
for name in "${tiers[@]}"; do [ ! -f "$results/$name.json" ] || result_files+=("$name=$results/$name.json"); done
[ ${#result_files[@]} -eq 0 ] || node scripts/failed-tests.mjs "${result_files[@]}" || true
[ "$failed_tiers" -eq 0 ] && [ "$failed" -eq 0 ]
