#!/bin/bash
# series.sh - put the patch series on branch 'cool' of the kernel tree.
#
# Usage: scripts/series.sh [--kernel VER] [--variant NAME] [--force] [--dry-run] [--help]
#   --kernel VER    7.3 or 6.12 (env KERNEL, default scripts/lib.sh
#                   COOL_DEFAULT_KERNEL)
#   --variant NAME  also put variant NAME on branch cool+NAME: branch cool plus
#                   the variant's patches for the kernel,
#                   qemu-boot/variants/NAME/*.patch for 7.3,
#                   qemu-boot/variants/NAME/<ver>/*.patch for another (rival designs for make
#                   bench, deliberately wrong kernels for negative tests; not
#                   part of the series), checked out in its own worktree
#                   $COOL_CACHE/src/linux-source-<ver>+NAME, so that building
#                   a variant never moves the tree the other scenarios build
#
# Branch 'cool' = tag v<ver>-debian + 'git am' of the kernel's series in name
# order (0000-cover-letter.patch excluded), checked out in $COOL_TREE: the
# series of 7.3 is patches/[0-9]*.patch, the 6.12 backport
# patches/6.12/[0-9]*.patch (scripts/lib.sh select_kernel, PATCH_DIR).
# No patches: cool = base.  The sha256 of the series (names + contents + base
# commit) is kept in $COOL_TREE/.git/cool-series.sha256: an unchanged series is a
# fast no-op, a changed one is re-applied from the base tag (--force: always)
# in a temporary worktree, and the tree checks out the result, which
# rewrites only the files that changed.
# With COOL_TREE naming a tree of your own, nothing is applied: the tree
# must carry the series already (scripts/tree.sh checks), and is built as it
# stands.
# A series that does not apply: git am --abort, the tree is left as it was,
# git am's message and the patch are printed.
#
# Exit codes: 0 series applied (or unchanged), 1 series does not apply or the
# tree is dirty, 5 bad usage.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

dry_run=0 force=0 variant=''
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) [ $# -ge 2 ] || usage_error "--kernel needs a value"; select_kernel "$2"; shift ;;
	--kernel=*) select_kernel "${1#*=}" ;;
	--variant) [ $# -ge 2 ] || usage_error "--variant needs a value"; variant=$2; shift ;;
	--variant=*) variant=${1#*=} ;;
	--dry-run) dry_run=1 ;;
	--force) force=1 ;;
	-h | --help) show_help; exit 0 ;;
	*) usage_error "unknown option $1" ;;
	esac
	shift
done

if [ -n "$variant" ]; then
	# the series first, then the variant on top of it
	opts=()
	[ "$dry_run" = 0 ] || opts+=(--dry-run)
	[ "$force" = 0 ] || opts+=(--force)
	"$0" --kernel "$KVER" ${opts[@]+"${opts[@]}"}
	refuse_user_tree "a variant of the series"
	case $variant in '' | *[!A-Za-z0-9_.-]*) usage_error "bad variant name '$variant'" ;; esac
	[ -d "$VARIANT_DIR/$variant" ] || usage_error "no variant '$variant' ($VARIANT_DIR/$variant)"
	vdir=$(variant_patch_dir "$variant")
	mapfile -t vpatches < <(ls "$vdir"/[0-9]*.patch 2>/dev/null)
	[ "${#vpatches[@]}" -gt 0 ] || die "variant $variant has no patches for the $KVER series in ${vdir#"$REPO_ROOT"/}/"
	wt=$(variant_tree "$variant")
	vbranch=$COOL_BRANCH+$variant
	if [ "$dry_run" = 1 ]; then
		echo "series: variant $variant: branch $vbranch = $COOL_BRANCH + ${#vpatches[@]} patch(es) of $vdir, in $wt"
		exit 0
	fi
	# one of us per variant at a time (see the series' lock below)
	exec 9>"$TREE/.git/cool-variant-$variant.lock"
	flock 9
	want=$({
		echo "base $(tree_git rev-parse "$COOL_BRANCH")"
		for p in "${vpatches[@]}"; do echo "patch ${p##*/}"; cat "$p"; done
	} | hash_stdin)
	if [ -d "$wt" ] && git -C "$wt" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		vstamp=$(git -C "$wt" rev-parse --git-dir)/cool-variant.sha256
		[ "$force" = 0 ] && [ "$(cat "$vstamp" 2>/dev/null || true)" = "$want" ] && exit 0
		[ -z "$(git -C "$wt" status --porcelain --untracked-files=no)" ] ||
			die "variant worktree $wt has uncommitted changes" "commit or drop them there"
	else
		rm -rf "$wt"
		tree_git worktree prune
		tree_git worktree add -q -B "$vbranch" "$wt" "$COOL_BRANCH"
		vstamp=$(git -C "$wt" rev-parse --git-dir)/cool-variant.sha256
	fi
	rm -f "$vstamp"
	info "variant $variant: applying ${#vpatches[@]} patch(es) on $COOL_BRANCH in $wt"
	# reset to the series (only changed files are rewritten), then git am
	git -C "$wt" checkout -q -B "$vbranch" "$COOL_BRANCH"
	if ! msg=$(tree_git_id -C "$wt" am --quiet "${vpatches[@]}" 2>&1); then
		git -C "$wt" am --abort >/dev/null 2>&1 || true
		printf '%s\n' "$msg" | grep -vE '^(hint: |When you have|If you prefer|To restore)' >&2 || true
		die "variant $variant does not apply to $COOL_BRANCH" "rebase $vdir on the series"
	fi
	echo "$want" >"$vstamp"
	info "branch $vbranch = $COOL_BRANCH + ${#vpatches[@]} patch(es) ($(git -C "$wt" rev-parse --short HEAD))"
	exit 0
fi

if [ "$dry_run" = 1 ]; then "$REPO_ROOT/scripts/tree.sh" --dry-run; else "$REPO_ROOT/scripts/tree.sh"; fi
if [ "$USER_TREE" = 1 ]; then
	# COOL_TREE is the user's: tree.sh checked that it carries the series.
	[ "$dry_run" = 1 ] && echo "series: COOL_TREE=$TREE is built as it stands (HEAD $(tree_git rev-parse --short HEAD 2>/dev/null || echo 'not git'))"
	exit 0
fi

mapfile -t patches < <(series_patches)

# One of us per tree at a time: two runs of the harness (from two clones
# or worktrees of the project) share the cache's tree, and a second git
# am under a build of the first rewrote its sources (seen 2026-12-07).
# The second waits here, then finds the stamp current.
if [ "$dry_run" = 0 ]; then
	exec 9>"$TREE/.git/cool-series.lock"
	flock 9
fi

tag=$(base_tag)
stamp=$TREE/.git/cool-series.sha256
if [ "$dry_run" = 1 ] && ! tree_git rev-parse -q --verify "refs/tags/$tag" >/dev/null; then
	base_sha=none
else
	base_sha=$(tree_git rev-parse "$tag^{commit}")
fi
want=$({
	echo "base $base_sha"
	for p in ${patches[@]+"${patches[@]}"}; do
		echo "patch ${p##*/}"
		cat "$p"
	done
} | hash_stdin)

head_branch=$(tree_git symbolic-ref -q --short HEAD 2>/dev/null || true)
have=$(cat "$stamp" 2>/dev/null || true)
if [ "$force" = 0 ] && [ "$want" = "$have" ] &&
	tree_git rev-parse -q --verify "refs/heads/$COOL_BRANCH" >/dev/null; then
	if [ "$head_branch" = "$COOL_BRANCH" ]; then
		[ "$dry_run" = 1 ] && echo "series: unchanged (${#patches[@]} patches), branch $COOL_BRANCH checked out; nothing to do"
		exit 0
	fi
	if [ "$dry_run" = 1 ]; then
		echo "series: unchanged; would check out $COOL_BRANCH"
		exit 0
	fi
	tree_git checkout -q "$COOL_BRANCH"
	exit 0
fi

if [ "$dry_run" = 1 ]; then
	echo "series: would reset branch $COOL_BRANCH to $tag and git am ${#patches[@]} patch(es):"
	for p in ${patches[@]+"${patches[@]}"}; do echo "  ${p##*/}"; done
	exit 0
fi

# Never throw away somebody's edits in the tree.
if [ -n "$(tree_git status --porcelain --untracked-files=no)" ]; then
	die "kernel tree $TREE has uncommitted changes" "commit or stash them there (git -C $TREE status), the harness only builds committed patches"
fi
if [ -d "$TREE/.git/rebase-apply" ]; then
	tree_git am --abort >/dev/null 2>&1 || true
fi

rm -f "$stamp"
# git am runs in a throw-away worktree on the tag; the tree then moves to
# the result with one checkout, which rewrites only the files that differ
# from what it has checked out: a series that changed one file (or only
# its dates) leaves every other file's mtime alone, so the builds in
# out/ stay incremental. A series that does not apply leaves the tree as
# it was.
new=$(tree_git rev-parse "$tag^{commit}")
if [ "${#patches[@]}" -gt 0 ]; then
	info "applying ${#patches[@]} patch(es) on $tag"
	wt=$(mktemp -d "${TMPDIR:-/tmp}/cool-series.XXXXXX")
	trap 'tree_git worktree remove --force "$wt/tree" >/dev/null 2>&1 || true; rm -rf "$wt"' EXIT
	tree_git worktree add -q --detach "$wt/tree" "$tag"
	if ! msg=$(tree_git_id -C "$wt/tree" am --quiet "${patches[@]}" 2>&1); then
		gitdir=$(git -C "$wt/tree" rev-parse --git-dir)
		failed=$(head -n1 "$gitdir/rebase-apply/final-commit" 2>/dev/null || true)
		cur=$(cat "$gitdir/rebase-apply/next" 2>/dev/null || echo 0)
		git -C "$wt/tree" am --abort >/dev/null 2>&1 || true
		# git am's own advice (--continue/--skip/--abort) does not apply: we aborted.
		printf '%s\n' "$msg" | grep -vE '^(hint: |When you have|If you prefer|To restore)' >&2 || true
		pname=unknown
		if [ "$cur" -ge 1 ] 2>/dev/null && [ "$cur" -le "${#patches[@]}" ]; then
			pname=${patches[$((cur - 1))]##*/}
		fi
		die "patch $pname does not apply to $tag${failed:+ ($failed)}" \
			"rebase the series on $tag (the tree in $TREE is left as it was)"
	fi
	new=$(git -C "$wt/tree" rev-parse HEAD)
fi
tree_git checkout -q -B "$COOL_BRANCH" "$new"
echo "$want" >"$stamp"
info "branch $COOL_BRANCH = $tag + ${#patches[@]} patch(es) ($(tree_git rev-parse --short HEAD))"
