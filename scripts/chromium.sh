# Sourced by the scripts that run browser tests: Debian's Chromium, which test/support/browser.ts
# drives with playwright-core. `. scripts/chromium.sh; ensure_chromium` installs the `chromium`
# package when it is missing (scripts/debian-packages.sh). CHROMIUM_PATH names another browser binary,
# which is then used as it is.
. "$(dirname "${BASH_SOURCE[0]}")/debian-packages.sh"

ensure_chromium() {
	local path="${CHROMIUM_PATH:-/usr/bin/chromium}"
	if [ -x "$path" ]; then
		return 0
	fi
	if [ -n "${CHROMIUM_PATH:-}" ]; then
		echo "CHROMIUM_PATH is $CHROMIUM_PATH, which is not an executable file." >&2
		return 1
	fi
	# Test files launch browsers side by side: one installs, the others wait for it, then find it there.
	(
		flock 9
		[ -x "$path" ] && exit 0
		debian_install "The browser tests need" chromium ||
			{
				echo "Or name another browser binary in CHROMIUM_PATH." >&2
				exit 1
			}
	) 9>"${TMPDIR:-/tmp}/embroidery-chromium-install.lock"
}
