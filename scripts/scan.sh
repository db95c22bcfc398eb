#!/usr/bin/env bash
# Checks the package as npm would publish it with n8n's own community package scanner,
# @n8n/scan-community-package (installed once into the cache folder): its static analysis of the
# packed tarball (compiled .js and package.json) and of the sources it was built from (package.json,
# nodes/, credentials/), as the scanner does for a published version whose provenance names its
# source. Provenance itself exists only once GitHub Actions publishes (see .github/workflows/publish.yml).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
. scripts/node24.sh
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

npm run build >/dev/null
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
npm pack --silent --ignore-scripts --pack-destination "$work" >/dev/null
mkdir -p "$work/tarball" "$work/source"
tar -xzf "$work"/*.tgz -C "$work/tarball" --strip-components=1
cp -r package.json nodes credentials icons "$work/source/"
node scripts/scan-package.mjs "$scanner" "$work/tarball" "$work/source"
