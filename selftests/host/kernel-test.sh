#!/bin/bash
# kernel-test.sh - host-side test of the kernel knob: which kernel a run
# builds, and what each kernel's scenarios, fragments, paths and series are
# (scripts/lib.sh select_kernel, load_scenario, fragment_paths), without
# building or booting anything: --dry-run plans and the library only.
# A change that makes KERNEL= lose against the default, lets a scenario run
# on a kernel it does not apply to, puts a kernel's config companion in the
# wrong place or mixes the kernels' build dirs fails here.  Part of
# 'make host-test'.
#
# Usage: selftests/host/kernel-test.sh [--help]
# Stdout: KTAP, then "N passed, N failed".
# Exit codes: 0 every case passed, 1 a case failed, 5 bad usage.
set -u
# shellcheck source=../../scripts/lib.sh
. "$(dirname "$0")/../../scripts/lib.sh"
no_options "$@"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# a cache of its own: nothing here may touch a real one
export COOL_CACHE=$tmp/cache
unset COOL_TREE COOL_PATCH_DIR

n=0 pass=0 fail=0
echo "KTAP version 1"
# ok_if NAME RC [DIAG]
ok_if() {
	n=$((n + 1))
	if [ "$2" = 0 ]; then
		pass=$((pass + 1)); echo "ok $n $1"
	else
		fail=$((fail + 1)); [ -z "${3:-}" ] || echo "# $3"; echo "not ok $n $1"
	fi
}
# lib CMDS: run CMDS in a shell that sourced lib.sh with env KERNEL as given
lib() { bash -c '. "$1/scripts/lib.sh"; shift; eval "$*"' _ "$REPO_ROOT" "$@" 2>&1; }

# The default, the environment, and a script's option, in that order.
# shellcheck disable=SC2016 # expanded in the shell that sourced lib.sh
got=$(env -u KERNEL bash -c '. "$1/scripts/lib.sh"; echo "$KVER"' _ "$REPO_ROOT")
ok_if default_kernel "$([ "$got" = "$COOL_DEFAULT_KERNEL" ] && echo 0 || echo 1)" "got '$got'"
# shellcheck disable=SC2016 # expanded in the shell that sourced lib.sh
got=$(KERNEL=7.3 lib 'echo "$KVER $KERNEL $HARNESS_TREE $OUT_ROOT $PATCH_DIR"')
ok_if env_kernel_7.3 "$([ "$got" = "7.3 7.3 $COOL_CACHE/src/linux-source-7.3 $COOL_CACHE/out/7.3 $REPO_ROOT/patches" ] && echo 0 || echo 1)" "got '$got'"
# shellcheck disable=SC2016 # expanded in the shell that sourced lib.sh
got=$(KERNEL=6.12 lib 'echo "$KVER $HARNESS_TREE $OUT_ROOT $PATCH_DIR $KTARBALL"')
ok_if env_kernel_6.12 "$([ "$got" = "6.12 $COOL_CACHE/src/linux-source-6.12 $COOL_CACHE/out/6.12 $REPO_ROOT/patches/6.12 /usr/src/linux-source-6.12.tar.xz" ] && echo 0 || echo 1)" "got '$got'"
# test_cool_spinlock.ko: the project builds it out of tree for both
# kernels (scripts/build.sh, after the kernel)
# shellcheck disable=SC2016 # expanded in the shell that sourced lib.sh
got=$(lib 'select_kernel 7.3; echo "$KTESTMOD $KTESTMOD_SRC"; select_kernel 6.12; echo "$KTESTMOD ${KTESTMOD_SRC:-none}"' | tr '\n' ' ')
ok_if test_module_per_kernel "$([ "$got" = "1 $REPO_ROOT/selftests/kmod 1 $REPO_ROOT/selftests/kmod " ] && echo 0 || echo 1)" "got '$got'"
got=$("$REPO_ROOT/scripts/build.sh" --kernel 7.3 --scenario cool --dry-run 2>&1 | grep -c "M=$COOL_CACHE/out/7.3/cool/kmod ")
got6=$("$REPO_ROOT/scripts/build.sh" --kernel 6.12 --scenario cool --dry-run 2>&1 | grep -c "M=$COOL_CACHE/out/6.12/cool/kmod ")
ok_if test_module_build_both "$([ "$got $got6" = "1 1" ] && echo 0 || echo 1)" "7.3: $got M= line(s), 6.12: $got6"
out=$(KERNEL=6.12 "$REPO_ROOT/qemu-boot/boot.sh" --kernel 7.3 --scenario stock --dry-run 2>&1)
echo "$out" | grep -q '^boot: kernel 7.3, scenario stock' && echo "$out" | grep -q "$COOL_CACHE/out/7.3/stock/arch/x86/boot/bzImage"
ok_if option_beats_env "$?" "$(echo "$out" | head -n 2 | tr '\n' ' ')"
# shellcheck disable=SC2016 # expanded in the shell that sourced lib.sh
KERNEL=5.10 bash -c '. "$1/scripts/lib.sh"' _ "$REPO_ROOT" >"$tmp/out" 2>&1
rc=$?
ok_if unknown_kernel_is_usage_error "$([ "$rc" = "$E_USAGE" ] && grep -q "unknown kernel '5.10'" "$tmp/out" && echo 0 || echo 1)" "rc $rc: $(head -n 1 "$tmp/out")"

# A scenario on a kernel it does not apply to: usage error, with its reason.
"$REPO_ROOT/selftests/run.sh" --scenario 7.3:preempt-none --dry-run >"$tmp/out" 2>&1
rc=$?
ok_if scenario_kernels_usage_error "$([ "$rc" = "$E_USAGE" ] && grep -q 'does not apply to kernel 7.3 (its KERNELS: 6.12): 7.3 has no PREEMPT_NONE' "$tmp/out" && echo 0 || echo 1)" "rc $rc: $(head -n 1 "$tmp/out")"
"$REPO_ROOT/selftests/run.sh" --scenario 6.12:preempt-lazy --dry-run >"$tmp/out" 2>&1
ok_if scenario_kernels_usage_error_7.3_only "$([ "$?" = "$E_USAGE" ] && echo 0 || echo 1)" "$(head -n 1 "$tmp/out")"

# Per-kernel companions follow their fragment; the 6.12 base keeps its
# preemption lines in the same order as before they moved.
# shellcheck disable=SC2016 # expanded in the shell that sourced lib.sh
got=$(KERNEL=6.12 lib 'load_scenario stock; fragment_paths' | sed "s|^$REPO_ROOT/||" | tr '\n' ' ')
ok_if companion_6.12 "$([ "$got" = "qemu-boot/configs/base.config qemu-boot/configs/6.12/base.config qemu-boot/configs/base-x86_64.config Kconfig.fragment qemu-boot/configs/cool-off.config qemu-boot/configs/6.12/cool-off.config " ] && echo 0 || echo 1)" "got '$got'"
# shellcheck disable=SC2016 # expanded in the shell that sourced lib.sh
got=$(KERNEL=7.3 lib 'load_scenario preempt-full; fragment_paths' | sed "s|^$REPO_ROOT/||" | tr '\n' ' ')
ok_if companion_7.3 "$([ "$got" = "qemu-boot/configs/base.config qemu-boot/configs/7.3/base.config qemu-boot/configs/base-x86_64.config Kconfig.fragment qemu-boot/configs/cool-on.config qemu-boot/configs/preempt-full.config qemu-boot/configs/7.3/preempt-full.config " ] && echo 0 || echo 1)" "got '$got'"
# shellcheck disable=SC2016 # expanded in the shell that sourced lib.sh
got=$(KERNEL=7.3 lib 'load_scenario stock; fragment_paths' | sed "s|^$REPO_ROOT/||" | tr '\n' ' ')
ok_if companion_7.3_stock "$([ "$got" = "qemu-boot/configs/base.config qemu-boot/configs/7.3/base.config qemu-boot/configs/base-x86_64.config Kconfig.fragment qemu-boot/configs/cool-off.config qemu-boot/configs/7.3/cool-off.config " ] && echo 0 || echo 1)" "got '$got'"
# Per-kernel tokens: TESTS_7_3 replaces TESTS on 7.3 only (a scenario of
# a temporary scenario dir: both series run the same tokens today).
mkdir -p "$tmp/scenarios"
printf '%s\n' 'ARCH=x86_64' 'TESTS="a b"' 'TESTS_7_3="c"' > "$tmp/scenarios/pk.conf"
# shellcheck disable=SC2016 # expanded in the shell that sourced lib.sh
got=$(SC_DIR="$tmp/scenarios" KERNEL=7.3 lib 'SCENARIO_DIR=$SC_DIR; load_scenario pk; echo "$TESTS"; select_kernel 6.12; load_scenario pk; echo "$TESTS"' | tr '\n' ' ')
ok_if tests_per_kernel "$([ "$got" = "c a b " ] && echo 0 || echo 1)" "got '$got'"
# ... and not the TESTS of a scenario that sources cool.conf and sets its own
# shellcheck disable=SC2016 # expanded in the shell that sourced lib.sh
got=$(KERNEL=7.3 lib 'load_scenario fairness; echo "$TESTS"')
ok_if tests_per_kernel_not_inherited "$([ "$got" = selftest:irq_starve,irq_starve_rw,irq_visible ] && echo 0 || echo 1)" "got '$got'"
! grep -qE '^(# )?CONFIG_PREEMPT' "$REPO_ROOT/qemu-boot/configs/base.config"
ok_if base_leaves_preemption_to_kernels "$?"

# Build dirs: per kernel; BUILD shares another scenario's dir on the same kernel.
# shellcheck disable=SC2016 # expanded in the shell that sourced lib.sh
got=$(KERNEL=7.3 lib 'load_scenario hang; echo "$OUT"; select_kernel 6.12; load_scenario hang; echo "$OUT"' | tr '\n' ' ')
ok_if build_dirs_per_kernel "$([ "$got" = "$COOL_CACHE/out/7.3/cool $COOL_CACHE/out/6.12/cool " ] && echo 0 || echo 1)" "got '$got'"

# Variants of the series: their patches per kernel, as patches/ and patches/<ver>/.
# shellcheck disable=SC2016 # expanded in the shell that sourced lib.sh
got=$(KERNEL=7.3 lib 'variant_patch_dir x; select_kernel 6.12; variant_patch_dir x; variant_tree x' | sed "s|^$REPO_ROOT/||" | tr '\n' ' ')
ok_if variant_dirs_per_kernel "$([ "$got" = "qemu-boot/variants/x qemu-boot/variants/x/6.12 $COOL_CACHE/src/linux-source-6.12+x " ] && echo 0 || echo 1)" "got '$got'"

# A scenario that wants COOL on, on a kernel whose series is empty, is
# planned as a skip; the one with COOL off is planned as a build. (The
# series directory is swapped for an empty one.)
mkdir -p "$tmp/empty"
COOL_PATCH_DIR=$tmp/empty "$REPO_ROOT/selftests/run.sh" --scenario 7.3:cool,7.3:stock --dry-run >"$tmp/out" 2>&1
grep -q '^== kernel 7.3, scenario cool (7.3-cool): SKIP, the 7.3 series' "$tmp/out" &&
	grep -q '^== kernel 7.3, scenario stock (7.3-stock)$' "$tmp/out" &&
	grep -q 'Kconfig.fragment left out' "$tmp/out"
ok_if empty_series_skips_cool "$?" "$(grep '^==' "$tmp/out" | tr '\n' ' ')"

# make test's lists: both kernels, or KERNEL's only.
all=$(make -s -C "$REPO_ROOT" -n test KERNEL= 2>/dev/null | grep -o "run.sh --scenario '[^']*'")
one=$(make -s -C "$REPO_ROOT" -n test KERNEL=7.3 2>/dev/null | grep -o "run.sh --scenario '[^']*'")
case "$all" in *7.3:stock*6.12:cool*) r=0 ;; *) r=1 ;; esac
case "$one" in *6.12:*) r=1 ;; *7.3:stock*) ;; *) r=1 ;; esac
ok_if make_test_lists "$r" "all: $all; KERNEL=7.3: $one"

# make check-bisect's matrix: each kernel's configs (the static model is
# preempt-none on 6.12, preempt-lazy on 7.3), and a per-patch build booted
# with a scenario's machine (COOL_BUILD).
p6=$("$REPO_ROOT/scripts/check.sh" --kernel 6.12 --only bisect --dry-run 2>&1 | grep '^bisect:')
p7=$("$REPO_ROOT/scripts/check.sh" --kernel 7.3 --only bisect --dry-run 2>&1 | grep '^bisect:')
case "$p6|$p7" in
*"configs cool preempt-none xen i386, COOL on and off each (not configs of 6.12: preempt-lazy)"*"|"*"configs cool preempt-lazy xen i386, COOL on and off each (not configs of 7.3: preempt-none)"*) r=0 ;;
*) r=1 ;;
esac
ok_if check_bisect_matrix "$r" "6.12: $p6; 7.3: $p7"
out=$(COOL_BUILD=check-xen-off "$REPO_ROOT/qemu-boot/boot.sh" --kernel 7.3 --scenario xen --dry-run 2>&1)
echo "$out" | grep -q "$COOL_CACHE/out/7.3/check-xen-off/arch/x86/boot/bzImage" && echo "$out" | grep -q 'Xen PV dom0'
ok_if cool_build_override "$?" "$(echo "$out" | grep -m1 bzImage)"

# make bench's confidence interval of a median (scripts/lib.sh median_ci):
# 5 boots give the min-max range (93.75 %), 10 boots the 2nd smallest to
# the 2nd largest (97.85 %); the order of the lines does not matter.
for i in 5 1 9 3 7 2 8 4 10 6; do echo "x.stock.spin_lock.2.$i=${i}00"; done > "$tmp/bench.txt"
for i in 5 1 9 3 7; do echo "y.stock.spin_lock.2.$i=${i}00"; done >> "$tmp/bench.txt"
got=$(lib "median_ci '$tmp/bench.txt' x.stock.spin_lock.2; median_ci '$tmp/bench.txt' y.stock.spin_lock.2" | tr '\n' ' ')
ok_if median_ci_order_statistics "$([ "$got" = "200 900 97.9 100 900 93.8 " ] && echo 0 || echo 1)" "got '$got'"
for i in 1 2 3 4 5; do echo "z.stock.spin_lock.2.$i=$i"; done >> "$tmp/bench.txt"
got=$(lib "ci_compare '$tmp/bench.txt' z.stock.spin_lock.2 x.stock.spin_lock.2; ci_compare '$tmp/bench.txt' x.stock.spin_lock.2 z.stock.spin_lock.2; ci_compare '$tmp/bench.txt' y.stock.spin_lock.2 x.stock.spin_lock.2; ci_compare '$tmp/bench.txt' w x.stock.spin_lock.2" | tr '\n' ' ')
ok_if ci_compare_intervals "$([ "$got" = "below above overlap n/a " ] && echo 0 || echo 1)" "got '$got'"

# profile_lock_insns sums the lock functions of one kernel and type and
# nothing else: not another kernel's, not ktime_get or the boot's
cat > "$tmp/prof.txt" <<'EOF2'
profile.cool.spin_lock_irq.fn.__queued_spin_lock_irqwait=71.50
profile.cool.spin_lock_irq.fn.ktime_get=38.96
profile.cool.spin_lock_irq.fn.__cool_spin_lock_irqwait_slow=13.20
profile.cool.spin_lock_irq.fn.setup_boot_APIC_clock=13.00
profile.cool.spin_lock_irq.fn.native_sched_clock=20.00
profile.cool.spin_lock_irq.fn.pv_is_native_spin_unlock=6.10
profile.cool.spin_lock.fn.__cool_spin_lock_slow=17.00
profile.stock.spin_lock_irq.fn._raw_spin_lock_irqsave=14.80
profile.stock.spin_lock_irq.fn.native_queued_spin_lock_slowpath=56.10
EOF2
got=$(lib "profile_lock_insns '$tmp/prof.txt' profile.cool.spin_lock_irq; echo; profile_lock_insns '$tmp/prof.txt' profile.stock.spin_lock_irq" | tr '\n' ' ')
ok_if profile_lock_insns_sums "$([ "$got" = "110.8 70.9" ] && echo 0 || echo 1)" "got '$got'"

echo "1..$n"
echo "# Totals: pass:$pass fail:$fail skip:0"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
