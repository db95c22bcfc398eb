#!/usr/bin/env bash
# The whole test suite, from a fresh clone: Node 24, dependencies, build, lint, types,
# unit and integration tests against the sandbox, then the end-to-end runs in a real n8n.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/node24.sh
ensure_node24
ensure_dependencies

npm run build
npm run lint
npm run scan
npm run typecheck
npx jest --ci
if [ -f test/e2e/run.sh ]; then
	bash test/e2e/run.sh
fi
