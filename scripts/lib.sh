#!/bin/bash
# lib.sh - shared helpers for the cool-spinlock harness.  Source it, do not run it:
#   . "$(dirname "$0")/../scripts/lib.sh"
#
# Kernels: the harness builds Debian's kernel trees of COOL_KERNELS, one
# at a time: KERNEL=VER (make KERNEL=VER, the environment, or a script's
# --kernel VER; the command line beats the environment beats
# COOL_DEFAULT_KERNEL) selects one (select_kernel), and every path below
# is that kernel's. A script that selects one exports KERNEL, so the
# scripts it runs build the same kernel.
# Paths (environment overrides the default):
#   COOL_CACHE  cache root                   default: $HOME/.cache/cool-spinlock
#   COOL_TREE   kernel source tree (git)     default: $COOL_CACHE/src/linux-source-<ver>
#               Any other path is a user's tree (USER_TREE=1): it is built
#               as it stands, out of tree (O=), and never checked out,
#               committed to or cleaned; it must already carry the series
#               and be a tree of the selected kernel.
#   OUT         per-scenario build dir       $COOL_CACHE/out/<ver>/<scenario>  (set by load_scenario)
#   results     per-run results              <repo>/results/<UTC date-time>/<ver>-<scenario>/
#   COOL_PATCH_DIR  the series               default: <repo>/patches for COOL_MAIN_KERNEL
#               (the series make send mails), <repo>/patches/<ver> for the others
#               (the backports)
#   VARIANT_DIR variants of the series       <repo>/qemu-boot/variants/<name>/*.patch
#               on the 7.3 series, variants/<name>/<ver>/*.patch on the series
#               of kernel <ver> (variant_patch_dir), as patches/ and patches/<ver>/
#               (not part of the series: rival designs for make bench,
#               deliberately wrong kernels for negative tests), applied on
#               branch cool in the worktree $COOL_CACHE/src/linux-source-<ver>+<name>
#   packages    a kernel the host's release does not carry (7.3) is fetched by
#               scripts/fetch-kernel.sh into $COOL_CACHE/pkg/<package>/ with a
#               private apt state in $COOL_CACHE/apt/<suite>/
# Scenario data: qemu-boot/scenarios/<name>.conf (see load_scenario).
# Exit code used by die: 1 unless given (die_rc CODE ...).

# shellcheck disable=SC2034  # variables are used by the scripts that source this
REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
COOL_CACHE=${COOL_CACHE:-$HOME/.cache/cool-spinlock}
SCENARIO_DIR=$REPO_ROOT/qemu-boot/scenarios
CONFIG_DIR=$REPO_ROOT/qemu-boot/configs
VARIANT_DIR=$REPO_ROOT/qemu-boot/variants
# The Xen hypervisor of the HOST=xen scenarios: Debian's package, fetched
# with apt-get download and unpacked (never installed) by scripts/setup.sh
# into $COOL_CACHE/xen/; XEN_IMAGE is its gunzipped multiboot ELF, what
# QEMU's -kernel loads.
XEN_PKG=xen-hypervisor-4.17-amd64
XEN_IMAGE=$COOL_CACHE/xen/xen-4.17-amd64
BASE_BRANCH=base
COOL_BRANCH=cool
PROG=${PROG:-$(basename "$0")}

# The kernels, newest first.
COOL_KERNELS="7.3 6.12"
# The kernel of patches/ (the series make send mails); the series of every
# other kernel, its backport, is patches/<ver>/.
COOL_MAIN_KERNEL=7.3
# The kernel when none is asked for: the series proper's.
COOL_DEFAULT_KERNEL=7.3
# The kernel asked for (make KERNEL=, environment), before any default.
KERNEL_ASKED=${KERNEL:-}

# Exit codes shared by the scripts (each script documents the ones it uses).
# 0, 1 and 4 mean what they mean to kselftest (pass, fail, skip); kselftest
# has no 2, 3, 5, 6 or 7 of its own (its 2 and 3, xfail and xpass, are not
# used here).  The table is in docs/harness.md.
readonly E_OK=0 E_FAIL=1 E_BADNESS=2 E_HANG=3 E_SKIP=4 E_USAGE=5 E_QEMU=6 E_SETUP=7

# Messages go to stderr so stdout stays machine-readable (KTAP).
info() { printf '[cool] %s\n' "$*" >&2; }
warn() { printf '[cool] warning: %s\n' "$*" >&2; }

# die MESSAGE [HINT]  - one-line error, optional one-line hint, exit 1.
die() { die_rc 1 "$@"; }
# die_rc CODE MESSAGE [HINT]
die_rc() {
	local rc=$1
	shift
	printf '%s: error: %s\n' "$PROG" "$1" >&2
	if [ $# -gt 1 ] && [ -n "$2" ]; then
		printf '%s: hint: %s\n' "$PROG" "$2" >&2
	fi
	exit "$rc"
}
usage_error() { die_rc "$E_USAGE" "$1" "run '$PROG --help' for usage"; }
# no_options "$@": for a script that takes only --help.
no_options() {
	case ${1:-} in
	-h | --help) show_help; exit 0 ;;
	'') ;;
	*) usage_error "unknown option $1" ;;
	esac
}
# show_help: print the calling script's --help, its header comment (line 2
# up to its 'set -' line) without the '# '.
show_help() { sed -n '2,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

# require_tool TOOL PACKAGE
require_tool() {
	command -v "$1" >/dev/null 2>&1 ||
		die "missing tool $1: apt-get install $2" "or run 'make setup' (as root it installs everything)"
}

is_tty() { [ -t 2 ]; }

# status LINE - one updating status line on a tty (stderr), nothing otherwise.
status() {
	is_tty || return 0
	local cols=${COLUMNS:-}
	[ -n "$cols" ] || cols=$(tput cols 2>/dev/null || echo 100)
	printf '\r\033[K%s' "${1:0:$((cols - 1))}" >&2
}
status_done() { is_tty && printf '\r\033[K' >&2; return 0; }

# Short hash of stdin.
hash_stdin() { sha256sum | cut -d' ' -f1; }

# select_kernel VER: make VER the kernel every path below is for. Sets
# KVER, KPKG and KCFGPKG (Debian's source and config packages), KTARBALL
# (the tarball of KPKG), KCONFIG_DIR (the configs of KCFGPKG), KPKG_VERSION
# (the version of KPKG the harness fetches; empty for a package of the
# host's release), KFETCH_SUITE (the suite scripts/fetch-kernel.sh fetches
# both packages from; empty: make setup installs them on the host),
# KLLVM (make LLVM= value of scenarios with LLVM=1: 1 is the host's clang,
# -19 clang-19, for a kernel that wants a newer clang than Debian 12's
# default 14), KTESTMOD (1: the kernel has test_cool_spinlock.ko, the
# guest runner's COOL_TESTMOD), KTESTMOD_SRC (where that module's source
# is when the project builds it out of tree, scripts/build.sh),
# KIRQWAIT_PARAM (the interrupt-enabled wait's budget on the command line,
# us), KIRQWAIT_PV (on: the wait runs under paravirt spinlocks too; off:
# not, as both series do) and KIRQWAIT_WAITS (the
# functions whose stacks lock:contention_begin of that wait has, spinlock
# then write lock: the guest runner's tracepoint token), HARNESS_TREE,
# TREE, USER_TREE,
# PATCH_DIR, OUT_ROOT (the build dirs' parent), and exports KERNEL=VER.
# A kernel not in COOL_KERNELS is a usage error.
select_kernel() {
	case " $COOL_KERNELS " in
	*" ${1:-none} "*) ;;
	*) die_rc "$E_USAGE" "unknown kernel '${1:-}'" "kernels: $COOL_KERNELS (make KERNEL=<one of them>, or --kernel)" ;;
	esac
	KVER=$1
	KPKG=linux-source-$1 KCFGPKG=linux-config-$1
	case $1 in
	6.12)
		# Debian 12's own bookworm kernel: make setup installs the packages
		KFETCH_SUITE='' KPKG_VERSION=''
		KTARBALL=/usr/src/$KPKG.tar.xz KCONFIG_DIR=/usr/src/$KCFGPKG
		KLLVM=1 ;;
	7.3)
		# Debian 13's backports (arch all): fetched into the cache
		KFETCH_SUITE=trixie-backports KPKG_VERSION='7.3.4-1~bpo13+1'
		KTARBALL=$COOL_CACHE/pkg/$KPKG/usr/src/$KPKG.tar.xz
		KCONFIG_DIR=$COOL_CACHE/pkg/$KCFGPKG/usr/src/$KCFGPKG
		# 7.3 wants clang >= 17 (Documentation/process/changes.rst)
		KLLVM=-19 ;;
	esac
	# Both series (7.3 and its 6.12 backport) carry KUnit suites and
	# locktorture cases only; the project builds test_cool_spinlock.ko
	# out of tree (selftests/kmod)
	KTESTMOD=1 KTESTMOD_SRC=$REPO_ROOT/selftests/kmod
	KKUNIT='spinlock_kunit:spinlock_api irqwait_kunit:spinlock_irqwait'
	KKUNITCONFIG=arch/x86/lib/cool_spinlock.kunitconfig
	KIRQWAIT_PARAM=spinlock.irqwait_us
	KIRQWAIT_PV=off
	KIRQWAIT_WAITS='queued_spin_lock_irqwait_slowpath queued_write_lock_irqwait_slowpath'
	HARNESS_TREE=$COOL_CACHE/src/$KPKG
	TREE=${COOL_TREE:-$HARNESS_TREE}
	USER_TREE=0
	[ "$TREE" = "$HARNESS_TREE" ] || USER_TREE=1
	if [ "$1" = "$COOL_MAIN_KERNEL" ]; then
		PATCH_DIR=${COOL_PATCH_DIR:-$REPO_ROOT/patches}
	else
		PATCH_DIR=${COOL_PATCH_DIR:-$REPO_ROOT/patches/$1}
	fi
	OUT_ROOT=$COOL_CACHE/out/$1
	KERNEL=$1
	export KERNEL
}

# kpkg_version: the Debian version of the selected kernel's source package
# (installed on the host, or the one scripts/fetch-kernel.sh unpacked).
kpkg_version() {
	if [ -n "$KFETCH_SUITE" ]; then
		cat "$COOL_CACHE/pkg/$KPKG.version" 2>/dev/null || echo unknown
	else
		dpkg-query -W -f='${Version}' "$KPKG" 2>/dev/null || echo unknown
	fi
}

# kernel_has_series: the selected kernel's series holds patches (patches/
# or patches/<ver>/, cover letter excluded).
kernel_has_series() { [ -n "$(series_patches | head -n 1)" ]; }

# Base tag of the tree, from its Makefile: v6.12.118-debian
kernel_version() {
	awk -F' = ' '/^VERSION =/{v=$2} /^PATCHLEVEL =/{p=$2} /^SUBLEVEL =/{s=$2}
		END{ if (v != "") printf "%s.%s.%s\n", v, p, s }' "$1/Makefile"
}
# base_tag: the tag of the pristine tree (v<version>-debian); before the
# tree is made (a dry run on a fresh cache), the kernel's own name.
base_tag() {
	if [ -f "$TREE/Makefile" ]; then
		printf 'v%s-debian\n' "$(kernel_version "$TREE")"
	else
		printf 'v%s.x-debian (tree not made yet)\n' "$KVER"
	fi
}

tree_git() { git -C "$TREE" "$@"; }

# git with an identity, for am/commit in the tree when the user has none.
tree_git_id() {
	if [ -n "$(git -C "$TREE" config user.email 2>/dev/null || true)" ]; then
		git -C "$TREE" "$@"
	else
		git -C "$TREE" -c user.name="cool harness" -c user.email="cool@localhost" "$@"
	fi
}

list_scenarios() {
	local f
	for f in "$SCENARIO_DIR"/*.conf; do
		[ -e "$f" ] && basename "$f" .conf
	done
	return 0
}

# load_scenario NAME - source qemu-boot/scenarios/NAME.conf and apply defaults,
# for the selected kernel (select_kernel); a scenario whose KERNELS do not
# hold that kernel is a usage error (exit 5), with the scenario's KERNELS_WHY.
# Sets: SCENARIO ARCH BASE FRAGMENTS SMP MEM TIMEOUT BOOT_ARGS TESTS EXPECT
#       EXPECT_RC EXPECT_HANG_TOKEN EXPECT_FAIL CONSOLE_EXPECT BUILD KCSAN_SCOPE
#       (TESTS and EXPECT_FAIL from TESTS_<ver> and EXPECT_FAIL_<ver> when set)
#       KNOWN_WARNINGS HYPERVISOR BOOT_SECONDS ICOUNT STARVE_SHARE VARIANT HOST
#       HOST_ARGS HOST_CPUS KERNELS KERNELS_WHY OUT QEMU_BIN
#       KARCH (kernel ARCH= value); with VARIANT, TREE is that variant's
#       worktree (variant_tree).
# Environment overrides of the data: COOL_SMP COOL_MEM COOL_TIMEOUT
# COOL_BOOT_ARGS COOL_TESTS COOL_HYPERVISOR COOL_ICOUNT
# COOL_SELFTEST_STARVE_SHARE COOL_HOST (xen, or native: a HOST=xen
# scenario's kernel booted without Xen) COOL_HOST_CPUS COOL_HOST_ARGS
# COOL_BUILD (the build dir's name: boot another build, as make
# check-bisect's per-patch builds, with the scenario's machine)
# (prefixed so a stray ARCH=arm64 in a kernel developer's environment
# cannot change a scenario).
load_scenario() {
	local name=$1 f k
	case $name in
	'' | *[!A-Za-z0-9_.-]*) die_rc "$E_USAGE" "bad scenario name '$name'" "scenarios: $(list_scenarios | tr '\n' ' ')" ;;
	esac
	f=$SCENARIO_DIR/$name.conf
	[ -f "$f" ] || die_rc "$E_USAGE" "unknown scenario '$name' (no $f)" "scenarios: $(list_scenarios | tr '\n' ' ')"
	# the selected kernel's paths again (a VARIANT of the last scenario
	# loaded changed TREE)
	select_kernel "$KVER"
	ARCH=x86_64 BASE=tinyconfig FRAGMENTS='' SMP=4 MEM=1G TIMEOUT='' BOOT_ARGS='' TESTS='' EXPECT=''
	EXPECT_RC=0 EXPECT_HANG_TOKEN='' EXPECT_FAIL='' CONSOLE_EXPECT='' BUILD='' KCSAN_SCOPE='' KNOWN_WARNINGS='' HYPERVISOR=0 BOOT_SECONDS=30
	ICOUNT=0 STARVE_SHARE='' LLVM=0 VARIANT='' HOST='' HOST_ARGS='' HOST_CPUS=2 KERNELS=$COOL_KERNELS KERNELS_WHY=''
	TESTS_6_12='' TESTS_7_3='' EXPECT_FAIL_6_12='' EXPECT_FAIL_7_3=''
	# shellcheck disable=SC1090
	. "$f"
	SCENARIO=$name
	# TESTS_<kernel, dots as _>, EXPECT_FAIL_<kernel>: the scenario's
	# tokens and expected failures on that kernel. A scenario file that
	# sets TESTS and no TESTS_<kernel> of its own runs its TESTS on every
	# kernel: the TESTS_<kernel> of a scenario it sources (cool.conf's)
	# replaced that scenario's TESTS, not its own.
	k=TESTS_${KVER//./_}
	if [ -n "${!k:-}" ] && { ! grep -q '^TESTS=' "$f" || grep -q "^$k=" "$f"; }; then
		TESTS=${!k}
	fi
	k=EXPECT_FAIL_${KVER//./_}
	[ -z "${!k:-}" ] || EXPECT_FAIL=${!k}
	for k in $KERNELS; do
		case " $COOL_KERNELS " in *" $k "*) ;; *) die_rc "$E_USAGE" "scenario $name: KERNELS='$KERNELS' names an unknown kernel '$k'" "kernels: $COOL_KERNELS" ;; esac
	done
	case " $KERNELS " in
	*" $KVER "*) ;;
	*) die_rc "$E_USAGE" "scenario $name does not apply to kernel $KVER (its KERNELS: $KERNELS)${KERNELS_WHY:+: $KERNELS_WHY}" \
		"run it with KERNEL=${KERNELS%% *} (make KERNEL=${KERNELS%% *} SCENARIO=$name), or pick another scenario ('make help' lists each one's kernels)" ;;
	esac
	SMP=${COOL_SMP:-$SMP}
	MEM=${COOL_MEM:-$MEM}
	TIMEOUT=${COOL_TIMEOUT:-$TIMEOUT}
	BOOT_ARGS=${COOL_BOOT_ARGS:-$BOOT_ARGS}
	TESTS=${COOL_TESTS:-$TESTS}
	BUILD=${COOL_BUILD:-$BUILD}
	HYPERVISOR=${COOL_HYPERVISOR:-$HYPERVISOR}
	case $HYPERVISOR in 0 | 1) ;; *) die_rc "$E_USAGE" "scenario $name: HYPERVISOR='$HYPERVISOR' is not 0 or 1" ;; esac
	ICOUNT=${COOL_ICOUNT:-$ICOUNT}
	case $ICOUNT in 0 | 1) ;; *) die_rc "$E_USAGE" "scenario $name: ICOUNT='$ICOUNT' is not 0 or 1" ;; esac
	STARVE_SHARE=${COOL_SELFTEST_STARVE_SHARE:-$STARVE_SHARE}
	# COOL_HOST=native boots a HOST=xen scenario's kernel on QEMU itself,
	# without the console lines the scenario expects from Xen
	case ${COOL_HOST:-} in '') ;; native) HOST='' HOST_ARGS='' CONSOLE_EXPECT='' ;; xen) HOST=xen ;;
	*) die_rc "$E_USAGE" "COOL_HOST='$COOL_HOST' is not native or xen" ;; esac
	HOST_CPUS=${COOL_HOST_CPUS:-$HOST_CPUS}
	[ -z "$HOST" ] || HOST_ARGS=${COOL_HOST_ARGS:-$HOST_ARGS}
	case $HOST_CPUS in '' | *[!0-9]* | 0) die_rc "$E_USAGE" "scenario $name: HOST_CPUS='$HOST_CPUS' is not a positive number" ;; esac
	# LLVM=1: the kernel's clang (KLLVM, select_kernel: make LLVM=1 on
	# 6.12, make LLVM=-19 on 7.3, whose minimum clang is newer than Debian
	# 12's default 14); LLVM=-19: make LLVM=-19 (clang-19, ld.lld-19,
	# llvm-*-19, Debian's versioned packages) on any kernel; LLVM_SUFFIX
	# is the -19; scenario data only, so that a scenario's build dir holds
	# one compiler's objects
	LLVM_SUFFIX=''
	case $LLVM in
	0) KMAKE_LLVM=() ;;
	1) KMAKE_LLVM=("LLVM=$KLLVM"); [ "$KLLVM" = 1 ] || LLVM_SUFFIX=$KLLVM ;;
	-[1-9] | -[1-9][0-9]) KMAKE_LLVM=("LLVM=$LLVM") LLVM_SUFFIX=$LLVM ;;
	*) die_rc "$E_USAGE" "scenario $name: LLVM='$LLVM' is not 0, 1 or -VERSION (as -19)" ;;
	esac
	case $STARVE_SHARE in *[!0-9]*) die_rc "$E_USAGE" "scenario $name: STARVE_SHARE='$STARVE_SHARE' is not a number" ;; esac
	case $ARCH in
	x86_64) KARCH=x86 QEMU_BIN=qemu-system-x86_64 ;; # ARCH=x86 + CONFIG_64BIT=y fragment, as a plain "make tinyconfig" on an x86 host
	i386) KARCH=i386 QEMU_BIN=qemu-system-i386 ;;
	*) die_rc "$E_USAGE" "scenario $name: unsupported ARCH='$ARCH'" "use x86_64 or i386" ;;
	esac
	case $BASE in
	tinyconfig | defconfig) ;;
	debian-*) [ "$ARCH" = x86_64 ] || die_rc "$E_USAGE" "scenario $name: BASE=$BASE needs ARCH=x86_64" ;;
	*) die_rc "$E_USAGE" "scenario $name: unsupported BASE='$BASE'" "use tinyconfig, defconfig or debian-<flavour> ($KCFGPKG)" ;;
	esac
	case $TIMEOUT in *[!0-9]*) die_rc "$E_USAGE" "scenario $name: TIMEOUT='$TIMEOUT' is not a number of seconds" ;; esac
	case $BOOT_SECONDS in '' | *[!0-9]*) die_rc "$E_USAGE" "scenario $name: BOOT_SECONDS='$BOOT_SECONDS' is not a number of seconds" ;; esac
	case " $EXPECT_RC " in *' '*[!0-9\ ]*) die_rc "$E_USAGE" "scenario $name: EXPECT_RC='$EXPECT_RC' is not a list of boot.sh exit codes" ;; esac
	case $BUILD in *[!A-Za-z0-9_.-]*) die_rc "$E_USAGE" "scenario $name: bad BUILD='$BUILD'" ;; esac
	[ -z "$EXPECT_FAIL" ] || [ "$EXPECT_RC" != 0 ] || die_rc "$E_USAGE" "scenario $name: EXPECT_FAIL needs an EXPECT_RC other than 0"
	# HOST=xen: QEMU boots the Xen hypervisor, the kernel is its PV dom0
	case $HOST in '' | xen) ;; *) die_rc "$E_USAGE" "scenario $name: HOST='$HOST' is not empty or xen" ;; esac
	[ "$HOST" = xen ] || [ -z "$HOST_ARGS" ] || die_rc "$E_USAGE" "scenario $name: HOST_ARGS without HOST=xen"
	case $SMP in '' | *[!0-9]* | 0) die_rc "$E_USAGE" "scenario $name: SMP='$SMP' is not a positive number" ;; esac
	[ "$HOST" != xen ] || [ "$ARCH" = x86_64 ] || die_rc "$E_USAGE" "scenario $name: HOST=xen needs ARCH=x86_64 (Xen PV dom0 is 64-bit only)"
	if [ -n "$VARIANT" ]; then
		[ -d "$VARIANT_DIR/$VARIANT" ] || die_rc "$E_USAGE" "scenario $name: VARIANT=$VARIANT has no $VARIANT_DIR/$VARIANT"
		[ "$USER_TREE" = 0 ] || die_rc "$E_USAGE" "scenario $name is a variant of the series (VARIANT=$VARIANT): it builds the harness's tree only" "unset COOL_TREE"
		TREE=$(variant_tree "$VARIANT")
	fi
	OUT=$OUT_ROOT/${BUILD:-$name}
	# a user's tree gets build dirs of its own, named after its path
	[ "$USER_TREE" = 0 ] || OUT=$COOL_CACHE/out-tree-$(printf '%s' "$(cd "$TREE" 2>/dev/null && pwd || echo "$TREE")" | hash_stdin | cut -c1-12)/${BUILD:-$name}
}

# subject_prefix: the [PREFIX nn/mm] of the selected kernel's series:
# "RFC PATCH" for the main kernel's, "RFC PATCH <ver>" for a backport,
# as stable backports name their kernel.
subject_prefix() {
	if [ "$KVER" = "$COOL_MAIN_KERNEL" ]; then
		echo "RFC PATCH"
	else
		echo "RFC PATCH $KVER"
	fi
}

# variant_patch_dir NAME: where variant NAME's patches on the selected
# kernel's series are: qemu-boot/variants/NAME/ for COOL_MAIN_KERNEL (as
# patches/), qemu-boot/variants/NAME/<ver>/ for the others.
variant_patch_dir() {
	if [ "$KVER" = "$COOL_MAIN_KERNEL" ]; then
		printf '%s/%s\n' "$VARIANT_DIR" "$1"
	else
		printf '%s/%s/%s\n' "$VARIANT_DIR" "$1" "$KVER"
	fi
}
# variant_has_patches NAME: variant NAME has patches for the selected kernel.
variant_has_patches() { ls "$(variant_patch_dir "$1")"/[0-9]*.patch >/dev/null 2>&1; }

# variant_tree NAME: the worktree of variant NAME (scripts/series.sh --variant)
variant_tree() { printf '%s+%s\n' "$HARNESS_TREE" "$1"; }

# user_tree_check: for a user's tree (COOL_TREE), die unless it is a kernel
# tree that carries the series and can be built with O= as it stands.
# Reads only: the harness never moves, commits to or cleans a user's tree.
user_tree_check() {
	if [ ! -f "$TREE/Makefile" ] || [ ! -d "$TREE/arch/x86" ]; then
		die "COOL_TREE=$TREE is not a kernel source tree" "point COOL_TREE at the top of a kernel tree, or unset it for the harness's own tree"
	fi
	local v
	v=$(kernel_version "$TREE")
	case $v in
	"$KVER".*) ;;
	*) die "COOL_TREE=$TREE is Linux $v, not kernel $KVER" "set KERNEL to its version (make KERNEL=${v%.*} ...), one of: $COOL_KERNELS" ;;
	esac
	if ! grep -q '^config COOL_SPINLOCK$' "$TREE/arch/x86/Kconfig" 2>/dev/null; then
		die "COOL_TREE=$TREE does not carry the series (no CONFIG_COOL_SPINLOCK in arch/x86/Kconfig)" \
			"apply it there yourself (git -C $TREE am $PATCH_DIR/0*.patch, cover letter excluded); the harness never changes your tree"
	fi
	if [ -f "$TREE/.config" ] || [ -d "$TREE/include/config" ]; then
		die "COOL_TREE=$TREE has an in-tree build (.config or include/config): the kernel refuses O= builds from it" \
			"the harness never cleans your tree: run 'make mrproper' there yourself, or use a clean worktree"
	fi
}

# refuse_user_tree WHAT: WHAT works on the harness's own tree only.
refuse_user_tree() {
	[ "$USER_TREE" = 0 ] ||
		die "$1 works on the harness's tree ($HARNESS_TREE), not on COOL_TREE=$TREE" "unset COOL_TREE for $1"
}

# Absolute paths of the scenario's fragments, each followed by its
# companion for the selected kernel when there is one: the fragment of the
# same name in qemu-boot/configs/<ver>/ (configs/6.12/base.config after
# base.config), so that what differs between kernels is data, not code.
# Dies if a fragment is missing.
fragment_paths() {
	local f
	for f in $FRAGMENTS; do
		[ -f "$REPO_ROOT/$f" ] || die "scenario $SCENARIO: fragment $f does not exist" "fix FRAGMENTS in $SCENARIO_DIR/$SCENARIO.conf"
		printf '%s\n' "$REPO_ROOT/$f"
		[ ! -f "$CONFIG_DIR/$KVER/${f##*/}" ] || printf '%s\n' "$CONFIG_DIR/$KVER/${f##*/}"
	done
}

# scenario_wants_cool: the loaded scenario asks for COOL on (the last
# CONFIG_COOL_SPINLOCK line of its fragments is =y), so it has nothing to
# build on a kernel whose series is empty.
scenario_wants_cool() {
	local f line last=''
	while IFS= read -r f; do
		line=$(grep -E '^(# )?CONFIG_COOL_SPINLOCK( is not set|=)' "$f" | tail -n 1 || true)
		[ -z "$line" ] || last=$line
	done < <(fragment_paths)
	[ "$last" = CONFIG_COOL_SPINLOCK=y ]
}

# out_migrate: a build dir of the layout before kernels had build dirs of
# their own ($COOL_CACHE/out/<build>, all 6.12) moves to
# $COOL_CACHE/out/6.12/<build> the first time it is wanted, so that it
# stays incremental (kbuild's objects name the source tree by its
# absolute path and the build dir by relative ones).
out_migrate() {
	local old=$COOL_CACHE/out/${OUT##*/}
	[ "$KVER" = 6.12 ] && [ "$USER_TREE" = 0 ] && [ "$OUT" = "$OUT_ROOT/${OUT##*/}" ] || return 0
	[ ! -e "$OUT" ] && [ -f "$old/.config" ] || return 0
	info "moving the 6.12 build dir $old to $OUT (build dirs are per kernel now)"
	mkdir -p "$OUT_ROOT"
	mv "$old" "$OUT"
}

# UTC stamp used for results/<stamp>/
run_stamp() { date -u +%Y%m%dT%H%M%SZ; }
default_results_dir() { printf '%s/results/%s/%s\n' "$REPO_ROOT" "${COOL_RUN_STAMP:-$(run_stamp)}" "$1"; }
# run_name [SCENARIO]: a scenario's name in results and KTAP: <ver>-<scenario>
# (7.3-stock), for the selected kernel.
run_name() { printf '%s-%s\n' "$KVER" "${1:-$SCENARIO}"; }

# pick_accel QEMU BZIMAGE - print kvm or tcg.  COOL_ACCEL=kvm|tcg forces.
# /dev/kvm can exist and even start SeaBIOS, yet hang once the kernel runs
# (seen on nested hosts), so the probe boots the real kernel without initrd
# and wants "Linux version" on the serial port within 15 s.  The answer is
# cached per host boot in $COOL_CACHE/accel.<qemu>.<boot_id>.
pick_accel() {
	local qemu=$1 kernel=$2 cache boot_id log pid i ans=tcg
	case ${COOL_ACCEL:-auto} in
	kvm | tcg) echo "$COOL_ACCEL"; return ;;
	esac
	boot_id=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo unknown)
	cache=$COOL_CACHE/accel.$qemu.$boot_id
	if [ -s "$cache" ]; then cat "$cache"; return; fi
	if [ -r /dev/kvm ] && [ -w /dev/kvm ] && [ -f "$kernel" ]; then
		log=$(mktemp)
		"$qemu" -accel kvm -m 256M -nodefaults -display none -no-reboot \
			-serial "file:$log" -kernel "$kernel" -append "console=ttyS0 panic=-1" \
			>/dev/null 2>&1 &
		pid=$!
		for i in $(seq 75); do
			if grep -aq 'Linux version' "$log"; then ans=kvm; break; fi
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.2
		done
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		rm -f "$log"
	fi
	mkdir -p "$COOL_CACHE"
	echo "$ans" >"$cache"
	echo "$ans"
}

# Single-quote a value for a POSIX sh file.
shquote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

# series_patches: the patches of the series in order, cover letter excluded,
# one path a line.
series_patches() {
	local p
	for p in "$PATCH_DIR"/[0-9]*.patch; do
		[ -e "$p" ] || continue
		case ${p##*/} in 0000-*) continue ;; esac
		printf '%s\n' "$p"
	done
}

# patches_tree: the tree object (12 hex digits) the selected kernel's series
# gives on its base tag, computed from $PATCH_DIR alone: git apply --cached
# of each patch on a private index, as git am would commit them. So a
# report on a fresh cache, before any build made branch cool, names the
# same tree as one on the cache that measured. Empty when the tree is not
# made or a patch does not apply.
patches_tree() {
	local idx p ok=1 memo
	tree_git rev-parse -q --verify "refs/tags/$(base_tag)" > /dev/null 2>&1 || return 0
	# memo: reading the kernel's index and applying takes a minute on a
	# busy host; the answer depends only on the base and the patches
	memo=$TREE/.git/cool-patches-tree-$({ tree_git rev-parse "$(base_tag)"; series_patches | xargs cat; } | sha256sum | cut -c1-16)
	if [ -s "$memo" ]; then cat "$memo"; return 0; fi
	idx=$(mktemp) || return 0
	if GIT_INDEX_FILE=$idx tree_git read-tree "$(base_tag)"; then
		while read -r p; do
			GIT_INDEX_FILE=$idx tree_git apply --cached "$p" 2> /dev/null || { ok=0; break; }
		done < <(series_patches)
		[ "$ok" = 0 ] || GIT_INDEX_FILE=$idx tree_git write-tree | cut -c1-12 > "$idx.tree"
	fi
	[ ! -s "$idx.tree" ] || { cat "$idx.tree"; cp "$idx.tree" "$memo" 2> /dev/null || true; }
	rm -f "$idx" "$idx.tree"
}

# bench_value FILE KEY: the last value of KEY in a bench.txt (key=value lines).
bench_value() { sed -n "s/^$2=//p" "$1" 2>/dev/null | tail -1; }
# bench_sec_kernel FILE SEC: the kernel whose series make bench section SEC
# of FILE measured (bench.sh records SEC.kernel; older files name one
# kernel for all, older still none: 6.12)
bench_sec_kernel() { bench_value "$1" "$2.kernel" | grep . || bench_value "$1" kernel | grep . || echo 6.12; }

# same_code OLD NEW [SEC]: true when the series trees OLD and NEW (git tree
# ids in the kernel tree) are equal or differ in comments, help texts and
# Documentation/ only: outside Documentation/, every added or removed line
# is blank, or a comment line (/* ..., * ..., */ or // ...) of a .c, .h or
# .S file, or a help text line (tab and two spaces) of a Kconfig file. With
# SEC, a make bench section, also outside the files that section's numbers
# do not depend on (bench_ignores). A tree git does not have counts as
# different. So a comment fix keeps the numbers make bench measured
# (scripts/report.sh, scripts/cover-letter.sh).
same_code() {
	local p excl=(':(exclude)Documentation')
	[ -n "$1" ] && [ -n "$2" ] || return 1
	[ "$1" = "$2" ] && return 0
	tree_git cat-file -e "$1^{tree}" 2>/dev/null || return 1
	tree_git cat-file -e "$2^{tree}" 2>/dev/null || return 1
	for p in $(bench_ignores "${3:-}"); do
		excl+=(":(exclude)$p")
	done
	tree_git diff -U0 "$1" "$2" -- . "${excl[@]}" | awk '
		/^diff --git / { kind = $NF ~ /\.[chS]$/ ? "c" : $NF ~ /\/Kconfig[^\/]*$/ ? "kconfig" : "code"; next }
		/^(\+\+\+|---) / { next }
		/^[-+]/ { l = substr($0, 2)
			if (l ~ /^[ \t]*$/) next
			if (kind == "c" && l ~ /^[ \t]*(\/\*|\*\/|\*([ \t]|$)|\/\/)/) next
			if (kind == "kconfig" && l ~ /^\t  /) next
			bad = 1 }
		END { exit bad }'
}

# bench_ignores SEC: the files of the series that make bench section SEC
# does not run: the test module and the KUnit suite (both =m in the bench
# configs, so not in vmlinux) for the sections that measure vmlinux with
# user space (callers), locktorture (scaling, throughput) or no boot at
# all (text). pathlen, irqlat, irqwait, rivals and xen run the test module.
bench_ignores() {
	case $1 in
	callers | text | scaling | throughput | profile)
		echo lib/test_cool_spinlock.c lib/cool_spinlock_kunit.c lib/cool_spinlock_regs.h lib/cool_spinlock.kunitconfig \
			kernel/locking/spinlock_kunit.c kernel/locking/irqwait_kunit.c arch/x86/lib/cool_spinlock.kunitconfig ;;
	esac
}

# profile_lock_insns BENCH_TXT PREFIX: the instructions per acquisition
# of make bench's profile section (keys PREFIX.fn.NAME) in the lock
# functions: stock's _raw_*(), the COOL routines and thunks, the
# qspinlock slowpaths and the wait, and the clocks and pv test it calls.
profile_lock_insns() {
	sed -n "s/^$2\.fn\.\(_raw_\|__cool_\|native_queued_\|__pv_queued_\|__queued_\|queued_\|local_clock\|native_sched_clock\|sched_clock\|pv_is_native\)[^=]*=//p" "$1" |
		awk '{ s += $1 } END { printf "%.1f", s }'
}

# ratio A B: A/B with two decimals, or n/a when either is missing or zero.
ratio() {
	awk -v a="${1:-0}" -v b="${2:-0}" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else print "n/a" }'
}

# callers_stats BENCH_TXT KERNEL WORKLOAD [PREFIX]: "median min max boots
# xmedian xmin xmax" of a workload's instructions per iteration over the
# boots of make bench's callers section (keys PREFIX.KERNEL.WORKLOAD.BOOT,
# PREFIX.iters.WORKLOAD; PREFIX callers, or rivals.callers): the first three
# rounded for display, the last three unrounded, for changes and spreads
# (scripts/report.sh, scripts/cover-letter.sh).
callers_stats() {
	local it pre=${4:-callers}
	it=$(bench_value "$1" "$pre.iters.$3")
	grep "^${pre//./\\.}\.$2\.$3\.[0-9]*=" "$1" | cut -d= -f2 | sort -n | sorted_stats "${it:-1}"
}

# sorted_stats DIV: of the numbers on stdin (ascending, one a line), each
# divided by DIV: "median min max count" rounded, then median, min and max
# with four decimals (callers_stats, repeat_stats).
sorted_stats() {
	awk -v it="$1" '{ v[NR] = $1 / it }
		END { if (NR) { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "%.0f %.0f %.0f %d %.4f %.4f %.4f\n", m, v[1], v[NR], NR, m, v[1], v[NR] } }'
}

# torture_points BENCH_TXT SEC: the vCPU counts of a locktorture section
# (keys SEC.stock.spin_lock.N[.BOOT]), one per line, ascending.
torture_points() {
	sed -n "s/^$2\\.stock\\.spin_lock\\.\\([0-9]*\\)[.=].*/\\1/p" "$1" | sort -nu
}

# repeat_stats BENCH_TXT KEY: "median min max boots" of the values of
# KEY.BOOT (one per boot; a plain KEY, from a run before repeats, counts as
# one boot), rounded (scripts/report.sh).
repeat_stats() {
	grep -E "^${2//./\\.}(\.[0-9]+)?=" "$1" | cut -d= -f2 | sort -n | sorted_stats 1 | cut -d' ' -f1-4
}

# torture_api TYPE: the lock API that locktorture type TYPE (TYPE.reads:
# its readers) measures; its _irq types take the irqsave forms.
torture_api() {
	case $1 in
	spin_lock_irq) echo 'spin_lock_irqsave()' ;;
	rw_lock) echo 'write_lock()' ;;
	rw_lock.reads) echo 'read_lock()' ;;
	rw_lock_irq) echo 'write_lock_irqsave()' ;;
	rw_lock_irq.reads) echo 'read_lock_irqsave()' ;;
	*) echo "$1()" ;;
	esac
}

# torture_keys BENCH_TXT SEC: the keys TYPE (writes) and, for the rwlock
# types, TYPE.reads of a locktorture section's types (SEC.types; runs
# before it recorded them measured spin_lock and spin_lock_irq), one a line.
torture_keys() {
	local t
	for t in $(bench_value "$1" "$2.types" | grep . || echo 'spin_lock spin_lock_irq'); do
		echo "$t"
		case $t in rw_*) echo "$t.reads" ;; esac
	done
}

# ci_compare BENCH_TXT KEY_A KEY_B: how the confidence intervals of the
# medians of KEY_A (cool) and KEY_B (stock) lie: "below" (A's wholly
# below B's), "above", "overlap", or "n/a" when either is missing.
ci_compare() {
	local al ah bl bh
	read -r al ah _ <<<"$(median_ci "$1" "$2")"
	read -r bl bh _ <<<"$(median_ci "$1" "$3")"
	if [ -z "${al:-}" ] || [ -z "${bl:-}" ]; then echo n/a
	elif [ "$ah" -lt "$bl" ]; then echo below
	elif [ "$al" -gt "$bh" ]; then echo above
	else echo overlap; fi
}

# median_ci BENCH_TXT KEY: "lo hi coverage" of the values of KEY.BOOT: the
# distribution-free confidence interval of their median, from order
# statistics (lo the k-th smallest, hi the k-th largest, k the largest
# rank whose binomial tail P(X < k), X ~ B(n, 1/2), is at most 2.5 %;
# k = 1, the min-max range, when no rank is: 5 boots give 93.75 %,
# 10 give [2nd, 9th] at 97.85 %); coverage in percent, one decimal.
median_ci() {
	grep -E "^${2//./\\.}(\.[0-9]+)?=" "$1" | cut -d= -f2 | sort -n | awk '
		{ v[NR] = $1 }
		END {
			if (!NR) exit
			n = NR; k = 1; c = 0.5 ^ n; tail = c
			# tail = P(X <= j - 1) when testing rank j + 1
			for (j = 1; j < n / 2; j++) {
				c = c * (n - j + 1) / j
				if (tail + c > 0.025) break
				tail += c; k = j + 1
			}
			cov = (k == 1) ? 1 - 2 * 0.5 ^ n : 1 - 2 * tail
			printf "%.0f %.0f %.1f\n", v[k], v[n - k + 1], cov * 100
		}'
}

# pct A B: how much A differs from B, in percent of B, signed, two
# decimals; n/a when either is missing or zero.
pct() {
	awk -v a="${1:-0}" -v b="${2:-0}" 'BEGIN { if (a > 0 && b > 0) printf "%+.2f%%", (a - b) * 100 / b; else print "n/a" }'
}

# token_seconds TOKEN: the guest seconds a guest-runner token declares
# (selftests/guest/run.sh), measured under TCG (4 vCPUs) on an idle 2-core
# host, rounded up: the "# time:" lines of a run give today's figures.
token_seconds() {
	local t=$1 secs
	case $t in
	selftest | selftest:-*) echo 150 ;;
	selftest:*) t=${t#selftest:}; echo $((20 * ($(printf '%s' "$t" | tr -cd ',' | wc -c) + 1))) ;;
	negative:*) echo 20 ;;
	locktorture:*)
		secs=$(printf '%s' "$t" | cut -s -d: -f3)
		case $secs in '' | *[!0-9]*) secs=30 ;; esac
		echo $((secs + 15)) ;;
	tracepoint) echo 30 ;;
	lockdep_selftests) echo 5 ;;
	kunit) echo 30 ;;
	lockevents:*) echo 5 ;;
	bench:*) echo 120 ;;
	*) echo 60 ;;
	esac
}

# Host slow-down, in percent (100 = the reference host, idle): the time of
# a fixed CPU loop now against its time on an idle 2-core CI machine
# (COOL_CALIBRATE_REF_MS), never below 100 and never above
# COOL_SLOWDOWN_MAX (default 1000: ten times).  A loaded host runs the
# loop, and a guest, slower.  The cap keeps one unlucky reading (the loop
# at nice 19 beside a build once read 79.76, and the boot's timeout became
# 24 hours) from turning a hung guest into a day-long wait; a host slower
# than the cap may time a healthy boot out, and says so on stderr.
# Prints "SLOWDOWN MEASURED": the value to use and the loop's reading.
COOL_CALIBRATE_REF_MS=${COOL_CALIBRATE_REF_MS:-300}
COOL_SLOWDOWN_MAX=${COOL_SLOWDOWN_MAX:-1000}
# slowdown_factor PERCENT: 237 -> 2.37
slowdown_factor() { printf '%d.%02d' $(($1 / 100)) $(($1 % 100)); }
host_slowdown() {
	local t0 t1 ms pct measured
	case $COOL_SLOWDOWN_MAX in
	'' | *[!0-9]*) die_rc "$E_USAGE" "COOL_SLOWDOWN_MAX='$COOL_SLOWDOWN_MAX' is not a number (percent, at least 100)" ;;
	esac
	[ "$COOL_SLOWDOWN_MAX" -ge 100 ] ||
		die_rc "$E_USAGE" "COOL_SLOWDOWN_MAX=$COOL_SLOWDOWN_MAX is below 100 (the idle reference host)"
	t0=$(date +%s%N)
	awk 'BEGIN { for (i = 0; i < 20000000; i++) s += i * 2 }'
	t1=$(date +%s%N)
	ms=$(((t1 - t0) / 1000000))
	pct=$((ms * 100 / COOL_CALIBRATE_REF_MS))
	measured=$pct
	if [ "$pct" -lt 100 ]; then
		pct=100
	elif [ "$pct" -gt "$COOL_SLOWDOWN_MAX" ]; then
		warn "host slow-down $(slowdown_factor "$pct") is above COOL_SLOWDOWN_MAX ($COOL_SLOWDOWN_MAX): timeouts use the cap; a boot on a host this loaded may time out"
		pct=$COOL_SLOWDOWN_MAX
	fi
	echo "$pct $measured"
}

# scenario_timeout SLOWDOWN: the guest timeout of the loaded scenario when
# it sets none: (BOOT_SECONDS + the tokens' declared seconds) x 3 for
# margin x SLOWDOWN/100, and x 4 under -icount (ICOUNT=1), where one
# thread runs every vCPU: the fairness scenario, declared 90 s, took 378 s
# with 4 vCPUs.  Prints "SECONDS DECLARED".
scenario_timeout() {
	local declared=$BOOT_SECONDS t mult=3
	for t in $TESTS; do declared=$((declared + $(token_seconds "$t"))); done
	[ "${ICOUNT:-0}" != 1 ] || mult=12
	echo "$((declared * mult * $1 / 100)) $declared"
}

select_kernel "${KERNEL_ASKED:-$COOL_DEFAULT_KERNEL}"
