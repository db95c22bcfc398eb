#!/usr/bin/env bash
# npm run lint: n8n's strict community-node lint (`n8n-node lint`, unmodified eslint.config.mjs) over the
# package as it is published (package.json, credentials, nodes and icons; the sandbox, tests and tooling
# are not shipped and legitimately use Node's APIs, so the type check covers them), then over the whole
# repository: Prettier with n8n-nodes-starter's settings, no line over 120 characters, the test tree mirroring
# the code (scripts/check-test-tree.mjs), and jscpd's copy detection over nodes/ and sandbox/ (.jscpd.json).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
view="$(mktemp -d)"
trap 'rm -rf "$view"' EXIT
cp -r "$root/package.json" "$root/eslint.config.mjs" "$root/tsconfig.json" "$root/credentials" "$root/nodes" "$root/icons" "$view/"
ln -s "$root/node_modules" "$view/node_modules"
(cd "$view" && "$root/node_modules/.bin/n8n-node" lint)

cd "$root"
node_modules/.bin/prettier --check --log-level warn "{nodes,credentials,sandbox,test,scripts,bench}/**/*.{ts,js,mjs}" "*.{js,mjs}"
node scripts/check-line-length.mjs
node scripts/check-test-tree.mjs
node_modules/.bin/jscpd --config .jscpd.json --silent
