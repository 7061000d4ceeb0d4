#!/bin/bash
# check.sh - 'make check': is the series ready for the list?
#
# Usage: scripts/check.sh [--kernel VER] [--only LIST] [--dry-run] [--help]
#   --kernel VER  the series to check: 7.3's (patches/) or 6.12's
#                 (patches/6.12/); env KERNEL, default scripts/lib.sh
#                 COOL_DEFAULT_KERNEL
#   --only LIST   comma-separated subset of:
#                 checkpatch  scripts/checkpatch.pl --strict on every patch
#                 apply       git am of the series on a pristine worktree
#                 bisect      every patch builds and boots with COOL on and
#                             off (slow: one incremental build and one boot,
#                             locktorture, per patch and config)
#                 warnings    the top of the series adds no build or objtool
#                             warning (cool vs stock build logs)
#                 maintainers get_maintainer.pl names recipients (make send
#                             addresses through b4 prep --auto-to-cc; nothing is kept)
#                 lint        shellcheck of every script (scripts/lint.sh)
#                 (default: all)
# Environment: COOL_CHECK_ONLY.
#
# Each check prints one 'ok'/'not ok' line (KTAP); the last line is
# 'N passed, N failed'. Exit codes: 0 all checks passed, 1 a check failed,
# 5 bad usage.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

only=${COOL_CHECK_ONLY:-checkpatch,apply,bisect,warnings,maintainers,lint}
dry_run=0
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) [ $# -ge 2 ] || usage_error "--kernel needs a value"; select_kernel "$2"; shift ;;
	--kernel=*) select_kernel "${1#*=}" ;;
	--only) only=${2:?--only needs a value}; shift ;;
	--dry-run) dry_run=1 ;;
	-h | --help) show_help; exit 0 ;;
	*) usage_error "unknown option $1" ;;
	esac
	shift
done
refuse_user_tree "make check"
want() { case ",$only," in *",$1,"*) return 0 ;; esac; return 1; }

mapfile -t patches < <(series_patches)
[ "${#patches[@]}" -gt 0 ] || die "no patches in $PATCH_DIR"
tag=$(base_tag)

if [ "$dry_run" = 1 ]; then
	echo "check plan: kernel $KVER, ${#patches[@]} patches of ${PATCH_DIR#"$REPO_ROOT"/}/ on $tag: $only"
	exit 0
fi

"$REPO_ROOT/scripts/tree.sh" > /dev/null
tmp=$(mktemp -d)
# A fixed worktree path, not one under $tmp: the compiler sees absolute
# -I paths of the source tree, so ccache only hits between runs when the
# path stays the same. A worktree left by a killed run is removed first.
wt=$COOL_CACHE/check-worktree-$KVER
remove_worktree() {
	git -C "$TREE" worktree remove --force "$wt" > /dev/null 2>&1 || true
	rm -rf "$wt"
	git -C "$TREE" worktree prune
}
remove_worktree
cleanup() {
	remove_worktree
	rm -rf "$tmp"
}
trap cleanup EXIT

n=0 pass=0 fail=0
result() { # result 0|1 NAME
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		pass=$((pass + 1)); echo "ok $n $2"
	else
		fail=$((fail + 1)); echo "not ok $n $2"
	fi
}
echo "KTAP version 1"

# spdxcheck.py needs Debian's python3-ply, not a pyenv python
export PATH=/usr/bin:$PATH

# checkpatch's FILE_PATH_CHANGES warning ("does MAINTAINERS need
# updating?") is a heuristic: it fires for any patch that adds a file and
# does not touch MAINTAINERS. It is not counted when get_maintainer.pl,
# in the tree with the series applied (branch cool), names a maintainer
# entry for every file the series adds; each such file is a diagnostic.
maintained_additions() {
	local f entry ok=0
	while IFS= read -r f; do
		entry=''
		[ ! -f "$TREE/$f" ] ||
			entry=$(cd "$TREE" && scripts/get_maintainer.pl --no-git --no-git-fallback -f "$f" 2>/dev/null |
				sed -n 's/.*(maintainer:\([^)]*\)).*/\1/p' | head -n 1)
		if [ -n "$entry" ]; then
			echo "# $f: added, and covered by MAINTAINERS ($entry)"
		else
			ok=1
		fi
	done < <(awk '/^--- \/dev\/null/ { getline; sub(/^\+\+\+ b\//, ""); print }' "${patches[@]}" | sort -u)
	return "$ok"
}

if want checkpatch; then
	cp_rc=0
	(cd "$TREE" && scripts/checkpatch.pl --strict --terse --no-summary "${patches[@]}") > "$tmp/cp" 2>&1 || cp_rc=$?
	if grep -q 'does MAINTAINERS need updating' "$tmp/cp" && maintained_additions; then
		grep -v 'does MAINTAINERS need updating' "$tmp/cp" > "$tmp/cp2" || true
		mv "$tmp/cp2" "$tmp/cp"
		# the heuristic is checkpatch's only warning-level complaint here:
		# its exit status counted it
		grep -qE '(ERROR|WARNING|CHECK):' "$tmp/cp" || cp_rc=0
	fi
	if [ "$cp_rc" = 0 ] && ! grep -qE '(ERROR|WARNING|CHECK):' "$tmp/cp"; then
		result 0 checkpatch_strict
	else
		sed 's/^/# /' "$tmp/cp" | head -40
		result 1 checkpatch_strict
	fi
fi

applied=0
if want apply || want bisect || want warnings; then
	git -C "$TREE" worktree add -q --detach "$wt" "$tag"
	if tree_git_id -C "$wt" am -q "${patches[@]}" > "$tmp/am" 2>&1; then
		applied=1
	else
		sed 's/^/# /' "$tmp/am"
		git -C "$wt" am --abort > /dev/null 2>&1 || true
	fi
	want apply && result $((1 - applied)) "git_am_on_pristine_$tag"
fi

# build_at COMMIT CONFIG_SRC OUTDIR: incremental build of the worktree.
# The scenario's config is copied in before every build: olddefconfig at a
# commit that does not know CONFIG_COOL_SPINLOCK drops it, and a kept
# .config would then build the later patches with COOL off. Once the
# commit has the option, the config must still have the scenario's value.
build_at() {
	local want_cool have_cool
	git -C "$wt" checkout -q "$1"
	mkdir -p "$3"
	cp "$2" "$3/.config"
	make -s -C "$wt" O="$3" olddefconfig > /dev/null 2>&1 || return 1
	if grep -q '^config COOL_SPINLOCK$' "$wt/arch/x86/Kconfig"; then
		want_cool=$(grep -c '^CONFIG_COOL_SPINLOCK=y' "$2" || true)
		have_cool=$(grep -c '^CONFIG_COOL_SPINLOCK=y' "$3/.config" || true)
		if [ "$want_cool" != "$have_cool" ]; then
			echo "# CONFIG_COOL_SPINLOCK did not stick in $3/.config"
			return 1
		fi
		echo "# $(git -C "$wt" log -1 --format=%h "$1"): COOL_SPINLOCK=$([ "$have_cool" = 1 ] && echo y || echo n)"
	fi
	make -C "$wt" O="$3" -j"$(($(nproc) + 1))" CC="ccache gcc" bzImage modules > "$3/build.log" 2>&1
}

# Every patch, COOL on and off: build it, then boot what was built
# (scenarios check-cool and check-stock: locktorture, which every patch has,
# judged like any boot: COOL-EXIT reached, clean console). One result per
# patch and config; boot results in results/<stamp>/check/.
if want bisect && [ "$applied" = 1 ]; then
	for s in stock cool; do
		[ -f "$OUT_ROOT/$s/.config" ] || "$REPO_ROOT/scripts/config.sh" --scenario "$s" > /dev/null
	done
	resroot=$(default_results_dir "check-$KVER")
	i=0
	for c in $(git -C "$wt" rev-list --reverse "$tag..HEAD"); do
		i=$((i + 1))
		subj=$(git -C "$wt" log -1 --format=%s "$c")
		for s in stock cool; do
			info "check: building '$subj' with $s config"
			echo "# patch $i ($s): $subj"
			if ! build_at "$c" "$OUT_ROOT/$s/.config" "$OUT_ROOT/check-$s"; then
				echo "# build failed: $OUT_ROOT/check-$s/build.log"
				result 1 "patch${i}_${s}_builds_and_boots"
				continue
			fi
			info "check: booting '$subj' with $s config"
			# result's kernel_head names the harness tree; this names the patch
			mkdir -p "$resroot/p$i-$s"
			git -C "$wt" log -1 --format='%H %s' "$c" > "$resroot/p$i-$s/patch"
			if "$REPO_ROOT/qemu-boot/boot.sh" --scenario "check-$s" \
				--results-dir "$resroot/p$i-$s" > "$tmp/boot" 2>&1; then
				result 0 "patch${i}_${s}_builds_and_boots"
			else
				echo "# boot failed (boot.sh rc $?): $resroot/p$i-$s"
				sed 's/^/#   /' "$tmp/boot" | tail -5
				result 1 "patch${i}_${s}_builds_and_boots"
			fi
		done
	done
fi

if want warnings; then
	w=0
	for s in stock cool; do
		log=$OUT_ROOT/$s/build.log
		if [ ! -f "$log" ]; then
			echo "# no build log for $KVER $s: run 'make kernel KERNEL=$KVER SCENARIO=$s' first"
			w=1
			continue
		fi
		grep -E 'warning:|objtool' "$log" | grep -v '^ *\(INSTALL\|DESCEND\|CC\|LD\)' > "$tmp/w.$s" || true
	done
	if [ "$w" = 0 ] && [ -s "$tmp/w.cool" ] && ! diff -q "$tmp/w.stock" "$tmp/w.cool" > /dev/null; then
		echo "# warnings in the cool build that stock does not have:"
		comm -13 <(sort "$tmp/w.stock") <(sort "$tmp/w.cool") | sed 's/^/#   /' | head -20
		w=1
	fi
	result $w no_new_build_or_objtool_warnings
fi

if want maintainers; then
	(cd "$TREE" && scripts/get_maintainer.pl --norolestats --no-git \
		--no-git-fallback "${patches[@]}") > "$tmp/maint" 2> "$tmp/maint.err" ||
		sed 's/^/# /' "$tmp/maint.err"
	if [ -s "$tmp/maint" ]; then
		sed 's/^/# to: /' "$tmp/maint"
		result 0 get_maintainer_recipients
	else
		result 1 get_maintainer_recipients
	fi
fi

if want lint; then
	if "$REPO_ROOT/scripts/lint.sh" > "$tmp/sc" 2>&1; then
		result 0 shellcheck
	else
		sed 's/^/# /' "$tmp/sc" | head -20
		result 1 shellcheck
	fi
fi

echo "1..$n"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
