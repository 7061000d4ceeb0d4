#!/bin/bash
# series-export.sh - regenerate a kernel's series from its workspace branch.
#
# Usage: scripts/series-export.sh [--kernel VER] [--branch B] [--dry-run] [--help]
#   --kernel VER  7.3 (patches/) or 6.12 (patches/6.12/); env KERNEL;
#                 default: every kernel whose tree has the branch (make
#                 series-export writes both series, each from its own tree)
#
# Runs 'git format-patch --base=<tag>' on <tag>..B in the kernel's tree (the
# branch you develop the series on; default 'dev', whose worktree is
# $COOL_CACHE/src/linux-dev-<ver> by convention) and replaces the kernel's
# [0-9]*.patch with the result, then writes its cover letter
# (scripts/cover-letter.sh: the prose of docs/cover-letter.in for 7.3,
# docs/cover-letter-<ver>.in for a backport, the numbers of
# docs/data/bench.txt).
# The patches carry the identity of whoever exports them: author and
# Signed-off-by become git's user.name / user.email (git config, as in the
# repo), the branch's own author lines and sign-offs of that author are
# replaced (in a throw-away worktree; the branch is not changed).  No
# identity: it stops and says how to set one.
# Environment: COOL_DEV_BRANCH (default dev).
#
# Exit codes: 0 exported, 1 the branch is missing or holds no patches, or
# git has no identity, 5 bad usage.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

branch=${COOL_DEV_BRANCH:-dev}
dry_run=0 kernel=$KERNEL_ASKED args=("$@")
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) [ $# -ge 2 ] || usage_error "--kernel needs a value"; select_kernel "$2"; kernel=$2; shift ;;
	--kernel=*) select_kernel "${1#*=}"; kernel=${1#*=} ;;
	--branch) branch=${2:?--branch needs a value}; shift ;;
	--dry-run) dry_run=1 ;;
	-h | --help) show_help; exit 0 ;;
	*) usage_error "unknown option $1" ;;
	esac
	shift
done
refuse_user_tree "make series-export"
if [ -z "$kernel" ]; then
	# no kernel asked for: each kernel whose tree has the branch
	n=0
	for k in $COOL_KERNELS; do
		select_kernel "$k"
		if ! tree_git rev-parse -q --verify "refs/heads/$branch" >/dev/null 2>&1; then
			info "kernel $k: no branch '$branch' in $TREE, its series (${PATCH_DIR#"$REPO_ROOT"/}/) left as it is"
			continue
		fi
		"$0" --kernel "$k" ${args[@]+"${args[@]}"}
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || die "no kernel tree has a branch '$branch'" \
		"create one: git -C $COOL_CACHE/src/linux-source-<ver> worktree add -b $branch ../linux-dev-<ver> v<version>-debian"
	exit 0
fi

tag=$(base_tag)
tree_git rev-parse -q --verify "refs/heads/$branch" >/dev/null ||
	die "no branch '$branch' in $TREE" "create it with: git -C $TREE worktree add -b $branch ../linux-dev-$KVER $tag"
count=$(tree_git rev-list --count "$tag..$branch")
[ "$count" -gt 0 ] || die "branch '$branch' has no commits on top of $tag"

if [ "$dry_run" = 1 ]; then
	echo "would export $count patches from $branch ($tag..$branch) into $PATCH_DIR"
	tree_git log --oneline "$tag..$branch"
	exit 0
fi

name=$(git -C "$REPO_ROOT" config user.name || true)
email=$(git -C "$REPO_ROOT" config user.email || true)
if [ -z "$name" ] || [ -z "$email" ]; then
	die "git has no identity to sign the series off with (user.name/user.email)" \
		"git config --global user.name 'Your Name'; git config --global user.email you@your.domain"
fi

tmp=$(mktemp -d)
wt=$tmp/wt
cleanup() {
	tree_git worktree remove --force "$wt" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
# Re-author every commit as the exporter, with the exporter's sign-off in
# place of the original author's.
tree_git worktree add -q --detach "$wt" "$branch"
# shellcheck disable=SC2016 # expanded by the shell of git rebase --exec
resign='a=$(git log -1 --format="%an <%ae>"); git log -1 --format=%B | grep -vxF "Signed-off-by: $a" | git commit -q --amend --reset-author -s -F -'
git -C "$wt" -c user.name="$name" -c user.email="$email" -c core.editor=true \
	rebase -q --exec "$resign" "$tag" >"$tmp/rebase.log" 2>&1 || {
	cat "$tmp/rebase.log" >&2
	die "could not re-sign the series as $name <$email>"
}
git -C "$wt" -c user.name="$name" -c user.email="$email" -c diff.suppressBlankEmpty=true \
	format-patch -q --no-signature --subject-prefix="$(subject_prefix)" --base="$tag" -o "$tmp/out" "$tag..HEAD"
mkdir -p "$PATCH_DIR"
find "$PATCH_DIR" -maxdepth 1 -name '[0-9]*.patch' ! -name '0000-cover-letter.patch' -delete
cp "$tmp"/out/*.patch "$PATCH_DIR"/
info "exported $count patches from $branch to ${PATCH_DIR#"$REPO_ROOT"/} as $name <$email>"
# the cover letter's shortlog from the re-signed commits
"$REPO_ROOT/scripts/cover-letter.sh" --branch "$(git -C "$wt" rev-parse HEAD)"
