#!/usr/bin/env bash
# The end-to-end suite (npm run test:e2e): builds the package, makes sure n8n 2.41.1 is installed
# in the cache folder, then runs test/e2e/*.e2e.ts in band against the sandbox and one n8n.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/node24.sh
. scripts/n8n.sh
ensure_node24
ensure_n8n
npm run build >/dev/null
npx jest -c test/e2e/jest.config.js --runInBand "$@"
