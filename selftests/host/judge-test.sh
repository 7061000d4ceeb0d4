#!/bin/bash
# judge-test.sh - host-side test of qemu-boot/judge.sh on synthetic console
# logs: clean, badness, hang, KCSAN reports inside and outside a scope,
# WARNING reports at known sites (--known-warnings), and a Xen dom0's
# console with Xen's own lines (HOST=xen).
# Each case states the exit code judge.sh must return; a judge that stops
# seeing badness, or that hides badness behind an out-of-scope KCSAN report,
# fails here.  First step of 'make test' after shellcheck.
#
# Usage: selftests/host/judge-test.sh [--help]
# Stdout: KTAP, then "N passed, N failed".
# Exit codes: 0 every case passed, 1 a case failed, 5 bad usage.
set -u
# shellcheck source=../../scripts/lib.sh
. "$(dirname "$0")/../../scripts/lib.sh"
no_options "$@"

judge=$REPO_ROOT/qemu-boot/judge.sh
scope='spin|rwlock|(read|write)_(try)?(un)?lock|queued_|cool|torture'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

boot='[    0.000000] Linux version 6.12.118+ (cool@host)
[    1.000000] Run /init as init process'
done_line='COOL-EXIT: 0'
# kcsan_report FUNC: a KCSAN report whose racing access is in FUNC (a
# symbol, or a whole frame such as 'f+0x1/0x2 [module]')
kcsan_report() {
	local frame=$1
	case $frame in *+0x*) ;; *) frame="$frame+0x2c/0x50" ;; esac
	cat <<-R
	[   31.230000] ==================================================================
	[   31.230258] BUG: KCSAN: data-race in ${1%%+*}
	[   31.230863] 
	[   31.231112] race at unknown origin, with read to 0xffffffff81db2a40 of 8 bytes by interrupt on cpu 3:
	[   31.231609]  $frame
	[   31.231830]  handle_softirqs+0xba/0x210
	[   31.232212]  irq_exit_rcu+0x6a/0x90
	[   31.234672] 
	[   31.234760] value changed: 0x000000000000000e -> 0x000000000000000c
	[   31.235731] Reported by Kernel Concurrency Sanitizer on:
	[   31.236433] CPU: 3 UID: 0 PID: 0 Comm: cool_same/3 Tainted: G                 N 6.12.118+ #7
	[   31.238320] ==================================================================
	R
}

n=0 pass=0 fail=0
results=$tmp/results
: >"$results"
# check NAME WANT_RC [JUDGE_OPTION...] < LOG
check() {
	local name=$1 want=$2 rc=0
	shift 2
	n=$((n + 1))
	cat >"$tmp/$name.log"
	"$judge" "$@" "$tmp/$name.log" >"$tmp/$name.out" 2>&1 || rc=$?
	sed 's/^/# /' "$tmp/$name.out" >>"$results"
	if [ "$rc" = "$want" ]; then
		pass=$((pass + 1))
		echo "ok $n $name" >>"$results"
	else
		fail=$((fail + 1))
		echo "# judge.sh exit $rc, want $want" >>"$results"
		echo "not ok $n $name" >>"$results"
	fi
}

# log LINES...: a console log with the boot lines, LINES, and the sentinel
log() { echo "$boot"; [ $# -eq 0 ] || printf '%s\n' "$@"; echo "$done_line"; }
# kcsan_log FUNC...: a log with one KCSAN report per FUNC
kcsan_log() {
	local f
	echo "$boot"
	for f in "$@"; do kcsan_report "$f"; done
	echo "$done_line"
}

check clean "$E_OK" < <(log)
check warning "$E_BADNESS" < <(log '[    2.0] WARNING: CPU: 1 PID: 7 at kernel/foo.c:1 bar+0x1/0x2')
check soft_lockup "$E_BADNESS" < <(log '[    2.0] BUG: soft lockup - CPU#1 stuck for 22s!')
check no_sentinel "$E_HANG" < <(echo "$boot")
check kcsan_unscoped "$E_BADNESS" < <(kcsan_log _find_first_bit)
check kcsan_outside_scope "$E_OK" --kcsan-scope "$scope" < <(kcsan_log _find_first_bit)
check kcsan_lock_code "$E_BADNESS" --kcsan-scope "$scope" < <(kcsan_log queued_spin_lock_slowpath)
check kcsan_test_module "$E_BADNESS" --kcsan-scope "$scope" < <(kcsan_log 'excl_worker+0x2c/0x50 [test_cool_spinlock]')
check kcsan_outside_does_not_hide_oops "$E_BADNESS" --kcsan-scope "$scope" < <(kcsan_log _find_first_bit |
	sed '$i [   40.0] Oops: general protection fault')
check kcsan_second_report_in_scope "$E_BADNESS" --kcsan-scope "$scope" < <(kcsan_log _find_first_bit _raw_spin_lock)
check bad_scope_regex "$E_USAGE" --kcsan-scope '(' < <(log)

# warn_report SITE [END]: a WARNING report at SITE (FILE:LINE) with its
# trace; END (default 1) 0 leaves out the '---[ end trace' line
warn_report() {
	printf '%s\n' '[   66.0] ------------[ cut here ]------------' \
		"[   66.0] WARNING: CPU: 0 PID: 111 at $1 inactive_task_timer+0x525/0x650" \
		'[   66.0] Call Trace:' '[   66.0]  <IRQ>' '[   66.0]  hrtimer_interrupt+0xff/0x230'
	[ "${2:-1}" = 0 ] || echo '[   66.0] ---[ end trace 0000000000000000 ]---'
}
known='kernel/sched/deadline.c:265'
check known_warning "$E_OK" --known-warnings "$known" < <(log "$(warn_report kernel/sched/deadline.c:265)")
check known_warning_other_site "$E_BADNESS" --known-warnings "$known" < <(log "$(warn_report kernel/sched/core.c:8365)")
check known_warning_other_line "$E_BADNESS" --known-warnings "$known" < <(log "$(warn_report kernel/sched/deadline.c:2650)")
check known_warning_then_warning "$E_BADNESS" --known-warnings "$known" < <(log "$(warn_report kernel/sched/deadline.c:265)" \
	"$(warn_report kernel/sched/core.c:8365)")
check known_warning_does_not_hide_oops "$E_BADNESS" --known-warnings "$known" < <(log "$(warn_report kernel/sched/deadline.c:265 0)" \
	'[   67.0] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI' '[   67.0] Call Trace:')
check known_warning_does_not_hide_trace "$E_BADNESS" --known-warnings "$known" < <(log "$(warn_report kernel/sched/deadline.c:265)" \
	'[   67.0] Call Trace:')

# A Xen PV dom0's console (HOST=xen): Xen's lines ("(XEN) ...") and dom0's
# share com1. Xen's boot under QEMU and a debug key dump are not badness;
# Xen's panics, BUGs, WARNs, assertions and a crashed dom0 are.
xen_boot='(XEN) Xen version 4.17.7 (Debian 4.17.7+13-g2445b30a44-0+deb12u1) debug=n
(XEN) mtrr: your CPUs had inconsistent fixed MTRR settings
(XEN) *** Serial input to DOM0 (type '"'CTRL-a'"' three times to switch input)
[    0.000000] Hypervisor detected: Xen PV
[    1.424751] [Firmware Bug]: CPU   2: APIC ID mismatch. CPUID: 0x0002 APIC: 0x0000
[    3.777130] xen: PV spinlocks enabled'
xen_log() { echo "$xen_boot"; [ $# -eq 0 ] || printf '%s\n' "$@"; echo "$done_line"; }
check xen_clean "$E_OK" < <(xen_log '(XEN) *** Dumping Dom0 vcpu#0 state: ***' '(XEN) RIP:    e033:[<ffffffff81338899>]')
check xen_panic "$E_BADNESS" < <(xen_log '(XEN) ****************************************' '(XEN) Panic on CPU 1:' '(XEN) FATAL TRAP: vector = 6 (invalid opcode)')
check xen_bug "$E_BADNESS" < <(xen_log '(XEN) Xen BUG at common/sched/credit2.c:3530')
check xen_warn "$E_BADNESS" < <(xen_log '(XEN) Xen WARN at arch/x86/time.c:1234')
check xen_assertion_mid_line "$E_BADNESS" < <(xen_log '[   40.1] cool-ktap: ok 3 (XEN) Assertion '"'v->is_running'"' failed at common/sched/core.c:1234')
check xen_dom0_crashed "$E_BADNESS" < <(xen_log '(XEN) Hardware Dom0 crashed: rebooting machine in 5 seconds.')
check xen_no_sentinel "$E_HANG" < <(echo "$xen_boot")

echo "KTAP version 1"
echo "1..$n"
cat "$results"
echo "# Totals: pass:$pass fail:$fail skip:0"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
