#!/bin/bash
# ktap-test.sh - host-side test of what a run keeps: selftests/scenario-ktap.awk
# on synthetic guest and console logs (a clean run, a hang in the middle of
# a test module, a hang in a runner token, a crash, a kernel that never
# booted) and selftests/ktap2json.awk on the result (valid JSON, statuses,
# durations, figures), the cases of the lines a console must show
# (CONSOLE_EXPECT), and the guest runner's kunit and lockevents tokens on
# a synthetic KUnit log (6.12's one suite, 7.3's two) and lock event counts.  Part of 'make host-test'.
#
# Usage: selftests/host/ktap-test.sh [--help]
# Stdout: KTAP, then "N passed, N failed".
# Exit codes: 0 every case passed, 1 a case failed, 5 bad usage.
set -u
# shellcheck source=../../scripts/lib.sh
. "$(dirname "$0")/../../scripts/lib.sh"
no_options "$@"

awkf=$REPO_ROOT/selftests/scenario-ktap.awk
jsonf=$REPO_ROOT/selftests/ktap2json.awk
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=0 pass=0 fail=0
# ok_if NAME CONDITION-EXIT-STATUS [DIAG]
ok_if() {
	n=$((n + 1))
	if [ "$2" = 0 ]; then
		pass=$((pass + 1)); echo "ok $n $1"
	else
		fail=$((fail + 1)); [ -z "${3:-}" ] || echo "# $3"; echo "not ok $n $1"
	fi
}

# merge NAME BOOTED VERDICT: run scenario-ktap.awk on $tmp/NAME.{ktap,console,qemu}
merge() {
	: >"$tmp/judge.txt"
	awk -v name="$1" -v jok=1 -v jfile="$tmp/judge.txt" -v nwarn=0 -v wfile=none \
		-v booted="$2" -v verdict="$3" -v console="$tmp/$1.console" -v qemuout="$tmp/$1.qemu" \
		-f "$awkf" "$tmp/$1.ktap" 3>"$tmp/$1.counts" >"$tmp/$1.out"
}
has() { grep -qE -- "$2" "$tmp/$1.out"; }
counts() { cat "$tmp/$1.counts"; }

# A run that finished.
cat >"$tmp/clean.ktap" <<'K'
KTAP version 1
# tokens: selftest:trylock locktorture:spin_lock:15
# running: selftest:trylock
# trylock: pairs=100 misses=0
ok 1 selftest.trylock
# time: selftest.trylock 0.51
# done: selftest:trylock
# running: locktorture:spin_lock:15
ok 2 locktorture.spin_lock
# time: locktorture.spin_lock 16.20
# done: locktorture:spin_lock:15
# Totals: pass:2 fail:0 skip:0
2 passed, 0 failed, 0 skipped
COOL-EXIT: 0
K
echo 'COOL-EXIT: 0' >"$tmp/clean.console"
: >"$tmp/clean.qemu"
merge clean 1 PASS
ok_if clean_counts "$([ "$(counts clean)" = "5 0 0" ] && echo 0 || echo 1)" "counts $(counts clean)"
has clean '^    ok 3 booted$'; ok_if clean_booted $?

# Hang inside the test module: two cases streamed, the third on the console
# only, the fourth never finished.
cat >"$tmp/modhang.ktap" <<'K'
KTAP version 1
# running: locktorture:spin_lock:15
ok 1 locktorture.spin_lock
# time: locktorture.spin_lock 16.20
# done: locktorture:spin_lock:15
# running: selftest
K
cat >"$tmp/modhang.console" <<'K'
[    1.0] cool-ktap: KTAP version 1
[    1.1] cool-ktap: 1..3
[    2.0] cool-ktap: ok 1 exclusion_spin_lock
[    3.0] cool-ktap: not ok 2 irq_wait
[   60.0] rcu: INFO: rcu_sched self-detected stall on CPU
K
: >"$tmp/modhang.qemu"
merge modhang 0 HANG
has modhang '^    ok 1 locktorture.spin_lock$'; ok_if hang_keeps_streamed_result $?
has modhang '^    ok 2 selftest.exclusion_spin_lock # from the console log'; ok_if hang_recovers_module_case $?
has modhang '^    not ok 3 selftest.irq_wait'; ok_if hang_recovers_module_failure $?
has modhang '^    not ok 4 selftest # TIMEOUT \(HANG\)$'; ok_if hang_names_token $?
has modhang '^    not ok 5 booted'; ok_if hang_not_booted $?
has modhang 'build_no_warnings # SKIP'; ok_if hang_no_build_pass $?

# Hang in a runner token (no module): the token is named.
printf '%s\n' 'KTAP version 1' '# running: locktorture:rw_lock:15' >"$tmp/tokhang.ktap"
: >"$tmp/tokhang.console"
: >"$tmp/tokhang.qemu"
merge tokhang 0 HANG
has tokhang '^    not ok 1 locktorture:rw_lock:15 # TIMEOUT'; ok_if hang_names_runner_token $?

# A crash (guest stopped, no timeout): CRASH, not TIMEOUT.
cp "$tmp/tokhang.ktap" "$tmp/crash.ktap"
: >"$tmp/crash.console"
: >"$tmp/crash.qemu"
merge crash 0 NO-EXIT
has crash '^    not ok 1 locktorture:rw_lock:15 # CRASH \(NO-EXIT\)'; ok_if crash_named $?

# Never booted: QEMU's message kept, nothing passes.
: >"$tmp/noboot.ktap"
: >"$tmp/noboot.console"
echo 'qemu-system-x86_64: -m 99T: cannot set up guest memory' >"$tmp/noboot.qemu"
merge noboot 0 QEMU-FAIL
has noboot '# qemu: qemu-system-x86_64: -m 99T'; ok_if noboot_qemu_message $?
has noboot '^    not ok 1 boot # QEMU-FAIL'; ok_if noboot_boot_fails $?
p=$(cut -d' ' -f1 "$tmp/noboot.counts")
ok_if noboot_passes_nothing "$([ "$p" = 0 ] && echo 0 || echo 1)" "pass count $p"

# The lines the console had to show (boot.sh's console-expect.txt,
# CONSOLE_EXPECT): a case each, after the guest's, before booted; skipped
# when the kernel did not boot.
printf 'ok console.hypervisor_detected_xen_pv\tHypervisor detected: Xen PV\nnot ok console.xen_pv_spinlocks_enabled\txen: PV spinlocks enabled\n' >"$tmp/expect.txt"
cp "$tmp/clean.ktap" "$tmp/expect.ktap"
cp "$tmp/clean.console" "$tmp/expect.console"
: >"$tmp/expect.qemu"
: >"$tmp/judge.txt"
awk -v name=expect -v jok=1 -v jfile="$tmp/judge.txt" -v nwarn=0 -v wfile=none -v booted=1 -v verdict=PASS \
	-v console="$tmp/expect.console" -v qemuout="$tmp/expect.qemu" -v efile="$tmp/expect.txt" \
	-f "$awkf" "$tmp/expect.ktap" 3>"$tmp/expect.counts" >"$tmp/expect.out"
has expect '^    1\.\.7$' && has expect '^    ok 3 console.hypervisor_detected_xen_pv$' &&
	has expect "^    # the console does not show 'xen: PV spinlocks enabled'$" &&
	has expect '^    not ok 4 console.xen_pv_spinlocks_enabled$' && has expect '^    ok 5 booted$' &&
	[ "$(counts expect)" = "6 1 0" ]
ok_if console_expect_cases "$?" "counts $(counts expect): $(tr '\n' ' ' <"$tmp/expect.out")"

# results.json of a run made of these scenarios, on two kernels, and of
# one skipped as a whole (COOL on, on a kernel whose series is empty)
{
	echo "KTAP version 1"
	echo "1..3"
	cat "$tmp/clean.out"
	echo "ok 1 clean"
	cat "$tmp/modhang.out"
	echo "not ok 2 modhang # HANG"
	echo "ok 3 7.3-cool # SKIP the 7.3 series (patches/) is empty: nothing to build with COOL on"
} >"$tmp/run.ktap"
printf '%s\n' "clean 6.12 clean PASS 100 results/x/6.12-clean" "modhang 7.3 modhang HANG 200 results/x/7.3-modhang" \
	"7.3-cool 7.3 cool SKIP 0 -" >"$tmp/meta"
awk -v stamp=x -v meta="$tmp/meta" -f "$jsonf" "$tmp/run.ktap" >"$tmp/results.json"
if command -v python3 >/dev/null 2>&1; then
	python3 - "$tmp/results.json" >"$tmp/json.out" 2>&1 <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
sc = {s["name"]: s for s in r["scenarios"]}
c = {x["name"]: x for x in sc["clean"]["cases"]}
h = {x["name"]: x for x in sc["modhang"]["cases"]}
assert sc["clean"]["status"] == "pass" and sc["modhang"]["status"] == "fail"
assert r["format"] == "cool-spinlock-results/2", r["format"]
assert sc["clean"]["kernel"] == "6.12" and sc["clean"]["scenario"] == "clean", sc["clean"]
assert sc["modhang"]["kernel"] == "7.3" and sc["modhang"]["results_dir"] == "results/x/7.3-modhang"
sk = sc["7.3-cool"]
assert sk["status"] == "skip" and sk["kernel"] == "7.3" and sk["scenario"] == "cool" and sk["cases"] == [], sk
assert sk["results_dir"] is None and "series" in sk["reason"], sk
assert r["totals"]["skip"] >= 1
assert c["selftest.trylock"]["duration_s"] == 0.51, c["selftest.trylock"]
assert c["selftest.trylock"]["figures"] == {"pairs": 100, "misses": 0}, c["selftest.trylock"]
assert h["selftest"]["status"] == "timeout", h["selftest"]
assert h["selftest.irq_wait"]["status"] == "fail"
assert r["totals"]["fail"] >= 3
print("ok")
PY
	ok_if results_json "$?" "$(tail -n 3 "$tmp/json.out" | tr '\n' ' ')"
else
	n=$((n + 1)); echo "ok $n results_json # SKIP no python3 to parse it"
fi

# The guest runner's kunit token, run here with insmod, rmmod and dmesg
# stubbed: a KUnit suite with a failed, a passed and a skipped test must
# give one case each and fail the run; a missing module fails kunit.SUITE.load.
mkdir -p "$tmp/bin" "$tmp/modules"
: >"$tmp/modules/spinlock_kunit.ko"
cat >"$tmp/kunit.log" <<'LOG'
[    5.100000] KTAP version 1
[    5.100001] 1..1
[    5.100002]     KTAP version 1
[    5.100003]     # Subtest: spinlock_api
[    5.100004]     # module: spinlock_kunit
[    5.100005]     1..3
[    5.100006]         KTAP version 1
[    5.100007]         # Subtest: held_state
[    5.200007]         ok 1 spin_lock
[    5.300007]         # held_state: EXPECTATION FAILED at kernel/locking/spinlock_kunit.c:85
[    5.300008]         Expected irqs_disabled() to be true, but is false
[    5.300009]         not ok 2 spin_lock_irq
[    5.400001]     not ok 1 held_state
[    5.900001]     ok 2 trylock
[    5.900002]     ok 3 irqsave_nested # SKIP needs two CPUs
[    5.900005] not ok 1 spinlock_api
LOG
printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/insmod"
printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/rmmod"
# shellcheck disable=SC2016 # the stub expands $1 when it runs
printf '#!/bin/sh\n[ "${1:-}" = -c ] || cat "%s"\n' "$tmp/kunit.log" >"$tmp/bin/dmesg"
chmod +x "$tmp/bin/insmod" "$tmp/bin/rmmod" "$tmp/bin/dmesg"
guest=$REPO_ROOT/selftests/guest/run.sh
PATH="$tmp/bin:$PATH" COOL_MODULES="$tmp/modules" sh "$guest" kunit >"$tmp/kunit.out" 2>&1
rc=$?
k() { grep -qE -- "$1" "$tmp/kunit.out"; }
k '^not ok 1 kunit.held_state$' && k '^ok 2 kunit.trylock$' &&
	k '^ok 3 kunit.irqsave_nested # SKIP needs two CPUs$' &&
	k '^# Expected irqs_disabled\(\) to be true' && k '^not ok 4 kunit.spinlock_api$' &&
	k '^1 passed, 2 failed, 2 skipped$' && [ "$rc" = 1 ]
ok_if guest_kunit_failure "$?" "rc=$rc: $(tr '\n' ' ' <"$tmp/kunit.out")"
rm "$tmp/modules/spinlock_kunit.ko"
PATH="$tmp/bin:$PATH" COOL_MODULES="$tmp/modules" sh "$guest" kunit >"$tmp/kunit.out" 2>&1
rc=$?
k '^not ok 1 kunit.spinlock_api.load$' && [ "$rc" = 1 ]
ok_if guest_kunit_missing_module "$?" "rc=$rc: $(tr '\n' ' ' <"$tmp/kunit.out")"

# A kernel without the series (COOL_SERIES=0 in /scenario.env: its series
# is empty): the tokens that need the series' modules SKIP with the reason,
# never pass, never fail; locktorture is not among them.
PATH="$tmp/bin:$PATH" COOL_MODULES="$tmp/modules" COOL_SERIES=0 KERNEL=7.3 \
	sh "$guest" selftest kunit negative:lock bench:pathlen tracepoint >"$tmp/noseries.out" 2>&1
rc=$?
k() { grep -qE -- "$1" "$tmp/noseries.out"; }
k '^ok 1 selftest # SKIP kernel 7.3 built without the series' && k '^ok 2 kunit # SKIP ' &&
	k '^ok 3 negative_control.lock # SKIP ' && k '^ok 4 bench.pathlen # SKIP ' &&
	k '^ok 5 tracepoint # SKIP ' && k '^0 passed, 0 failed, 5 skipped$' && [ "$rc" = 0 ]
ok_if guest_no_series_skips "$?" "rc=$rc: $(tr '\n' ' ' <"$tmp/noseries.out")"

# 7.3's KUnit suites (COOL_KUNIT): both are read from one log by their
# names; the optional second suite's module missing is a SKIP. A kernel
# without test_cool_spinlock.ko (COOL_TESTMOD=0; 7.3 has the project's,
# built out of tree, since selftests/kmod) SKIPs its tokens with the reason.
cat >"$tmp/kunit.log" <<'LOG'
[    5.000000]     # Subtest: spinlock_api
[    5.000001]     1..1
[    5.100000]     ok 1 held_state
[    5.100001] ok 1 spinlock_api
[    6.000000]     # Subtest: spinlock_irqwait
[    6.000001]     1..2
[    6.100000]     ok 1 irqwait_free_lock
[    6.200000]     # irqwait_services_interrupts: EXPECTATION FAILED at kernel/locking/irqwait_kunit.c:360
[    6.200001]     not ok 2 irqwait_services_interrupts
[    6.200002] not ok 2 spinlock_irqwait
LOG
rm -f "$tmp/modules/"*.ko
: >"$tmp/modules/spinlock_kunit.ko"
: >"$tmp/modules/irqwait_kunit.ko"
kunit73() {
	PATH="$tmp/bin:$PATH" COOL_MODULES="$tmp/modules" COOL_TESTMOD=${testmod:-1} KERNEL=7.3 \
		COOL_KUNIT='spinlock_kunit:spinlock_api irqwait_kunit:spinlock_irqwait' \
		sh "$guest" "$@" >"$tmp/k73.out" 2>&1
}
kunit73 kunit
rc=$?
k() { grep -qE -- "$1" "$tmp/k73.out"; }
k '^ok 1 kunit.held_state$' && k '^ok [0-9]+ kunit.irqwait_free_lock$' &&
	k '^not ok [0-9]+ kunit.irqwait_services_interrupts$' && k '^not ok [0-9]+ kunit.spinlock_irqwait$' &&
	! k 'kunit.spinlock_api$' && [ "$rc" = 1 ]
ok_if guest_kunit_two_suites "$?" "rc=$rc: $(tr '\n' ' ' <"$tmp/k73.out")"
testmod=0 kunit73 selftest negative:regs bench:pathlen negative:kunit
rc=$?
k '^ok 1 selftest # SKIP kernel 7.3 has no test_cool_spinlock.ko' &&
	k '^ok 2 negative_control.regs # SKIP kernel 7.3 has no' && k '^ok 3 bench.pathlen # SKIP ' &&
	! k 'negative_control.kunit # SKIP kernel' && [ "$rc" = 0 ]
ok_if guest_no_testmod_skips "$?" "rc=$rc: $(tr '\n' ' ' <"$tmp/k73.out")"
rm "$tmp/modules/irqwait_kunit.ko"
kunit73 kunit
rc=$?
k '^ok 1 kunit.held_state$' && k '^ok 2 kunit.spinlock_irqwait # SKIP irqwait_kunit.ko not built' &&
	k '^1 passed, 0 failed, 1 skipped$' && [ "$rc" = 0 ]
ok_if guest_kunit_optional_suite_absent "$?" "rc=$rc: $(tr '\n' ' ' <"$tmp/k73.out")"
rm "$tmp/modules/spinlock_kunit.ko"
kunit73 kunit
rc=$?
k '^not ok 1 kunit.spinlock_api.load$' && [ "$rc" = 1 ]
ok_if guest_kunit_main_suite_missing "$?" "rc=$rc: $(tr '\n' ' ' <"$tmp/k73.out")"

# negative:kunit: the KUnit suite's control passes when the suite reports
# registers_clobbering_routine failed, and fails when the suite passed.
: >"$tmp/modules/spinlock_kunit.ko"
cat >"$tmp/kunit.log" <<'LOG'
[    7.100003]     # Subtest: spinlock_api
[    7.100005]     1..2
[    7.200000]     ok 1 registers
[    7.300000]     # registers_clobbering_routine: EXPECTATION FAILED at kernel/locking/spinlock_kunit.c:315
[    7.300001]     not ok 2 registers_clobbering_routine
[    7.300002] not ok 1 spinlock_api
LOG
PATH="$tmp/bin:$PATH" COOL_MODULES="$tmp/modules" sh "$guest" negative:kunit >"$tmp/neg.out" 2>&1
rc=$?
grep -q '^ok 1 negative_control.kunit$' "$tmp/neg.out" && [ "$rc" = 0 ]
ok_if guest_kunit_negative_caught "$?" "rc=$rc: $(tr '\n' ' ' <"$tmp/neg.out")"
sed -i -e 's/not ok 2 registers_clobbering_routine/ok 2 registers_clobbering_routine/' \
	-e 's/not ok 1 spinlock_api/ok 1 spinlock_api/' "$tmp/kunit.log"
PATH="$tmp/bin:$PATH" COOL_MODULES="$tmp/modules" sh "$guest" negative:kunit >"$tmp/neg.out" 2>&1
rc=$?
grep -q '^not ok 1 negative_control.kunit$' "$tmp/neg.out" && [ "$rc" = 1 ]
ok_if guest_kunit_negative_missed "$?" "rc=$rc: $(tr '\n' ' ' <"$tmp/neg.out")"
# 7.3's suite has no register cases at all without COOL (not even as a
# SKIP): a passing suite without them is a SKIP, not a missed control.
cat >"$tmp/kunit.log" <<'LOG'
[    7.100003]     # Subtest: spinlock_api
[    7.100005]     1..1
[    7.200000]     ok 1 held_state
[    7.300002] ok 1 spinlock_api
LOG
PATH="$tmp/bin:$PATH" COOL_MODULES="$tmp/modules" sh "$guest" negative:kunit >"$tmp/neg.out" 2>&1
rc=$?
grep -q '^ok 1 negative_control.kunit # SKIP no register convention in this kernel' "$tmp/neg.out" && [ "$rc" = 0 ]
ok_if guest_kunit_negative_no_register_cases "$?" "rc=$rc: $(tr '\n' ' ' <"$tmp/neg.out")"

# "selftest:-CASE": the module runs every case, CASE only measured: a
# failed irq_starve is SKIP with the module's verdict, the rest judged.
: >"$tmp/modules/test_cool_spinlock.ko"
cat >"$tmp/kunit.log" <<'LOG'
[    6.000000] cool-ktap: KTAP version 1
[    6.100000] cool-ktap: # irq_starve: cpus=4 irqwait=20000 spin_lock_irqsave(irqs on): n=96 max_ns=1767492887
[    6.100001] cool-ktap: not ok 1 irq_starve
[    6.200000] cool-ktap: ok 2 trylock
[    6.300000] cool-ktap: not ok 3 irq_state
[    6.300001] cool-ktap: # Totals: pass:1 fail:2 skip:0
LOG
PATH="$tmp/bin:$PATH" COOL_MODULES="$tmp/modules" sh "$guest" selftest:-irq_starve,irq_starve_rw >"$tmp/measure.out" 2>&1
rc=$?
m() { grep -qE -- "$1" "$tmp/measure.out"; }
m '^ok 1 selftest.irq_starve # SKIP measured only in this scenario \(the module.s verdict: fail\)$' &&
	m '^# irq_starve: cpus=4' && m '^ok 2 selftest.trylock$' &&
	m '^not ok 3 selftest.irq_state$' && m '^1 passed, 1 failed, 1 skipped$' && [ "$rc" = 1 ]
ok_if guest_selftest_measure_only "$?" "rc=$rc: $(tr '\n' ' ' <"$tmp/measure.out")"

# lockevents: the lock event counts of the token before it, from a stub
# of debugfs lock_event_counts; a counter family that adds up to more than
# 0 passes, one at 0 fails, one that does not exist (pv spinlocks off)
# fails.
mkdir -p "$tmp/lockev"
echo 3 >"$tmp/lockev/pv_wait_head"
echo 0 >"$tmp/lockev/pv_wait_node"
echo 0 >"$tmp/lockev/pv_kick_unlock"
echo 1.50 >"$tmp/lockev/pv_hash_hops"
: >"$tmp/lockev/.reset_counts"
PATH="$tmp/bin:$PATH" COOL_MODULES="$tmp/modules" COOL_LOCKEVENTS="$tmp/lockev" \
	COOL_LOCKEVENTS_ACC="$tmp/lockev-acc" sh "$guest" lockevents:pv_wait,pv_kick,pv_foo >"$tmp/lockev.out" 2>&1
rc=$?
l() { grep -qE -- "$1" "$tmp/lockev.out"; }
l '^# lockevents.start.pv_wait: total=3 \( pv_wait_head=3 pv_wait_node=0 \)$' &&
	l '^ok 1 lockevents.start.pv_wait$' && l '^not ok 2 lockevents.start.pv_kick$' &&
	l '^# lockevents.start.pv_foo: no counter pv_foo' && l '^not ok 3 lockevents.start.pv_foo$' &&
	[ "$(cat "$tmp/lockev/.reset_counts")" = "" ] && [ "$rc" = 1 ]
ok_if guest_lockevents "$?" "rc=$rc: $(tr '\n' ' ' <"$tmp/lockev.out")"
# the counts are zeroed before every other token, and its name labels them
PATH="$tmp/bin:$PATH" COOL_MODULES="$tmp/modules" COOL_LOCKEVENTS="$tmp/lockev" \
	COOL_LOCKEVENTS_ACC="$tmp/lockev-acc" sh "$guest" workload lockevents:pv_wait >"$tmp/lockev.out" 2>&1
l '^ok 2 lockevents.workload.pv_wait$' && [ "$(cat "$tmp/lockev/.reset_counts")" = 1 ]
ok_if guest_lockevents_reset "$?" "$(tr '\n' ' ' <"$tmp/lockev.out")"
# :all adds up the counts of every token since the first (the stub's
# counters are not zeroed by a reset: 3 before the second workload, 3
# since), the boot's own before the first token left out
PATH="$tmp/bin:$PATH" COOL_MODULES="$tmp/modules" COOL_LOCKEVENTS="$tmp/lockev" \
	COOL_LOCKEVENTS_ACC="$tmp/lockev-acc" \
	sh "$guest" workload workload lockevents:pv_wait,pv_kick:all >"$tmp/lockev.out" 2>&1
rc=$?
l '^# lockevents.all.pv_wait: total=6 \( pv_wait_head=6 pv_wait_node=0 \)$' &&
	l '^ok 3 lockevents.all.pv_wait$' && l '^not ok 4 lockevents.all.pv_kick$' && [ "$rc" = 1 ]
ok_if guest_lockevents_all "$?" "rc=$rc: $(tr '\n' ' ' <"$tmp/lockev.out")"
# CASE=C1+C2 sums exactly those counters (not pv_wait_early, a subset)
echo 2 >"$tmp/lockev/pv_wait_early"
PATH="$tmp/bin:$PATH" COOL_MODULES="$tmp/modules" COOL_LOCKEVENTS="$tmp/lockev" \
	COOL_LOCKEVENTS_ACC="$tmp/lockev-acc" \
	sh "$guest" 'lockevents:pv_wait=pv_wait_head+pv_wait_node,pv_kick=pv_kick_unlock' >"$tmp/lockev.out" 2>&1
rc=$?
l '^# lockevents.start.pv_wait: total=3 \( pv_wait_head=3 pv_wait_node=0 \)$' &&
	l '^ok 1 lockevents.start.pv_wait$' && l '^not ok 2 lockevents.start.pv_kick$' && [ "$rc" = 1 ]
ok_if guest_lockevents_exact "$?" "rc=$rc: $(tr '\n' ' ' <"$tmp/lockev.out")"

echo "1..$n"
echo "# Totals: pass:$pass fail:$fail skip:$((n - pass - fail))"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
