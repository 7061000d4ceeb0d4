#!/bin/bash
# build.sh - build a scenario's kernel: series + config + make bzImage modules.
#
# Usage: scripts/build.sh [--kernel VER] [--scenario NAME] [--jobs N] [--dry-run] [--help]
#   --kernel VER     7.3 or 6.12 (env KERNEL, default scripts/lib.sh
#                    COOL_DEFAULT_KERNEL)
#   --scenario NAME  (env SCENARIO, default cool)
#   --jobs N         make -j N (env JOBS, default nproc+1)
#
# Output in $COOL_CACHE/out/VER/NAME: arch/x86/boot/bzImage, *.ko, build.log (full
# make output), warnings.txt (grep -E 'warning:|objtool:' build.log).
# A kernel whose test module the project builds out of tree (scripts/lib.sh
# select_kernel KTESTMOD_SRC: selftests/kmod) gets it after the kernel,
# when the config has modules: the source is copied to OUT/kmod/ and built
# there with make -C OUT M=OUT/kmod W=1 modules (its output in build.log
# too; qemu-boot/initramfs.sh takes every *.ko of OUT).
# On a tty the make output is condensed into one updating line; elsewhere a
# line every 500 objects.  Plain incremental make: only what changed rebuilds.
# CC="ccache gcc" when ccache is installed ("ccache clang" and make LLVM=1
# for scenarios with LLVM=1, "ccache clang-19" and make LLVM=-19 for LLVM=-19).
#
# Exit codes: 0 built, 1 series/config/build failed (last 30 lines of the log
# are printed), 2 config check failed (options named), 5 bad usage.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

scenario=${SCENARIO:-cool} jobs=${JOBS:-} dry_run=0
while [ $# -gt 0 ]; do
	case $1 in
	--scenario) [ $# -ge 2 ] || usage_error "--scenario needs a value"; scenario=$2; shift ;;
	--scenario=*) scenario=${1#*=} ;;
	--kernel) [ $# -ge 2 ] || usage_error "--kernel needs a value"; select_kernel "$2"; shift ;;
	--kernel=*) select_kernel "${1#*=}" ;;
	--jobs) [ $# -ge 2 ] || usage_error "--jobs needs a value"; jobs=$2; shift ;;
	--jobs=*) jobs=${1#*=} ;;
	--dry-run) dry_run=1 ;;
	-h | --help) show_help; exit 0 ;;
	*) usage_error "unknown option $1" ;;
	esac
	shift
done
[ -n "$jobs" ] || jobs=$(($(nproc) + 1))
case $jobs in '' | *[!0-9]*) usage_error "--jobs wants a number, got '$jobs'" ;; esac

load_scenario "$scenario"
cc=gcc
[ "$LLVM" = 0 ] || cc=clang$LLVM_SUFFIX
command -v ccache >/dev/null 2>&1 && cc="ccache $cc"
targets=(bzImage)

if [ "$dry_run" = 1 ]; then
	"$REPO_ROOT/scripts/config.sh" --kernel "$KVER" --scenario "$SCENARIO" --dry-run
	echo "build: make -C $TREE O=$OUT ARCH=$KARCH ${KMAKE_LLVM[*]+${KMAKE_LLVM[*]} }-j$jobs CC=\"$cc\" bzImage modules  > $OUT/build.log"
	[ -z "$KTESTMOD_SRC" ] ||
		echo "build: out-of-tree test module (with CONFIG_MODULES): ${KTESTMOD_SRC#"$REPO_ROOT"/} -> $OUT/kmod/, make -C $OUT M=$OUT/kmod ARCH=$KARCH ${KMAKE_LLVM[*]+${KMAKE_LLVM[*]} }CC=\"$cc\" W=1 modules  >> $OUT/build.log"
	exit 0
fi

log=$OUT/build.log
rm -f "$log" "$OUT/warnings.txt"
"$REPO_ROOT/scripts/config.sh" --kernel "$KVER" --scenario "$SCENARIO"
grep -q '^CONFIG_MODULES=y' "$OUT/.config" && targets+=(modules)

start=$(date +%s)
info "building $KVER $SCENARIO: make -j$jobs ${targets[*]} (log: $log)"
set +e
make -C "$TREE" O="$OUT" ARCH="$KARCH" ${KMAKE_LLVM[@]+"${KMAKE_LLVM[@]}"} -j"$jobs" CC="$cc" "${targets[@]}" 2>&1 |
	awk -v logf="$log" -v tty="$(is_tty && echo 1 || echo 0)" -v name="$KVER $SCENARIO" '
	{ print > logf; fflush(logf) }
	$1 ~ /^(CC|AS|LD|AR|HOSTCC|HOSTLD|CPP|OBJCOPY|MODPOST|GEN|UPD|CHK|SYNC|VDSO|RELOCS|BTF|KSYMS|SORTTAB|ZOFFSET|VOFFSET|MKPIGGY|GZIP|XZ|LZMA|MK_ELFNOTE|CALL|WRAP|SYSHDR|SYSTBL|POLICY|TEST|DESCEND|INSTALL|STRIP|SIGN|UNROLL|IMAGE|BUILD)(\[M\])?$/ {
		n++
		if (tty) { line = sprintf("[cool] %s: %d objects, %s %s", name, n, $1, $2)
			printf "\r\033[K%s", substr(line, 1, 110) > "/dev/stderr"; fflush("/dev/stderr") }
		else if (n % 500 == 0) { printf "[cool] %s: %d objects\n", name, n > "/dev/stderr" }
	}
	END { if (tty) printf "\r\033[K" > "/dev/stderr" }'
rc=${PIPESTATUS[0]}
set -e
what=kernel
# the test module the project builds out of tree, against the kernel just
# built (its build dir exists only now); a copy, so that the repo's
# selftests/kmod/ holds no objects and each build dir its own
if [ "$rc" = 0 ] && [ -n "$KTESTMOD_SRC" ] && [ "${targets[*]}" = 'bzImage modules' ]; then
	what='out-of-tree test module'
	info "building $KVER $SCENARIO: ${KTESTMOD_SRC#"$REPO_ROOT"/} out of tree (M=$OUT/kmod)"
	mkdir -p "$OUT/kmod"
	cp -p "$KTESTMOD_SRC"/Kbuild "$KTESTMOD_SRC"/*.c "$OUT/kmod/"
	set +e
	make -C "$OUT" M="$OUT/kmod" ARCH="$KARCH" ${KMAKE_LLVM[@]+"${KMAKE_LLVM[@]}"} CC="$cc" W=1 modules >>"$log" 2>&1
	rc=$?
	set -e
fi
grep -E 'warning:|objtool:' "$log" >"$OUT/warnings.txt" || true
nwarn=$(wc -l <"$OUT/warnings.txt")
if [ "$rc" != 0 ]; then
	echo "---- last 30 lines of $log ----" >&2
	tail -n 30 "$log" >&2
	die "$what build of $KVER $SCENARIO failed (make rc=$rc)" "full log: $log"
fi
wmsg="no warnings"
[ "$nwarn" = 0 ] || wmsg="$nwarn warning line(s) in $OUT/warnings.txt"
info "built $KVER $SCENARIO in $(($(date +%s) - start))s: $OUT/arch/x86/boot/bzImage, $(find "$OUT" -name '*.ko' | wc -l) module(s), $wmsg"
