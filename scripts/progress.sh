# Sourced by test/e2e/run.sh and scripts/test.sh: one line with the progress of jest runs going on side by side
# (the *.progress files test/support/progressReporter.js keeps in a folder), rewritten in place on a terminal,
# else printed every 30 s. Runs until it is killed (the runs are done):
#   show_progress "$folder" & progress=$!; ...; kill "$progress"
show_progress() {
	local dir="$1" started=$SECONDS line ticks=0 pause
	# Killed, it stops its pause too: a lone `sleep` left running would be named as a process of the run that
	# outlived it.
	trap 'kill "$pause" 2>/dev/null; exit 0' TERM
	while true; do
		sleep 5 &
		pause=$!
		wait "$pause"
		ticks=$((ticks + 1))
		# No progress file yet is no error (set -e and pipefail would end the loop on one).
		line="$({ cat "$dir"/*.progress 2>/dev/null || true; } | paste -sd'|' | sed 's/|/ | /g')"
		line="e2e, $((SECONDS - started)) s: ${line:-starting}"
		if [ -t 2 ]; then
			printf '\r\033[K%s' "${line:0:$(($(tput cols 2>/dev/null || echo 200) - 1))}" >&2
		elif [ $((ticks % 6)) -eq 0 ]; then
			echo "$line" >&2
		fi
	done
}
