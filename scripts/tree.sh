#!/bin/bash
# tree.sh - make sure the pristine Debian kernel tree exists as a git repo.
#
# Usage: scripts/tree.sh [--dry-run] [--help]
#
# Result: $COOL_TREE (default $COOL_CACHE/src/linux-source-6.12) is a git repo
# with branch 'base' holding one commit of the pristine tree and tag
# v<VERSION>-debian on it.  Fast no-op when that is already true.
# With COOL_TREE naming a tree of your own: only checks that it is a kernel
# tree carrying the series and without an in-tree build; never changes it.
# Steps when missing (linux-source-6.12 is installed by make setup): unpack
# /usr/src/linux-source-6.12.tar.xz, git init, git add -f -A (Debian's
# .gitignore ignores top-level entries), commit, tag.
#
# Exit codes: 0 tree ready, 1 could not create it, 5 bad usage.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

dry_run=0
while [ $# -gt 0 ]; do
	case $1 in
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
tree_ok() {
	[ -f "$TREE/Makefile" ] && [ -d "$TREE/.git" ] || return 1
	tree_git rev-parse -q --verify "refs/heads/$BASE_BRANCH" >/dev/null || return 1
	tree_git rev-parse -q --verify "refs/tags/$(base_tag)" >/dev/null
}

if tree_ok; then
	[ "$dry_run" = 1 ] && echo "tree: $TREE ready (branch $BASE_BRANCH, tag $(base_tag)); nothing to do"
	exit 0
fi

if [ "$dry_run" = 1 ]; then
	echo "tree: would create $TREE:"
	[ -f "$KTARBALL" ] || echo "  missing $KTARBALL: make setup installs $KPKG"
	[ -f "$TREE/Makefile" ] || echo "  tar -xJf $KTARBALL -C $(dirname "$TREE")"
	echo "  git init -b $BASE_BRANCH; git add -f -A; git commit; git tag v<version>-debian"
	exit 0
fi

require_tool git git
require_tool xz xz-utils

if [ ! -f "$TREE/Makefile" ]; then
	# packages are make setup's (scripts/setup.sh), which runs this script last
	[ -f "$KTARBALL" ] || die "$KTARBALL missing" "run 'make setup' (as root it installs $KPKG)"
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
deb=$(dpkg-query -W -f='${Version}' "$KPKG" 2>/dev/null || echo unknown)

if [ ! -d "$TREE/.git" ]; then
	info "creating git repo in $TREE (takes a minute)"
	tree_git init -q -b "$BASE_BRANCH"
	tree_git add -f -A
	tree_git_id commit -q -m "Linux $ver (Debian $KPKG $deb)"
fi
if ! tree_git rev-parse -q --verify "refs/heads/$BASE_BRANCH" >/dev/null; then
	# Repo exists but the branch has another name: point base at the root commit.
	root=$(tree_git rev-list --max-parents=0 HEAD | tail -n1)
	tree_git branch "$BASE_BRANCH" "$root"
fi
tree_git rev-parse -q --verify "refs/tags/$(base_tag)" >/dev/null ||
	tree_git tag "$(base_tag)" "$BASE_BRANCH"
tree_ok || die "tree at $TREE is still incomplete" "remove it and run make tree again"
info "tree ready: $TREE ($(base_tag))"
