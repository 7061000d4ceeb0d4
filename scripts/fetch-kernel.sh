#!/bin/bash
# fetch-kernel.sh - fetch a kernel's Debian packages (linux-source-VER and
# linux-config-VER) that the host's own suite does not carry, into the
# cache, without changing the host: a private apt state under
# $COOL_CACHE/apt/<suite>/ (its own source list, package lists, an empty
# dpkg status and its own package cache), 'apt-get update' and 'apt-get
# download' with that state only, then 'dpkg-deb -x' of each package into
# $COOL_CACHE/pkg/<package>/. Nothing is installed, and no file of the
# host's apt (/etc/apt, /var/lib/apt, /var/cache/apt) or dpkg is written.
# scripts/setup.sh calls it for every kernel the harness fetches (7.3:
# suite trixie-backports); a kernel of the host's suite (6.12) is a plain
# package that setup.sh installs.
#
# Usage: scripts/fetch-kernel.sh [--kernel VER] [--dry-run] [--help]
#   --kernel VER  the kernel (env KERNEL; default: every kernel fetched this
#                 way: 7.3)
#   --dry-run     print the apt-get and dpkg-deb commands, change nothing
#
# The archive: the host's own Debian mirror, the URI of the first 'deb'
# entry for the host's release (VERSION_CODENAME of /etc/os-release) in
# /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list (env
# COOL_DEBIAN_MIRROR overrides), with the suite of the kernel's table in
# scripts/lib.sh (select_kernel), component main, signed by
# /usr/share/keyrings/debian-archive-keyring.gpg. The package version is
# pinned there too (env COOL_KPKG_VERSION: another version; empty: the
# suite's newest), so that every cache gets the same tree and the same
# base commit (scripts/tree.sh). The version fetched is kept in
# $COOL_CACHE/pkg/<package>.version. Fast no-op when both are unpacked.
# apt-get runs as whoever runs this (root drops to _apt for downloads, as
# apt does); a non-root user who cannot run it gets the exact command.
#
# Exit codes: 0 fetched (or already there), 1 apt-get or dpkg-deb failed,
# 5 bad usage, 7 not root and apt-get could not run (the command is
# printed).
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

kernels='' dry_run=0
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) [ $# -ge 2 ] || usage_error "--kernel needs a value"; kernels=$2; shift ;;
	--kernel=*) kernels=${1#*=} ;;
	--dry-run) dry_run=1 ;;
	-h | --help) show_help; exit 0 ;;
	*) usage_error "unknown option $1" ;;
	esac
	shift
done
if [ -z "$kernels" ]; then
	kernels=$KERNEL_ASKED
	if [ -z "$kernels" ]; then
		for k in $COOL_KERNELS; do
			select_kernel "$k"
			[ -z "$KFETCH_SUITE" ] || kernels="${kernels:+$kernels }$k"
		done
	fi
fi

# debian_mirror: the URI of the host's Debian archive (no trailing /).
debian_mirror() {
	local codename f
	if [ -n "${COOL_DEBIAN_MIRROR:-}" ]; then
		printf '%s\n' "${COOL_DEBIAN_MIRROR%/}"
		return 0
	fi
	codename=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release 2>/dev/null | tr -d '"')
	[ -n "$codename" ] || codename=bookworm
	{
		# deb822: the first stanza of Types deb whose Suites hold the release
		for f in /etc/apt/sources.list.d/*.sources; do
			[ -r "$f" ] || continue
			awk -v want="$codename" '
				function flush() {
					if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " want " ") && uris != "" && enabled != "no") {
						split(uris, u, " "); print u[1]; found = 1; exit
					}
					types = suites = uris = enabled = ""
				}
				/^[ \t]*#/ { next }
				/^[ \t]*$/ { flush(); next }
				{ key = tolower($1); sub(/:$/, "", key); val = $0; sub(/^[^:]*:[ \t]*/, "", val) }
				key == "types" { types = val } key == "suites" { suites = val }
				key == "uris" { uris = val } key == "enabled" { enabled = tolower(val) }
				END { if (!found) flush() }' "$f"
		done
		# one-line format: deb [options] URI SUITE COMPONENTS...
		for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
			[ -r "$f" ] || continue
			awk -v want="$codename" '$1 == "deb" {
				i = 2
				if ($i ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
				if ($(i + 1) == want) { print $i; exit } }' "$f"
		done
	} | head -n 1 | sed 's#/*$##'
}

apt_dir() { printf '%s/apt/%s\n' "$COOL_CACHE" "$1"; }

# apt_private SUITE ARGS...: apt-get with the private state of SUITE only.
apt_private() {
	local d
	d=$(apt_dir "$1")
	shift
	apt-get -q -o Dir::Etc::SourceList="$d/sources.list" -o Dir::Etc::SourceParts="$d/sources.list.d" \
		-o Dir::State::Lists="$d/lists" -o Dir::State::Status="$d/status" -o Dir::Cache="$d/cache" \
		-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts="$d/preferences.d" "$@"
}

keyring=/usr/share/keyrings/debian-archive-keyring.gpg
rc=0
for k in $kernels; do
	select_kernel "$k"
	if [ -z "$KFETCH_SUITE" ]; then
		info "kernel $k: $KPKG is a package of the host's release (make setup installs it); nothing to fetch"
		continue
	fi
	want_version=${COOL_KPKG_VERSION-$KPKG_VERSION}
	pkgs=("$KPKG" "$KCFGPKG")
	missing=()
	for p in "${pkgs[@]}"; do
		have=$(cat "$COOL_CACHE/pkg/$p.version" 2>/dev/null || true)
		if [ -z "$have" ] || { [ -n "$want_version" ] && [ "$have" != "$want_version" ]; }; then
			missing+=("$p")
		fi
	done
	if [ "${#missing[@]}" = 0 ]; then
		[ "$dry_run" = 0 ] || echo "fetch: kernel $k: $KPKG and $KCFGPKG $(cat "$COOL_CACHE/pkg/$KPKG.version") unpacked in $COOL_CACHE/pkg/"
		continue
	fi
	mirror=$(debian_mirror)
	[ -n "$mirror" ] || die "no Debian archive in the host's apt sources (/etc/apt/sources.list.d/*.sources, /etc/apt/sources.list)" \
		"set COOL_DEBIAN_MIRROR to the URI of a Debian mirror"
	d=$(apt_dir "$KFETCH_SUITE")
	dl=()
	for p in "${missing[@]}"; do dl+=("$p${want_version:+=$want_version}"); done
	if [ "$dry_run" = 1 ]; then
		echo "fetch: kernel $k: private apt state $d (suite $KFETCH_SUITE of the host's mirror, main, $keyring):"
		echo "  apt-get -o Dir::Etc::SourceList=$d/sources.list ... update"
		echo "  apt-get ... download ${dl[*]}"
		echo "  dpkg-deb -x each into $COOL_CACHE/pkg/<package>/"
		continue
	fi
	require_tool apt-get apt
	require_tool dpkg-deb dpkg
	[ -r "$keyring" ] || die "no $keyring" "as root: apt-get install debian-archive-keyring"
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial" "$d/sources.list.d" "$d/preferences.d" "$COOL_CACHE/pkg"
	printf 'deb [signed-by=%s] %s %s main\n' "$keyring" "$mirror" "$KFETCH_SUITE" >"$d/sources.list"
	: >"$d/status"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	# apt-get, as root, downloads as its sandbox user _apt
	chmod 755 "$tmp" "$d" "$d/lists" "$d/cache"
	info "kernel $k: apt-get update of $KFETCH_SUITE into $d (the host's apt state is not touched)"
	if ! apt_private "$KFETCH_SUITE" update >"$tmp/update.log" 2>&1; then
		cat "$tmp/update.log" >&2
		if [ "$(id -u)" != 0 ]; then
			printf '%s: error: apt-get could not update the private lists in %s; as root: COOL_CACHE=%s %s --kernel %s\n' \
				"$PROG" "$d" "$COOL_CACHE" "$REPO_ROOT/scripts/fetch-kernel.sh" "$k" >&2
			exit "$E_SETUP"
		fi
		die "apt-get update of $KFETCH_SUITE failed (log above)"
	fi
	info "kernel $k: apt-get download ${dl[*]}"
	if ! (cd "$tmp" && apt_private "$KFETCH_SUITE" download "${dl[@]}") >"$tmp/download.log" 2>&1; then
		cat "$tmp/download.log" >&2
		die "apt-get download ${dl[*]} failed" \
			"COOL_KPKG_VERSION= (empty) fetches the newest version the suite has; apt-cache policy: the lists are in $d/lists"
	fi
	for p in "${missing[@]}"; do
		deb=$(find "$tmp" -maxdepth 1 -name "${p}_*.deb" | head -n 1)
		[ -n "$deb" ] || die "apt-get download left no ${p}_*.deb"
		ver=$(dpkg-deb -f "$deb" Version)
		info "kernel $k: unpacking $p $ver into $COOL_CACHE/pkg/$p/"
		rm -rf "$COOL_CACHE/pkg/$p" "$COOL_CACHE/pkg/$p.version"
		mkdir -p "$COOL_CACHE/pkg/$p.new"
		dpkg-deb -x "$deb" "$COOL_CACHE/pkg/$p.new" || { rm -rf "$COOL_CACHE/pkg/$p.new"; die "dpkg-deb -x $deb failed"; }
		mv "$COOL_CACHE/pkg/$p.new" "$COOL_CACHE/pkg/$p"
		echo "$ver" >"$COOL_CACHE/pkg/$p.version"
		rm -f "$deb"
	done
	rm -rf "$tmp"
	trap - EXIT
done
exit "$rc"
