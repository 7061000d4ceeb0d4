#!/bin/bash
# initramfs.sh - build the guest's gzip cpio initramfs for a scenario.
#
# Usage: qemu-boot/initramfs.sh [--kernel VER] [--scenario NAME] [--tests 'TOKENS']
#                               [--output FILE] [--dry-run] [--help]
#   --kernel VER     7.3 or 6.12 (env KERNEL, default scripts/lib.sh
#                    COOL_DEFAULT_KERNEL)
#   --scenario NAME  (env SCENARIO, default cool)
#   --tests TOKENS   override the scenario's TESTS (env COOL_TESTS)
#   --output FILE    default $COOL_CACHE/out/VER/NAME/initramfs.cpio.gz
#
# Contents (the guest runner's interface, see README.md):
#   /init            mounts proc, sysfs, devtmpfs, debugfs (/sys/kernel/debug),
#                    tmpfs /tmp; sources /scenario.env; with cool.shell=1 on the
#                    kernel command line: interactive shell on the console; else
#                    'sh /selftests/run.sh $TESTS >/dev/ttyS1 2>&1', then
#                    'COOL-EXIT: <rc>' on the console (ttyS0; hvc0 under
#                    Xen) and on /dev/ttyS1, power off.
#   /scenario.env    SCENARIO ARCH SMP MEM TESTS EXPECT BOOT_ARGS KERNEL (sh
#                    syntax), COOL_CONSOLE (the console's tty: ttyS0, or hvc0
#                    for HOST=xen, whose dom0 console is Xen's), COOL_SERIES
#                    (1: the kernel carries the series, 0: a kernel whose
#                    series is still empty, whose guest tokens that need the
#                    series' modules SKIP), COOL_TESTMOD and COOL_KUNIT (the
#                    kernel's test modules: scripts/lib.sh select_kernel;
#                    test_cool_spinlock.ko is the project's, built out of
#                    tree by scripts/build.sh), COOL_IRQWAIT_PARAM,
#                    COOL_IRQWAIT_WAITS and COOL_IRQWAIT_PV (the interrupt-
#                    enabled wait's budget parameter, functions and whether
#                    it runs under pv spinlocks: KIRQWAIT_PARAM,
#                    KIRQWAIT_WAITS, KIRQWAIT_PV), the COOL_SELFTEST_* knobs of the
#                    guest runner when set,
#                    COOL_KNOWN_WARNINGS when the scenario has KNOWN_WARNINGS
#   /modules/*.ko    every module the build of $COOL_CACHE/out/VER/NAME made
#                    (its modules.order and OUT/kmod/'s, the out-of-tree
#                    test module), flat
#   /selftests/      copy of the repo's selftests/guest/
#   /bin/busybox     busybox-static (32-bit one for ARCH=i386, cached in
#                    $COOL_CACHE/i386/), applets installed by /init
#
# Exit codes: 0 written, 1 failure (missing busybox, ...), 5 bad usage.
set -eu
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

scenario=${SCENARIO:-cool} tests_override=${COOL_TESTS:-} output='' dry_run=0
while [ $# -gt 0 ]; do
	case $1 in
	--scenario) [ $# -ge 2 ] || usage_error "--scenario needs a value"; scenario=$2; shift ;;
	--scenario=*) scenario=${1#*=} ;;
	--kernel) [ $# -ge 2 ] || usage_error "--kernel needs a value"; select_kernel "$2"; shift ;;
	--kernel=*) select_kernel "${1#*=}" ;;
	--tests) [ $# -ge 2 ] || usage_error "--tests needs a value"; tests_override=$2; shift ;;
	--tests=*) tests_override=${1#*=} ;;
	--output) [ $# -ge 2 ] || usage_error "--output needs a value"; output=$2; shift ;;
	--output=*) output=${1#*=} ;;
	--dry-run) dry_run=1 ;;
	-h | --help) show_help; exit 0 ;;
	*) usage_error "unknown option $1" ;;
	esac
	shift
done
load_scenario "$scenario"
[ -z "$tests_override" ] || TESTS=$tests_override
[ -n "$output" ] || output=$OUT/initramfs.cpio.gz
guest_dir=$REPO_ROOT/selftests/guest

# busybox for the guest's architecture.
busybox_for_arch() {
	if [ "$ARCH" = x86_64 ]; then
		if [ ! -x /bin/busybox ] || ! file_is_static /bin/busybox; then
			die "no static /bin/busybox" "as root: apt-get install busybox-static"
		fi
		echo /bin/busybox
		return
	fi
	local bb=$COOL_CACHE/i386/busybox
	[ -x "$bb" ] || die "no 32-bit busybox in $bb" "run make setup (scripts/setup.sh), which fetches busybox-static:i386"
	echo "$bb"
}
file_is_static() { ! LC_ALL=C readelf -l "$1" 2>/dev/null | grep -q 'INTERP'; }

# built_modules: the .ko files this build made, NUL-separated: those its
# modules.order and the out-of-tree module's kmod/modules.order name (a
# build dir reused across versions of the series keeps the .ko files of
# modules it no longer builds: the older 6.12 series' in-tree
# lib/test_cool_spinlock.ko once shadowed the project's); every *.ko in
# OUT for a build without modules.order.
built_modules() {
	local order dir f found=0
	for order in "$OUT/modules.order" "$OUT/kmod/modules.order"; do
		[ -r "$order" ] || continue
		found=1
		dir=${order%/modules.order}
		while IFS= read -r f; do
			[ -n "$f" ] || continue
			f=${f%.o}
			f=${f%.ko}.ko
			case $f in /*) ;; *) f=$dir/$f ;; esac
			[ -f "$f" ] && printf '%s\0' "$f"
		done <"$order"
	done
	[ "$found" = 1 ] || find "$OUT" -name '*.ko' -print0 2>/dev/null
}

if [ "$dry_run" = 1 ]; then
	echo "initramfs: $output for $SCENARIO ($ARCH):"
	echo "  /bin/busybox from $([ "$ARCH" = x86_64 ] && echo /bin/busybox || echo "$COOL_CACHE/i386/busybox (busybox-static:i386)")"
	echo "  /modules: $(built_modules | tr -cd '\0' | wc -c) module(s) from $OUT"
	echo "  /selftests: $guest_dir$([ -f "$guest_dir/run.sh" ] || echo ' (MISSING run.sh)')"
	echo "  /scenario.env: KERNEL=$KVER TESTS='$TESTS'$( [ "$USER_TREE" = 1 ] || kernel_has_series || echo " COOL_SERIES=0 (the $KVER series is empty: tokens that need its modules SKIP)")"
	exit 0
fi

require_tool cpio cpio
require_tool gzip gzip
bb=$(busybox_for_arch)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,root,etc,mnt,modules,selftests}
cp "$bb" "$root/bin/busybox"

{
	for v in SCENARIO ARCH SMP MEM TESTS EXPECT BOOT_ARGS KERNEL; do
		printf '%s=%s\n' "$v" "$(shquote "${!v}")"
	done
	# the console's tty: Xen's console (hvc0) for a Xen dom0
	printf 'COOL_CONSOLE=%s\n' "$([ "$HOST" = xen ] && echo hvc0 || echo ttyS0)"
	# the series' modules exist only in a kernel that carries the series
	# (a user's tree must: scripts/tree.sh checks)
	series=1
	[ "$USER_TREE" = 1 ] || kernel_has_series || series=0
	printf 'export COOL_SERIES=%s\n' "$series"
	# which test modules the kernel's series has (scripts/lib.sh select_kernel)
	printf 'export COOL_TESTMOD=%s\n' "$KTESTMOD"
	printf 'export COOL_KUNIT=%s\n' "$(shquote "$KKUNIT")"
	# the interrupt-enabled wait's budget parameter (7.3 spinlock.irqwait_us,
	# 6.12 cool_irqwait) and the functions its tracepoints fire in
	printf 'export COOL_IRQWAIT_PARAM=%s\n' "$(shquote "$KIRQWAIT_PARAM")"
	printf 'export COOL_IRQWAIT_WAITS=%s\n' "$(shquote "$KIRQWAIT_WAITS")"
	printf 'export COOL_IRQWAIT_PV=%s\n' "$(shquote "$KIRQWAIT_PV")"
	# the guest runner's own knobs, when set on the host
	for v in COOL_SELFTEST_ITERATIONS COOL_SELFTEST_IRQWAIT COOL_SELFTEST_IRQWAIT_WAIT; do
		[ -z "${!v:-}" ] || printf 'export %s=%s\n' "$v" "$(shquote "${!v}")"
	done
	# the scenario's STARVE_SHARE, or COOL_SELFTEST_STARVE_SHARE (load_scenario)
	[ -z "${STARVE_SHARE:-}" ] || printf 'export COOL_SELFTEST_STARVE_SHARE=%s\n' "$(shquote "$STARVE_SHARE")"
	# the scenario's KNOWN_WARNINGS, for the guest runner's log checks
	[ -z "${KNOWN_WARNINGS:-}" ] || printf 'export COOL_KNOWN_WARNINGS=%s\n' "$(shquote "$KNOWN_WARNINGS")"
} >"$root/scenario.env"

nmod=0
while IFS= read -r -d '' ko; do
	[ -e "$root/modules/${ko##*/}" ] && warn "two modules named ${ko##*/}; keeping $ko"
	cp "$ko" "$root/modules/"
	nmod=$((nmod + 1))
done < <(built_modules)

if [ -d "$guest_dir" ]; then
	cp -a "$guest_dir/." "$root/selftests/"
fi

# /bin/lockload for the workload token: a static 64-bit binary, built once
# per version of its source and kept in the cache.
case " $TESTS " in
*' workload'*)
	if [ "$ARCH" = x86_64 ]; then
		src=$guest_dir/lockload.c
		lockload=$COOL_CACHE/lockload/lockload-$(hash_stdin < "$src" | cut -c1-12)
		if [ ! -x "$lockload" ]; then
			mkdir -p "${lockload%/*}"
			# a private temporary name: parallel boots (make bench) build it at once
			gcc -static -O2 -o "$lockload.$$.tmp" "$src" ||
				die "could not build $src" "gcc -static needs libc6-dev (make setup)"
			mv -f "$lockload.$$.tmp" "$lockload"
		fi
		cp "$lockload" "$root/bin/lockload"
	fi
	;;
esac
[ -f "$root/selftests/run.sh" ] || warn "no selftests/guest/run.sh: the guest will report COOL-EXIT: 127"

cat >"$root/init" <<'INIT'
#!/bin/busybox sh
# /init - cool-spinlock guest init, generated by qemu-boot/initramfs.sh
/bin/busybox --install -s
export PATH=/sbin:/bin:/usr/sbin:/usr/bin HOME=/root
mount -t devtmpfs devtmpfs /dev
exec 0</dev/console 1>/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t debugfs debugfs /sys/kernel/debug || echo "cool-init: no debugfs"
mount -t tmpfs tmpfs /tmp
. /scenario.env
export SCENARIO ARCH SMP MEM TESTS EXPECT BOOT_ARGS KERNEL

# Report on the console and the runner's port, then end QEMU.  tinyconfig
# has no ACPI, so poweroff would only halt: use reboot there, QEMU runs with
# -no-reboot.  A Xen dom0 powers off through Xen (ACPI S5).
finish() {
	echo "COOL-EXIT: $1" >/dev/ttyS1
	echo "COOL-EXIT: $1" >"/dev/${COOL_CONSOLE:-ttyS0}"
	sync
	[ -d /sys/firmware/acpi ] && poweroff -f
	reboot -f
	sleep 10
	echo b >/proc/sysrq-trigger
}

case " $(cat /proc/cmdline) " in
*" cool.shell=1 "*)
	echo "cool-init: kernel $KERNEL, scenario $SCENARIO, modules in /modules, runner: sh /selftests/run.sh $TESTS"
	echo "cool-init: exit the shell to power off (QEMU: Ctrl-A x to kill)"
	setsid cttyhack sh -l || sh -l
	finish 0
	;;
esac

stty -F /dev/ttyS1 -opost 2>/dev/null
echo "cool-init: running sh /selftests/run.sh $TESTS (output on ttyS1)"
echo "cool-init: start of tests" >/dev/kmsg
if [ -f /selftests/run.sh ]; then
	cd /selftests && sh /selftests/run.sh $TESTS >/dev/ttyS1 2>&1
	rc=$?
	cd /
else
	echo "Bail out! /selftests/run.sh missing" >/dev/ttyS1
	rc=127
fi
echo "cool-init: end of tests, rc=$rc" >/dev/kmsg
finish "$rc"
INIT
chmod 755 "$root/init"

mkdir -p "$(dirname "$output")"
(cd "$root" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc -R 0:0 --quiet) | gzip -6 >"$tmp/initramfs.cpio.gz"
mv "$tmp/initramfs.cpio.gz" "$output"
info "initramfs: $output ($(du -k "$output" | cut -f1) KiB, $nmod module(s), TESTS='$TESTS')"
