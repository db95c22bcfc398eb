#!/usr/bin/env bash
# npm start: everything needed to try the nodes from a fresh clone. Installs Node 24, the dev
# dependencies and n8n ($N8N_VERSION_TESTED of scripts/n8n.sh) when missing, builds the package, then hands over to scripts/start.ts:
#   npm start              sandbox + a local n8n editor with the package, a credential and the examples
#   npm start -- --headless (= npm run demo)  run the examples once and write their results to demo-output/
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/node24.sh
. scripts/n8n.sh
ensure_node24
ensure_dependencies
ensure_n8n
npm run build >/dev/null
exec node_modules/.bin/tsx scripts/start.ts "$@"
