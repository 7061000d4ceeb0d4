#!/bin/bash
# tree.sh - make sure the pristine Debian kernel tree exists as a git repo.
#
# Usage: scripts/tree.sh [--kernel VER] [--dry-run] [--help]
#   --kernel VER  the kernel (env KERNEL, default scripts/lib.sh
#                 COOL_DEFAULT_KERNEL): 7.3 or 6.12
#
# Result: $COOL_TREE (default $COOL_CACHE/src/linux-source-<ver>) is a git
# repo with branch 'base' holding one commit of the pristine tree and tag
# v<VERSION>-debian on it (v6.12.118-debian, v7.3.4-debian).  Fast no-op
# when that is already true.
# With COOL_TREE naming a tree of your own: only checks that it is a kernel
# tree of that kernel carrying the series and without an in-tree build;
# never changes it.
# Steps when missing (make setup installs linux-source-6.12 on the host and
# fetches linux-source-7.3 into $COOL_CACHE/pkg/, scripts/fetch-kernel.sh):
# unpack the package's linux-source-<ver>.tar.xz, git init, git add -f -A
# (Debian's .gitignore ignores top-level entries), commit, tag.
# The base commit depends on the tree alone: a fixed author and committer
# ("make tree <cool-spinlock@localhost>") and the date of the package's
# tarball, so every 'make tree' from the same Debian package makes the same
# commit, and the base-commit: line of the exported series names a commit
# that a reviewer recreates with 'make tree'. A tree made before this
# (its base commit carried the local git identity and time) has base and
# the tag moved to that commit, of the same files: nothing is checked out.
#
# Exit codes: 0 tree ready, 1 could not create it, 5 bad usage.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

dry_run=0
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) [ $# -ge 2 ] || usage_error "--kernel needs a value"; select_kernel "$2"; shift ;;
	--kernel=*) select_kernel "${1#*=}" ;;
	--dry-run) dry_run=1 ;;
	-h | --help) show_help; exit 0 ;;
	*) usage_error "unknown option $1" ;;
	esac
	shift
done

if [ "$USER_TREE" = 1 ]; then
	# a user's tree (COOL_TREE): checked, never created or changed
	user_tree_check
	[ "$dry_run" = 1 ] && echo "tree: COOL_TREE=$TREE (yours, carries the series; built with O=, never changed)"
	exit 0
fi
# base_commit TREE_ID: the deterministic base commit of that tree object.
base_commit() {
	local when deb ver
	when=$(stat -c %Y "$KTARBALL" 2>/dev/null || stat -c %Y "$TREE/Makefile")
	deb=$(kpkg_version)
	ver=$(kernel_version "$TREE")
	GIT_AUTHOR_NAME="make tree" GIT_AUTHOR_EMAIL=cool-spinlock@localhost \
		GIT_AUTHOR_DATE="@$when +0000" GIT_COMMITTER_NAME="make tree" \
		GIT_COMMITTER_EMAIL=cool-spinlock@localhost \
		GIT_COMMITTER_DATE="@$when +0000" \
		tree_git commit-tree "$1" -m "Linux $ver (Debian $KPKG $deb)"
}

# base_is_deterministic: base is the commit base_commit makes of its tree;
# else move base and the tag there (same files, nothing checked out).
base_is_deterministic() {
	local have want
	have=$(tree_git rev-parse "refs/heads/$BASE_BRANCH")
	want=$(base_commit "$(tree_git rev-parse "$have^{tree}")")
	[ "$have" = "$want" ] && return 0
	[ "$dry_run" = 1 ] && { echo "tree: would move $BASE_BRANCH and tag $(base_tag) to the deterministic base commit $want"; return 0; }
	info "moving $BASE_BRANCH and tag $(base_tag) to the deterministic base commit $want (same files)"
	tree_git update-ref "refs/heads/$BASE_BRANCH" "$want"
	tree_git tag -f "$(base_tag)" "$want" > /dev/null
}

tree_ok() {
	[ -f "$TREE/Makefile" ] && [ -d "$TREE/.git" ] || return 1
	tree_git rev-parse -q --verify "refs/heads/$BASE_BRANCH" >/dev/null || return 1
	tree_git rev-parse -q --verify "refs/tags/$(base_tag)" >/dev/null
}

if tree_ok; then
	base_is_deterministic
	[ "$dry_run" = 1 ] && echo "tree: $TREE ready (branch $BASE_BRANCH, tag $(base_tag))"
	exit 0
fi

if [ "$dry_run" = 1 ]; then
	echo "tree: would create $TREE:"
	[ -f "$KTARBALL" ] || echo "  missing $KTARBALL: make setup $([ -n "$KFETCH_SUITE" ] && echo fetches || echo installs) $KPKG"
	[ -f "$TREE/Makefile" ] || echo "  tar -xJf $KTARBALL -C $(dirname "$TREE")"
	echo "  git init -b $BASE_BRANCH; git add -f -A; git commit; git tag v<version>-debian"
	exit 0
fi

require_tool git git
require_tool xz xz-utils

if [ ! -f "$TREE/Makefile" ]; then
	# packages are make setup's (scripts/setup.sh), which runs this script last
	[ -f "$KTARBALL" ] || die "$KTARBALL missing" "run 'make setup KERNEL=$KVER' ($([ -n "$KFETCH_SUITE" ] && echo "it fetches $KPKG into the cache" || echo "as root it installs $KPKG"))"
	info "unpacking $KTARBALL"
	parent=$(dirname "$TREE")
	mkdir -p "$parent"
	tmp=$(mktemp -d "$parent/.unpack.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	tar -xJf "$KTARBALL" -C "$tmp"
	top=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d | head -n1)
	if [ -z "$top" ] || [ ! -f "$top/Makefile" ]; then
		die "unexpected layout of $KTARBALL"
	fi
	rm -rf "$TREE"
	mv "$top" "$TREE"
fi

ver=$(kernel_version "$TREE")
[ -n "$ver" ] || die "cannot read VERSION/PATCHLEVEL/SUBLEVEL from $TREE/Makefile"

if [ ! -d "$TREE/.git" ]; then
	info "creating git repo in $TREE (takes a minute)"
	tree_git init -q -b "$BASE_BRANCH"
	tree_git add -f -A
	tree_git update-ref "refs/heads/$BASE_BRANCH" "$(base_commit "$(tree_git write-tree)")"
fi
if ! tree_git rev-parse -q --verify "refs/heads/$BASE_BRANCH" >/dev/null; then
	# Repo exists but the branch has another name: point base at the root commit.
	root=$(tree_git rev-list --max-parents=0 HEAD | tail -n1)
	tree_git branch "$BASE_BRANCH" "$root"
fi
tree_git rev-parse -q --verify "refs/tags/$(base_tag)" >/dev/null ||
	tree_git tag "$(base_tag)" "$BASE_BRANCH"
# No automatic gc: the tree's ~90,000 loose objects make the first git am
# start "git gc --auto" in the background, which repacks the whole kernel
# for minutes and inherits the open lock file of scripts/series.sh, so
# every other build of the kernel waits for the repack.
[ "$(tree_git config gc.auto || true)" = 0 ] || tree_git config gc.auto 0
base_is_deterministic
tree_ok || die "tree at $TREE is still incomplete" "remove it and run make tree again"
info "tree ready: $TREE ($(base_tag))"
