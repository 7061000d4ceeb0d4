#!/bin/bash
# check.sh - 'make check': is the series ready for the list?
#
# Usage: scripts/check.sh [--kernel VER] [--only LIST] [--configs LIST] [--dry-run] [--help]
#   --kernel VER  the series to check: 7.3's (patches/) or 6.12's
#                 (patches/6.12/); env KERNEL, default scripts/lib.sh
#                 COOL_DEFAULT_KERNEL
#   --only LIST   comma-separated subset of:
#                 checkpatch  scripts/checkpatch.pl --strict on every patch
#                 apply       git am of the series on a pristine worktree, and
#                             every variant (qemu-boot/variants/) on top of it
#                 bisect      every patch builds without a new warning and
#                             boots a short locktorture, on every config of
#                             --configs with COOL on and off (slow: one
#                             incremental build and one boot per patch and
#                             config; hours for the whole matrix)
#                 warnings    the top of the series adds no build or objtool
#                             warning (cool vs stock build logs)
#                 maintainers get_maintainer.pl names recipients (make send
#                             addresses through b4 prep --auto-to-cc; nothing is kept)
#                 lint        shellcheck of every script (scripts/lint.sh)
#                 (default: all)
#   --configs LIST  comma-separated scenarios whose configs bisect builds,
#                 each with COOL on and off; one that does not apply to the
#                 kernel is left out and said so (default: cool,
#                 preempt-none, preempt-lazy, xen, i386: minimal
#                 PREEMPT_DYNAMIC, the static model (6.12: PREEMPT_NONE
#                 without PREEMPT_COUNT; 7.3: PREEMPT_LAZY, x86 has no
#                 PREEMPT_NONE), Xen PV dom0 (PARAVIRT_XXL, pv spinlocks),
#                 i386)
# Environment: COOL_CHECK_ONLY, COOL_CHECK_CONFIGS, COOL_CHECK_TESTS (the
# bisect boots' tests, default two 5 s locktorture runs).
#
# Each check prints one 'ok'/'not ok' line (KTAP); the last line is
# 'N passed, N failed'. Exit codes: 0 all checks passed, 1 a check failed,
# 5 bad usage.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

only=${COOL_CHECK_ONLY:-checkpatch,apply,bisect,warnings,maintainers,lint}
configs=${COOL_CHECK_CONFIGS:-cool,preempt-none,preempt-lazy,xen,i386}
check_tests=${COOL_CHECK_TESTS:-locktorture:spin_lock:5 locktorture:rw_lock_irq:5}
dry_run=0
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) [ $# -ge 2 ] || usage_error "--kernel needs a value"; select_kernel "$2"; shift ;;
	--kernel=*) select_kernel "${1#*=}" ;;
	--only) only=${2:?--only needs a value}; shift ;;
	--configs) [ $# -ge 2 ] || usage_error "--configs needs a value"; configs=$2; shift ;;
	--configs=*) configs=${1#*=} ;;
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

# The configs of $configs that apply to the kernel ($run_configs, with
# each one's build dir, kernel ARCH and LLVM setting in $scen_info) and
# those that do not ($skipped_configs: their scenarios' KERNELS).
run_configs='' skipped_configs=''
declare -A scen_info=()
for s in ${configs//,/ }; do
	[ -f "$SCENARIO_DIR/$s.conf" ] || usage_error "--configs: no scenario '$s' (no $SCENARIO_DIR/$s.conf)"
	if info=$( (load_scenario "$s" && printf '%s %s %s\n' "$OUT" "$KARCH" "${KMAKE_LLVM[*]-none}") 2> /dev/null); then
		run_configs+=" $s"
		scen_info[$s]=$info
	else
		skipped_configs+=" $s"
	fi
done

if [ "$dry_run" = 1 ]; then
	echo "check plan: kernel $KVER, ${#patches[@]} patches of ${PATCH_DIR#"$REPO_ROOT"/}/ on $tag: $only"
	! want bisect || echo "bisect: patches 0 (base) to ${#patches[@]}, configs${run_configs:- none}, COOL on and off each${skipped_configs:+ (not configs of $KVER:$skipped_configs)}; boots: $check_tests"
	exit 0
fi

"$REPO_ROOT/scripts/tree.sh" > /dev/null
tmp=$(mktemp -d)
# A fixed worktree path, not one under $tmp: the compiler sees absolute
# -I paths of the source tree, so ccache only hits between runs when the
# path stays the same. A worktree left by a killed run is removed first.
# Only the checks that build or apply use it, under a lock per kernel: a
# checkpatch-only run beside a check-bisect once removed the worktree
# the bisect was building ("fatal: not a git repository", every later
# patch "build failed").
wt=$COOL_CACHE/check-worktree-$KVER
have_wt=0
remove_worktree() {
	git -C "$TREE" worktree remove --force "$wt" > /dev/null 2>&1 || true
	rm -rf "$wt"
	git -C "$TREE" worktree prune
}
cleanup() {
	[ "$have_wt" = 0 ] || remove_worktree
	rm -rf "$tmp"
}
trap cleanup EXIT
if want apply || want bisect || want warnings; then
	exec 8> "$COOL_CACHE/check-$KVER.lock"
	flock -n 8 || die "another make check on kernel $KVER is using $wt" \
		"wait for it, or run the checks that need no tree (--only checkpatch,maintainers,lint)"
	have_wt=1
	remove_worktree
fi

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

# The harness's variants (qemu-boot/variants/NAME: negative controls,
# rivals, candidates) are patches on top of the series: one the series
# no longer takes breaks its scenarios, and only a build of them would
# notice. Each is applied in a scratch state of the worktree, then undone.
if want apply && [ "$applied" = 1 ]; then
	for vd in "$VARIANT_DIR"/*/; do
		v=$(basename "$vd")
		variant_has_patches "$v" || continue
		rc=0
		for p in "$(variant_patch_dir "$v")"/[0-9]*.patch; do
			if ! git -C "$wt" apply "$p" > "$tmp/vapply" 2>&1; then
				rc=1
				sed 's/^/# /' "$tmp/vapply"
				break
			fi
		done
		git -C "$wt" reset -q --hard
		git -C "$wt" clean -fdq
		result "$rc" "variant_${v}_applies"
	done
fi

# build_at COMMIT CONFIG_SRC OUTDIR: incremental build of the worktree.
# The scenario's config is copied in before every build: olddefconfig at a
# commit that does not know CONFIG_COOL_SPINLOCK drops it, and a kept
# .config would then build the later patches with COOL off. Once the
# commit has the option, the config must still have the config's value.
# The build stamps are fixed (KBUILD_BUILD_*), so a patch that changes
# nothing a config builds gives the same image as the patch before it.
build_at() {
	local want_cool have_cool
	git -C "$wt" checkout -q "$1"
	mkdir -p "$3"
	cp "$2" "$3/.config"
	make -s -C "$wt" O="$3" "${KMAKE_ARCH[@]}" olddefconfig > /dev/null 2>&1 || return 1
	if grep -q '^config COOL_SPINLOCK$' "$wt/arch/x86/Kconfig"; then
		want_cool=$(grep -c '^CONFIG_COOL_SPINLOCK=y' "$2" || true)
		have_cool=$(grep -c '^CONFIG_COOL_SPINLOCK=y' "$3/.config" || true)
		if [ "$want_cool" != "$have_cool" ]; then
			echo "# CONFIG_COOL_SPINLOCK did not stick in $3/.config"
			return 1
		fi
		echo "# $(git -C "$wt" log -1 --format=%h "$1"): COOL_SPINLOCK=$([ "$have_cool" = 1 ] && echo y || echo n)"
	fi
	KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 1970' KBUILD_BUILD_VERSION=1 \
		KBUILD_BUILD_USER=check KBUILD_BUILD_HOST=check \
		make -C "$wt" O="$3" "${KMAKE_ARCH[@]}" -j"$(($(nproc) + 1))" CC="ccache gcc" \
		bzImage modules > "$3/build.log" 2>&1
}

# build_warnings LOG: the compiler's and objtool's warnings of a build log,
# without line and column numbers (a patch above moves them).
build_warnings() {
	grep -E 'warning:' "$1" | sed -E 's/:[0-9]+(:[0-9]+)?:/:/' | sort -u || true
}

# image_id OUTDIR: a hash of what a boot runs (bzImage and every module).
image_id() {
	{
		sha256sum "$1/arch/x86/boot/bzImage"
		find "$1" -name '*.ko' -print0 | sort -z | xargs -0 -r sha256sum | sed "s|$1/||"
	} | sed 's/ .*\/boot\/bzImage$/ bzImage/' | sha256sum | cut -c1-16
}

# Every patch, on every config of $configs with COOL on and with COOL off
# (the scenario's config with CONFIG_COOL_SPINLOCK disabled): build it,
# with no warning the base tree's build of that config lacks, then boot
# what was built with the scenario's machine (COOL_BUILD: the check's
# build dir) and $check_tests, judged like any boot: COOL-EXIT reached,
# clean console. "patch 0" is the pristine base, the baseline of the
# warnings and the control of the boot. A build whose image (bzImage and
# modules) is byte-identical to the last one booted is not booted again:
# the result says so. Boot results in results/<stamp>/check-VER/.
if want bisect && [ "$applied" = 1 ]; then
	resroot=$(default_results_dir "check-$KVER")
	mapfile -t commits < <(git -C "$wt" rev-list --reverse "$tag..HEAD")
	commits=("$tag" "${commits[@]}")
	head=$(git -C "$wt" rev-parse HEAD)
	for s in $skipped_configs; do
		echo "# config $s: not a config of $KVER (its scenario's KERNELS), not checked"
	done
	for s in $run_configs; do
		read -r scen_out karch llvm <<< "${scen_info[$s]}"
		if [ "$llvm" != none ]; then
			echo "# config $s: an LLVM scenario; check-bisect builds with gcc: not checked"
			continue
		fi
		"$REPO_ROOT/scripts/config.sh" --scenario "$s" > "$tmp/config.log" 2>&1 ||
			{ sed 's/^/# /' "$tmp/config.log" | tail -5; result 1 "config_${s}"; continue; }
		for side in on off; do
			build=check-$s-$side
			cfg=$tmp/$build.config
			cp "$scen_out/.config" "$cfg"
			[ "$side" = on ] || "$wt/scripts/config" --file "$cfg" --disable COOL_SPINLOCK
			KMAKE_ARCH=("ARCH=$karch")
			booted_id='' booted_patch=''
			for i in "${!commits[@]}"; do
				c=${commits[$i]}
				name=patch${i}_${s//-/_}_cool_${side}
				subj=$(git -C "$wt" log -1 --format=%s "$c")
				[ "$i" != 0 ] || subj="base $tag"
				info "check: $s, COOL $side, patch $i: $subj"
				echo "# patch $i ($s, COOL $side): $subj"
				if ! build_at "$c" "$cfg" "$OUT_ROOT/$build"; then
					echo "# build failed: $OUT_ROOT/$build/build.log"
					grep -E 'error|Error' "$OUT_ROOT/$build/build.log" | head -5 | sed 's/^/#   /'
					result 1 "$name"
					continue
				fi
				build_warnings "$OUT_ROOT/$build/build.log" > "$tmp/w"
				if [ "$i" = 0 ]; then
					cp "$tmp/w" "$tmp/w.base"
					[ ! -s "$tmp/w" ] || sed 's/^/# base warning: /' "$tmp/w"
				elif comm -13 "$tmp/w.base" "$tmp/w" | grep -q .; then
					echo "# new warnings:"
					comm -13 "$tmp/w.base" "$tmp/w" | head -10 | sed 's/^/#   /'
					result 1 "$name"
					continue
				fi
				id=$(image_id "$OUT_ROOT/$build")
				if [ "$id" = "$booted_id" ]; then
					echo "# image $id is the one patch $booted_patch booted: not booted again"
					result 0 "$name"
					continue
				fi
				rdir=$resroot/p$i-$s-$side
				mkdir -p "$rdir"
				# result's kernel_head names the harness tree; this names the patch
				git -C "$wt" log -1 --format='%H %s' "$c" > "$rdir/patch"
				if COOL_BUILD=$build COOL_TESTS=$check_tests "$REPO_ROOT/qemu-boot/boot.sh" \
					--scenario "$s" --results-dir "$rdir" > "$tmp/boot" 2>&1; then
					booted_id=$id booted_patch=$i
					result 0 "$name"
				else
					echo "# boot failed (boot.sh rc $?): $rdir"
					sed 's/^/#   /' "$tmp/boot" | tail -5
					result 1 "$name"
				fi
			done
			[ "$(git -C "$wt" rev-parse HEAD)" = "$head" ] || git -C "$wt" checkout -q "$head"
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
