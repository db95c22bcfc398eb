#!/usr/bin/env bash
# Checks the package as npm would publish it, offline, with the source-code rules of
# @n8n/scan-community-package (restricted globals, allowed imports) plus its package.json
# expectations. Packs the built package into a temporary folder and scans the unpacked tarball.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
. scripts/node24.sh
ensure_node24

npm run build >/dev/null
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
npm pack --silent --ignore-scripts --pack-destination "$work" >/dev/null
tar -xzf "$work"/*.tgz -C "$work"
node scripts/scan-package.mjs "$work/package"
