#!/bin/bash
# kunit.sh - 'make kunit': the series' KUnit suite through the kernel tree's
# own tools/testing/kunit/kunit.py, as a maintainer runs it:
#   kunit.py run --arch=x86_64 --kunitconfig=<the series' kunitconfig> \
#     --qemu_args='-smp 2'
# (two CPUs: spinlock_irqwait's waits for a lock held on another CPU are
# skipped with one)
# (7.3: arch/x86/lib/cool_spinlock.kunitconfig, both suites with the
# routines in use; 6.12:
# lib/cool_spinlock.kunitconfig; scripts/lib.sh select_kernel KKUNITCONFIG)
# on branch cool of the selected kernel's tree (the series applied by
# scripts/series.sh), built in $COOL_CACHE/out/<ver>/kunit (kunit.py's
# --build_dir; its own minimal config, booted in qemu-system-x86_64).
#
# Usage: scripts/kunit.sh [--kernel VER] [--jobs N] [--dry-run] [--help]
#   --kernel VER  7.3 or 6.12 (env KERNEL, default scripts/lib.sh
#                 COOL_DEFAULT_KERNEL)
#   --jobs N      kunit.py --jobs (env JOBS, default nproc+1)
#   --timeout S   kunit.py --timeout, seconds for the boot and the suite (env
#                 COOL_KUNIT_TIMEOUT, default 900: TCG, no KVM here; kunit.py's
#                 own default is 300)
# A kernel whose series is empty (as 7.3's was before it landed) has
# no suite: exit 4 with that reason, like a kselftest skip.
# Output: kunit.py's own (KTAP parsed into its summary) on stdout; its raw
# log in $COOL_CACHE/out/<ver>/kunit/test.log.
#
# Exit codes: 0 the suite passed, 1 it failed or did not build, 4 skipped
# (no series for this kernel), 5 bad usage.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

jobs=${JOBS:-} timeout_s=${COOL_KUNIT_TIMEOUT:-900} dry_run=0
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) [ $# -ge 2 ] || usage_error "--kernel needs a value"; select_kernel "$2"; shift ;;
	--kernel=*) select_kernel "${1#*=}" ;;
	--jobs) [ $# -ge 2 ] || usage_error "--jobs needs a value"; jobs=$2; shift ;;
	--jobs=*) jobs=${1#*=} ;;
	--timeout) [ $# -ge 2 ] || usage_error "--timeout needs a value"; timeout_s=$2; shift ;;
	--timeout=*) timeout_s=${1#*=} ;;
	--dry-run) dry_run=1 ;;
	-h | --help) show_help; exit 0 ;;
	*) usage_error "unknown option $1" ;;
	esac
	shift
done
[ -n "$jobs" ] || jobs=$(($(nproc) + 1))
case $jobs in '' | *[!0-9]*) usage_error "--jobs wants a number, got '$jobs'" ;; esac
case $timeout_s in '' | *[!0-9]*) usage_error "--timeout wants a number of seconds, got '$timeout_s'" ;; esac
refuse_user_tree "make kunit"
kunitconfig=$KKUNITCONFIG
build_dir=$OUT_ROOT/kunit
cmd=(tools/testing/kunit/kunit.py run --arch=x86_64 --kunitconfig="$kunitconfig"
	--qemu_args='-smp 2' --build_dir="$build_dir" --jobs="$jobs" --timeout="$timeout_s" --make_options=CC="ccache gcc")

if ! kernel_has_series; then
	echo "kunit: SKIP the $KVER series (${PATCH_DIR#"$REPO_ROOT"/}/) is empty: no $kunitconfig in its tree" >&2
	exit "$E_SKIP"
fi
if [ "$dry_run" = 1 ]; then
	"$REPO_ROOT/scripts/series.sh" --dry-run
	echo "kunit: in $TREE (branch $COOL_BRANCH): ${cmd[*]}"
	exit 0
fi
require_tool python3 python3
require_tool qemu-system-x86_64 qemu-system-x86
"$REPO_ROOT/scripts/series.sh"
[ -f "$TREE/$kunitconfig" ] || die "the $KVER series applied, but $TREE has no $kunitconfig" "the series' KUnit patch adds it"
mkdir -p "$build_dir"
info "kunit: $KVER, ${cmd[*]}"
cd "$TREE"
"${cmd[@]}"
