# Sourced by the scripts that need a program from one of Debian's packages: Chromium (scripts/chromium.sh),
# Postgres and Redis (test/queue/run.sh), yara (scripts/scan.sh), acct (bench/test-cpu.ts).
#
#   debian_install "Queue mode needs" postgresql redis-server
#
# installs the packages system-wide with apt-get (as root, or through sudo), after a line that says who needs
# them. It never installs with EMBROIDERY_NO_SYSTEM_PACKAGES=1 (status 3), nor without root or a sudo that
# asks no password (status 4), and then says how to install them by hand. A failed apt-get gives status 1.
debian_install() {
	local needs="$1" sudo_cmd="" what
	shift
	what="package $1"
	[ $# -eq 1 ] || what="packages $*"
	[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
	if [ "${EMBROIDERY_NO_SYSTEM_PACKAGES:-0}" = 1 ]; then
		echo "$needs Debian's $what, missing here, and EMBROIDERY_NO_SYSTEM_PACKAGES=1 keeps them from being installed: run \`apt-get install $*\` as root." >&2
		return 3
	fi
	if [ -n "$sudo_cmd" ] && ! sudo -n true 2>/dev/null; then
		echo "$needs Debian's $what, missing here, and installing needs root or sudo: run \`sudo apt-get install $*\`." >&2
		return 4
	fi
	echo "$needs Debian's $what, missing here: installing system-wide (${sudo_cmd:+sudo }apt-get install $*; EMBROIDERY_NO_SYSTEM_PACKAGES=1 skips it)..." >&2
	if ! $sudo_cmd apt-get update >&2 ||
		! $sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@" >&2; then
		echo "Installing Debian's $what failed: apt-get's output is above." >&2
		return 1
	fi
}
