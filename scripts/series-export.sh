#!/bin/bash
# series-export.sh - regenerate patches/ from the workspace branch.
#
# Usage: scripts/series-export.sh [--branch B] [--worktree DIR] [--dry-run] [--help]
#
# Runs 'git format-patch --base=<tag>' on <tag>..B in the kernel tree (the
# branch you develop the series on; default 'dev', whose worktree is
# $COOL_CACHE/src/linux-dev if present) and replaces patches/[0-9]*.patch
# with the result, then writes the cover letter (scripts/cover-letter.sh: the
# prose of docs/cover-letter.in, the numbers of docs/data/bench.txt).
# Environment: COOL_DEV_BRANCH (default dev).
#
# Exit codes: 0 exported, 1 the branch is missing or holds no patches, 5 bad usage.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

branch=${COOL_DEV_BRANCH:-dev}
dry_run=0
while [ $# -gt 0 ]; do
	case $1 in
	--branch) branch=${2:?--branch needs a value}; shift ;;
	--dry-run) dry_run=1 ;;
	-h | --help) show_help; exit 0 ;;
	*) usage_error "unknown option $1" ;;
	esac
	shift
done
refuse_user_tree "make series-export"

tag=$(base_tag)
tree_git rev-parse -q --verify "refs/heads/$branch" >/dev/null ||
	die "no branch '$branch' in $TREE" "create it with: git -C $TREE worktree add -b $branch ../linux-dev $tag"
count=$(tree_git rev-list --count "$tag..$branch")
[ "$count" -gt 0 ] || die "branch '$branch' has no commits on top of $tag"

if [ "$dry_run" = 1 ]; then
	echo "would export $count patches from $branch ($tag..$branch) into $PATCH_DIR"
	tree_git log --oneline "$tag..$branch"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tree_git -c diff.suppressBlankEmpty=true format-patch -q --no-signature --subject-prefix="RFC PATCH" --base="$tag" -o "$tmp" "$tag..$branch"
mkdir -p "$PATCH_DIR"
find "$PATCH_DIR" -maxdepth 1 -name '[0-9]*.patch' ! -name '0000-cover-letter.patch' -delete
cp "$tmp"/*.patch "$PATCH_DIR"/
info "exported $count patches from $branch to ${PATCH_DIR#"$REPO_ROOT"/}"
"$REPO_ROOT/scripts/cover-letter.sh" --branch "$branch"
