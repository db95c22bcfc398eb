#!/usr/bin/env bash
# npm run release.
# In GitHub Actions (the publish workflow, on a version tag): n8n's `n8n-node release`, which lints,
# builds and runs `npm publish` with npm provenance (NPM_CONFIG_PROVENANCE=true).
# On a maintainer's machine: checks that main is clean and pushed, that package.json's version has a
# CHANGELOG.md section and no tag yet, runs the checks, then tags that version and pushes the tag,
# which starts the publish workflow. Nothing is published from a laptop: n8n verifies only packages
# published with provenance.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

if [ -n "${GITHUB_ACTIONS:-}" ]; then
	exec node_modules/.bin/n8n-node release
fi

. scripts/node24.sh
ensure_node24
version="$(node -p 'require("./package.json").version')"
fail() {
	echo "release: $*" >&2
	exit 1
}
[ "$(git rev-parse --abbrev-ref HEAD)" = main ] || fail "release from main (you are on $(git rev-parse --abbrev-ref HEAD))"
[ -z "$(git status --porcelain)" ] || fail "commit or stash your changes first"
git fetch --quiet origin main --tags
[ "$(git rev-parse HEAD)" = "$(git rev-parse origin/main)" ] || fail "main differs from origin/main: pull or push first"
! git rev-parse -q --verify "refs/tags/$version" >/dev/null || fail "tag $version exists: bump the version in package.json (npm version --no-git-tag-version minor)"
grep -q "^## \[$version\]" CHANGELOG.md || fail "CHANGELOG.md has no section \"## [$version]\""

npm run lint
npm run build
npm run typecheck
npx jest --ci
npm run scan

git tag -a "$version" -m "n8n-nodes-embroidery $version"
git push origin "$version"
echo "Tagged and pushed $version: the Publish workflow now publishes it to npm with provenance."
