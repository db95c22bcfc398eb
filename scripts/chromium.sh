# Sourced by the scripts that run browser tests: Debian's Chromium, which test/support/browser.ts
# drives with playwright-core. `. scripts/chromium.sh; ensure_chromium` installs the `chromium`
# package when it is missing (as root, or through sudo), after a line saying so; never with
# EMBROIDERY_NO_SYSTEM_PACKAGES=1. CHROMIUM_PATH names another browser binary, which is then used as it is.

ensure_chromium() {
	local path="${CHROMIUM_PATH:-/usr/bin/chromium}"
	if [ -x "$path" ]; then
		return 0
	fi
	if [ -n "${CHROMIUM_PATH:-}" ]; then
		echo "CHROMIUM_PATH is $CHROMIUM_PATH, which is not an executable file." >&2
		return 1
	fi
	if [ "${EMBROIDERY_NO_SYSTEM_PACKAGES:-0}" = 1 ]; then
		echo "Chromium is missing at $path, and EMBROIDERY_NO_SYSTEM_PACKAGES=1 keeps it from being installed: the browser tests cannot run (apt-get install chromium, or CHROMIUM_PATH)." >&2
		return 1
	fi
	# Test files launch browsers side by side: one installs, the others wait for it, then find it there.
	(
		flock 9
		[ -x "$path" ] && exit 0
		sudo_cmd=""
		[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
		echo "The browser tests need Chromium, missing at $path: installing Debian's chromium package system-wide (${sudo_cmd:+sudo }apt-get install chromium; EMBROIDERY_NO_SYSTEM_PACKAGES=1 skips it)..." >&2
		$sudo_cmd apt-get update >&2
		$sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium >&2
	) 9>"${TMPDIR:-/tmp}/embroidery-chromium-install.lock"
}
