#!/usr/bin/env bash
# The whole of n8n's community package scan, run on the package as npm would publish it:
#   bash scripts/scan.sh            builds this package (not with EMBROIDERY_BUILT=1), packs it and scans the tarball
#   bash scripts/scan.sh <folder>   packs and scans a package folder as it is (built already, or a test fixture)
#   bash scripts/scan.sh --fetch-rules [<folder>]   first downloads GuardDog's YARA rules when they are not cached
# Checks (scripts/scan-package.mjs): @n8n/scan-community-package's ESLint rules on the tarball and on
# the sources (the folder, as n8n lints the checkout its provenance names), the YARA threat rules its scanner runs (GuardDog's, with Debian's `yara`), and the
# manifest facts it reads from the registry. Exits 1 when any check fails. Provenance exists only
# for a published version: .github/workflows/publish.yml checks it after publishing.
# Installs what is missing, once: the scanner into the cache folder (npm), the rules into the cache
# folder (GitHub, with --fetch-rules), and, when the rules are there, `yara` with apt-get (as root or through
# sudo, announced first; EMBROIDERY_NO_SYSTEM_PACKAGES=1 never installs it).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
. scripts/node24.sh
. scripts/debian-packages.sh
ensure_node24

scanner_version=0.32.0
scanner_dir="$(embroidery_cache_dir)/scan-community-package-$scanner_version"
scanner="$scanner_dir/node_modules/@n8n/scan-community-package/scanner/scanner.mjs"
if [ ! -f "$scanner" ]; then
	echo "Installing @n8n/scan-community-package $scanner_version into $scanner_dir (once)..." >&2
	mkdir -p "$scanner_dir"
	echo '{"name":"n8n-scanner-cache","private":true}' >"$scanner_dir/package.json"
	(cd "$scanner_dir" && npm install --no-audit --no-fund --ignore-scripts "@n8n/scan-community-package@$scanner_version" >&2)
fi

# n8n's scanner vendors GuardDog's YARA rules (github.com/DataDog/guarddog, Apache-2.0) and counts
# the threat-* ones; this commit's rules are the same files. The digest covers every rule file.
guarddog_commit=ca8b5b43d1454c89c03fb2acecf0716781c2a745
guarddog_digest=9a9ace7c94fb321ac6b7484327cfd1a8f52672e6d88f60fbd59a46e18f2ba05d
rules_dir="${EMBROIDERY_GUARDDOG_RULES_DIR:-$(embroidery_cache_dir)/guarddog-rules-$guarddog_commit}"
rules_digest() {
	(cd "$1" && sha256sum -- *.yar *.meta | LC_ALL=C sort -k2 | sha256sum | cut -d' ' -f1)
}
# The rules come from GitHub, which a machine that reaches only package registries cannot download
# from: there they are fetched only when asked (--fetch-rules), and a scan without them says that the
# YARA check did not run. publish.yml fetches them and requires them (EMBROIDERY_SCAN_REQUIRE_RULES=1).
fetch_rules=0
if [ "${1:-}" = "--fetch-rules" ]; then
	fetch_rules=1
	shift
fi
if [ ! -f "$rules_dir/LICENSE" ] && [ $fetch_rules -eq 1 ]; then
	echo "Downloading GuardDog's YARA rules at $guarddog_commit into $rules_dir (once)..." >&2
	download="$(mktemp -d)"
	curl -fsSL "https://codeload.github.com/DataDog/guarddog/tar.gz/$guarddog_commit" |
		tar -xz -C "$download" --strip-components=1
	mkdir -p "$rules_dir"
	cp "$download"/guarddog/analyzer/sourcecode/*.yar "$download"/guarddog/analyzer/sourcecode/*.meta "$rules_dir/"
	cp "$download/LICENSE" "$rules_dir/"
	rm -rf "$download"
fi
if [ -f "$rules_dir/LICENSE" ]; then
	if [ "$(rules_digest "$rules_dir")" != "$guarddog_digest" ]; then
		echo "The YARA rules in $rules_dir are not the pinned ones (digest $(rules_digest "$rules_dir")); remove the folder and run \`bash scripts/scan.sh --fetch-rules\` to download them again." >&2
		exit 2
	fi
	threat_rules="$rules_dir"
elif [ "${EMBROIDERY_SCAN_REQUIRE_RULES:-0}" = 1 ]; then
	echo "GuardDog's YARA rules are not in $rules_dir and they are required here: run \`bash scripts/scan.sh --fetch-rules\`." >&2
	exit 2
else
	threat_rules=""
fi

# The YARA check needs the `yara` program. It is installed (scripts/debian-packages.sh) only when the rules are
# there to run; without it the check is reported as not run, with the reason.
yara_missing=()
if [ -n "$threat_rules" ] && ! command -v yara >/dev/null; then
	installed=0
	debian_install "scripts/scan.sh's YARA check needs" yara || installed=$?
	case "$installed" in
	0) ;;
	3) yara_missing=(--yara-missing "the yara program is not installed (EMBROIDERY_NO_SYSTEM_PACKAGES=1 keeps scripts/scan.sh from installing Debian's yara package)") ;;
	4) yara_missing=(--yara-missing "the yara program is not installed, and installing Debian's yara package needs root or sudo: run \`sudo apt-get install yara\`") ;;
	*) yara_missing=(--yara-missing "installing Debian's yara package failed (see above)") ;;
	esac
fi

package="${1:-}"
if [ -z "$package" ]; then
	package="$root"
	# EMBROIDERY_BUILT=1: the caller built dist/ already (scripts/test.sh, whose end-to-end lanes read it now).
	[ "${EMBROIDERY_BUILT:-}" = 1 ] || npm run build >/dev/null
fi
package="$(cd "$package" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$package" && npm pack --silent --ignore-scripts --pack-destination "$work" >/dev/null)
mkdir -p "$work/tarball"
tar -xzf "$work"/*.tgz -C "$work/tarball" --strip-components=1
yara_version="$(yara --version 2>/dev/null | sed 's/^/yara /')" || true
echo "Scanning $(cd "$work" && ls -- *.tgz) with n8n's scanner $scanner_version${yara_version:+ and $yara_version}..."
node scripts/scan-package.mjs --scanner "$scanner" --rules "$threat_rules" --tarball "$work/tarball" --source "$package" ${yara_missing[@]+"${yara_missing[@]}"}
