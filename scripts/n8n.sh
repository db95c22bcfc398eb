# Sourced after scripts/node24.sh: installs the real n8n this package is tested against, once,
# into the cache folder outside the repo, and exports N8N_BIN for scripts/n8n.ts.
N8N_VERSION_TESTED=2.41.1

n8n_install_dir() {
	echo "$(embroidery_cache_dir)/n8n-$N8N_VERSION_TESTED"
}

# Idempotent: the sqlite3 binding is built last, so its absence means an unfinished install.
ensure_n8n() {
	local dir
	dir="$(n8n_install_dir)"
	if [ ! -x "$dir/node_modules/.bin/n8n" ] || [ ! -f "$dir/node_modules/sqlite3/build/Release/node_sqlite3.node" ]; then
		echo "Installing n8n $N8N_VERSION_TESTED into $dir (once, about 5 minutes and 3 GB)..." >&2
		mkdir -p "$dir"
		# linkedom is pinned to 0.18.14, the version this n8n install was verified with.
		cat >"$dir/package.json" <<-EOF
			{"name":"n8n-runtime-cache","private":true,"dependencies":{"n8n":"$N8N_VERSION_TESTED"},"overrides":{"linkedom":"0.18.14"}}
		EOF
		# Scripts stay off for n8n's 2,000 packages; only the sqlite3 binding is built. The explicit
		# flag matters: inside `npm test` npm exports the repo's ignore-scripts=true to this shell.
		(cd "$dir" && npm install --no-audit --no-fund --ignore-scripts >&2 && npm rebuild sqlite3 --ignore-scripts=false >&2)
	fi
	if [ ! -f "$dir/node_modules/sqlite3/build/Release/node_sqlite3.node" ]; then
		echo "Could not build n8n's sqlite3 binding in $dir (npm rebuild sqlite3 built nothing)." >&2
		return 1
	fi
	export N8N_BIN="$dir/node_modules/.bin/n8n"
}
