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

# How long a first install takes, as the phase and the docs say it: 5 minutes on a quiet machine with
# npm's cache warm, 11 and 18 minutes (1,057 s) on 2 cores shared with other work.
N8N_INSTALL_TIME="5 to 20 minutes"

n8n_install_dir() {
	echo "$(embroidery_cache_dir)/n8n-${1:-$N8N_VERSION_TESTED}"
}

# The dependencies of the install folder's package.json. EMBROIDERY_N8N_DEPENDENCIES replaces them (a
# JSON object): the install tests use local stand-in packages of n8n and sqlite3 instead of the registry's.
n8n_dependencies() {
	echo "${EMBROIDERY_N8N_DEPENDENCIES:-{\"n8n\":\"$1\"\}}"
}

# Installs into a staging folder moved into place when complete (install_into_place, under the cache
# folder's install lock), so an install stopped at any point is redone by the next run, never used.
ensure_n8n() {
	local version="${1:-$N8N_VERSION_TESTED}" node_major="${2:-24}" dir
	dir="$(n8n_install_dir "$version")"
	ensure_node_line "$node_major" || return
	if ! install_is_complete "$dir"; then
		with_install_lock "n8n $version" install_n8n "$version" "$node_major" "$dir" || return
	fi
	export N8N_BIN="$dir/node_modules/n8n/bin/n8n"
	export N8N_NODE_BIN="$(node_bin_dir "$node_major")/node"
}

install_n8n() {
	local version="$1" node_major="$2" dir="$3"
	if ! install_is_complete "$dir" && [ ! -e "$dir.staging" ] && n8n_folder_is_whole "$dir"; then
		echo "n8n $version in $dir, installed before installs went through a staging folder, is complete: kept." >&2
		date -u +%Y-%m-%dT%H:%M:%SZ >"$dir/$embroidery_install_marker"
		return
	fi
	install_into_place "$dir" "n8n $version" fill_n8n "$version" "$node_major"
}

# An install made before the staging folder, complete by every sign it leaves: npm's record of the tree
# (written when npm install ends), the sqlite3 binding (built after it), and a package.json in every
# package folder (an interrupted extraction leaves folders without one).
n8n_folder_is_whole() {
	local modules="$1/node_modules" unfinished
	[ -x "$modules/.bin/n8n" ] && [ -f "$modules/.package-lock.json" ] &&
		[ -f "$modules/sqlite3/build/Release/node_sqlite3.node" ] || return 1
	unfinished=$(find "$modules" -mindepth 1 -maxdepth 1 -type d ! -name '.*' ! -name '@*' \
		! -exec test -f '{}/package.json' ';' -print -quit 2>/dev/null)
	[ -z "$unfinished" ] || return 1
	unfinished=$(find "$modules"/@* -mindepth 1 -maxdepth 1 -type d \
		! -exec test -f '{}/package.json' ';' -print -quit 2>/dev/null)
	[ -z "$unfinished" ]
}

# Fills the staging folder (last argument); every step is checked, as it runs where set -e does not hold.
fill_n8n() {
	local version="$1" node_major="$2" staging="$3" overrides
	echo "Installing n8n $version for Node $node_major into $(n8n_install_dir "$version") (once, $N8N_INSTALL_TIME and 3 GB)..." >&2
	# linkedom is pinned to 0.18.14, the version these installs were verified with. n8n 1.x pins
	# xlsx to a tarball on a CDN outside the npm registry; 0.18.5 from the registry replaces it.
	overrides='{"linkedom":"0.18.14"}'
	case "$version" in 1.*) overrides='{"linkedom":"0.18.14","xlsx":"0.18.5"}' ;; esac
	echo "{\"name\":\"n8n-runtime-cache\",\"private\":true,\"dependencies\":$(n8n_dependencies "$version"),\"overrides\":$overrides}" \
		>"$staging/package.json" || return
	# Scripts stay off for n8n's 2,000 packages; only the sqlite3 binding is built, against the
	# Node line n8n will run on. The explicit flag matters: inside `npm test` npm exports the
	# repo's ignore-scripts=true to this shell. --loglevel=http feeds the progress line's count.
	(
		cd "$staging" || exit
		export PATH="$(node_bin_dir "$node_major"):$PATH"
		export npm_config_nodedir="$(node_headers_dir "$node_major")"
		run_logged "n8n $version" "packages:$staging/node_modules" npm install --no-audit --no-fund \
			--ignore-scripts ${EMBROIDERY_INSTALL_LOG:+--loglevel=http} || exit
		if ! reuse_sqlite3_binding "$staging"; then
			run_logged "n8n's sqlite3 binding" "" npm rebuild sqlite3 --ignore-scripts=false || exit
			keep_sqlite3_binding "$staging"
		fi
	) || return
	if [ ! -f "$staging/node_modules/sqlite3/build/Release/node_sqlite3.node" ]; then
		echo "Could not build n8n's sqlite3 binding in $staging (npm rebuild sqlite3 built nothing)." >&2
		return 1
	fi
	if [ ! -x "$staging/node_modules/.bin/n8n" ]; then
		echo "npm installed no n8n command into $staging/node_modules/.bin." >&2
		return 1
	fi
}

# The sqlite3 binding is a Node-API module: one build loads in every Node line that has its Node-API
# version, so both n8n installs can share one (n8n 2.41.1 and 1.123.81 both pin sqlite3 5.1.7), and a fresh
# machine compiles it once instead of twice (about two minutes of CPU each, beside jest). A copy of the first
# build is kept in the cache folder under the sqlite3 version; a later install of that version copies it in
# and keeps it only if its own Node loads it, and builds it otherwise.
sqlite3_binding_cache() {
	local version
	version="$(node -p 'require(process.argv[1]).version' "$1/node_modules/sqlite3/package.json" 2>/dev/null)" ||
		return 1
	echo "$(embroidery_cache_dir)/sqlite3-binding-$version/node_sqlite3.node"
}

# Copies the cached binding into the staging folder's sqlite3 when it loads there (run with the Node line the
# install is for first on PATH); false when there is none or it does not load.
reuse_sqlite3_binding() {
	local staging="$1" cached binding
	cached="$(sqlite3_binding_cache "$staging")" && [ -f "$cached" ] || return 1
	binding="$staging/node_modules/sqlite3/build/Release/node_sqlite3.node"
	mkdir -p "$(dirname "$binding")" && cp "$cached" "$binding" || return 1
	if (cd "$staging" && node -e 'require("sqlite3")' >/dev/null 2>&1); then
		echo "n8n's sqlite3 binding: the build in $(dirname "$cached") loads on Node $(node -v), used." >&2
		return 0
	fi
	rm -rf "$staging/node_modules/sqlite3/build"
	return 1
}

# Keeps a copy of the staging folder's new build for the next install of the same sqlite3 version, in place of
# one that did not load.
keep_sqlite3_binding() {
	local staging="$1" cached
	cached="$(sqlite3_binding_cache "$staging")" || return 0
	mkdir -p "$(dirname "$cached")" &&
		cp "$staging/node_modules/sqlite3/build/Release/node_sqlite3.node" "$cached.partial" 2>/dev/null &&
		mv "$cached.partial" "$cached" || rm -f "$cached.partial"
	return 0
}
