#!/usr/bin/env bash
# Runs n8n's strict community-node lint (`n8n-node lint`, unmodified eslint.config.mjs) over the
# package as it is published: package.json, credentials, nodes and icons. The sandbox, tests and
# tooling are not shipped and legitimately use Node's APIs, so they are linted by the type check only.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
view="$(mktemp -d)"
trap 'rm -rf "$view"' EXIT
cp -r "$root/package.json" "$root/eslint.config.mjs" "$root/tsconfig.json" "$root/credentials" "$root/nodes" "$root/icons" "$view/"
ln -s "$root/node_modules" "$view/node_modules"
cd "$view"
"$root/node_modules/.bin/n8n-node" lint
