# Sourced after scripts/node24.sh: installs a real n8n this package is tested against, once, into
# the cache folder outside the repo, each with the Node line it runs on:
#   ensure_n8n                                  n8n $N8N_VERSION_TESTED on Node 24 (npm start, demo, e2e, queue mode)
#   ensure_n8n "$N8N1_VERSION_TESTED" 22        n8n $N8N1_VERSION_TESTED on Node 22 (the 1.x e2e run)
# It exports N8N_BIN (the n8n CLI) and N8N_NODE_BIN (the node that runs it) for scripts/n8n.ts.
# The two versions below are the one place to change them: scripts, tests and the harness read them
# (scripts/n8n.ts reads this file for the TypeScript side). 2.41.3, the newest 2.x, cannot be
# installed from the registry yet: it pins n8n-core 2.41.2, @n8n/task-runner 2.41.2,
# @n8n/backend-common 1.41.2, n8n-editor-ui 2.41.1 and others that the registry does not have (ETARGET).
N8N_VERSION_TESTED=2.41.1
N8N1_VERSION_TESTED=1.123.81

n8n_install_dir() {
	echo "$(embroidery_cache_dir)/n8n-${1:-$N8N_VERSION_TESTED}"
}

# Idempotent: the sqlite3 binding is built last, so its absence means an unfinished install.
ensure_n8n() {
	local version="${1:-$N8N_VERSION_TESTED}" node_major="${2:-24}" dir overrides
	dir="$(n8n_install_dir "$version")"
	ensure_node_line "$node_major"
	if [ ! -x "$dir/node_modules/.bin/n8n" ] || [ ! -f "$dir/node_modules/sqlite3/build/Release/node_sqlite3.node" ]; then
		echo "Installing n8n $version for Node $node_major into $dir (once, about 5 minutes and 3 GB)..." >&2
		mkdir -p "$dir"
		# linkedom is pinned to 0.18.14, the version these installs were verified with. n8n 1.x pins
		# xlsx to a tarball on a CDN outside the npm registry; 0.18.5 from the registry replaces it.
		overrides='{"linkedom":"0.18.14"}'
		case "$version" in 1.*) overrides='{"linkedom":"0.18.14","xlsx":"0.18.5"}' ;; esac
		cat >"$dir/package.json" <<-JSON
			{"name":"n8n-runtime-cache","private":true,"dependencies":{"n8n":"$version"},"overrides":$overrides}
		JSON
		# Scripts stay off for n8n's 2,000 packages; only the sqlite3 binding is built, against the
		# Node line n8n will run on. The explicit flag matters: inside `npm test` npm exports the
		# repo's ignore-scripts=true to this shell.
		(
			cd "$dir"
			export PATH="$(node_bin_dir "$node_major"):$PATH"
			export npm_config_nodedir="$(node_headers_dir "$node_major")"
			run_logged "n8n $version" "$dir/node_modules" npm install --no-audit --no-fund --ignore-scripts
			run_logged "n8n's sqlite3 binding" "" npm rebuild sqlite3 --ignore-scripts=false
		)
	fi
	if [ ! -f "$dir/node_modules/sqlite3/build/Release/node_sqlite3.node" ]; then
		echo "Could not build n8n's sqlite3 binding in $dir (npm rebuild sqlite3 built nothing)." >&2
		return 1
	fi
	export N8N_BIN="$dir/node_modules/n8n/bin/n8n"
	export N8N_NODE_BIN="$(node_bin_dir "$node_major")/node"
}
