#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest-side suite runner: runs inside the QEMU guest (busybox sh), loads
# the test modules, and prints KTAP on stdout, one line per case, ending
# with the plain line "N passed, N failed, N skipped".
#
# Usage: run.sh TOKEN...
#   selftest[:case,case]        test_cool_spinlock.ko (the project's,
#                               selftests/kmod, built out of tree),
#                               every case or some
#   selftest:-case,case         every case, the named ones measured only
#                               (SKIP, the module's verdict in the reason)
#   negative:lock|regs|irqwait  a negative control of the test module: the
#                               case passes when the module reports failure;
#                               irqwait turns the wait's budget
#                               (COOL_IRQWAIT_PARAM) off at run time
#                               and lets irq_wait expect interrupts serviced
#   negative:kunit              the KUnit suite with negative=1: its
#                               registers_clobbering_routine test must
#                               fail (a lock routine that clobbers a
#                               register); passes when the suite says so
#   negative:kasan              a spinlock taken in freed memory: the case
#                               passes when the log has KASAN's
#                               use-after-free report (KASAN kernels)
#   negative:queue_irq          a waiter queues with interrupts on: the
#                               kernel must deadlock (scenario hang expects
#                               the host to see a hang); if it returns, the
#                               case fails
#   locktorture:TYPE:SECS[:k=v,k=v]
#                               locktorture for SECS seconds; TYPE
#                               lock_busted must end in FAILURE
#   tracepoint                  lock:contention_begin/end fire while the
#                               test module contends a spinlock and an
#                               rwlock, and from inside the interrupt-
#                               enabled spinlock and write waits (needs
#                               CONFIG_TRACING, else SKIP)
#   kunit                       the series' KUnit suites (COOL_KUNIT:
#                               spinlock_api, spinlock_kunit.ko, and
#                               spinlock_irqwait, irqwait_kunit.ko, when
#                               built): each of their tests is a case
#                               kunit.NAME, failed expectations diagnostics
#   lockdep_selftests           the boot-time locking API selftests
#                               (DEBUG_LOCKING_API_SELFTESTS) passed; put
#                               it first, the other tokens clear the log
#   bench:NAME[:k=v,k=v]        test_cool_spinlock.ko bench=NAME: metrics as
#                               "# bench: ..." diagnostic lines
#   workload[:N]                /bin/lockload N (selftests/guest/lockload.c,
#                               x86_64 only, else SKIP): lock-heavy system
#                               call loops, "# workload: name=.. ns=.."
#                               lines (make bench, section callers)
#   lockevents:NAME[,NAME..]    the lock event counts (debugfs
#                               lock_event_counts, CONFIG_LOCK_EVENT_COUNTS)
#                               of the token before it (the runner zeroes
#                               them before every other token): case
#                               lockevents.LABEL.NAME passes when the
#                               counters whose names start with NAME add up
#                               to more than 0 (pv_wait: pv_wait_head,
#                               _node, _early, _again, which overlap: to
#                               count events, use CASE= below; the pv_* counters
#                               exist only while paravirt spinlocks are on);
#                               LABEL names that token (locktorture's TYPE,
#                               else the token's kind; 'start' if none)
#   lockevents:CASE=C1+C2[,..]  case lockevents.LABEL.CASE: the sum of
#                               exactly the counters C1, C2 (pv_wait_early
#                               and _again count subsets of _node and _head
#                               waits; pv_kick_wake counts woken waiters,
#                               pv_kick_unlock the kicks sent)
#   lockevents:NAME[,..]:all    the same over every token since the
#                               runner's first (case lockevents.all.NAME):
#                               events that need a vCPU preempted at the
#                               right moment (Xen's pv waits and kicks)
#                               are checked over all the runs of a boot,
#                               not each run alone
#
# Output is streamed: "KTAP version 1" first, then each case's result line
# the moment the case ends (no plan line up front: a module's case count is
# known only when it runs, and KTAP lets the plan be omitted), so a hang or
# a crash later loses none of the earlier results. Before each token the
# runner prints "# running: TOKEN" and after it "# done: TOKEN"; the host
# names the token that was running when the guest hung. After each result
# "# time: NAME SECONDS" gives the case's duration (guest uptime, or the
# kernel log's timestamps for the cases of a module).
#
# Modules are looked up in $COOL_MODULES (default /modules), the lock
# event counts in $COOL_LOCKEVENTS (default /sys/kernel/debug/lock_event_counts).
# COOL_SERIES=0 (from /scenario.env: a kernel whose series is still empty,
# so it has neither test_cool_spinlock.ko nor cool_spinlock_kunit.ko) makes
# every token that needs them (selftest, negative, kunit, tracepoint,
# bench) one SKIP with that reason; locktorture, lockdep_selftests,
# lockevents and workload run as anywhere. With COOL_SERIES=1 (the
# default) a missing module fails. COOL_TESTMOD=0 (a kernel without
# test_cool_spinlock.ko) makes selftest, tracepoint, bench and the
# negative controls other than negative:kunit a SKIP with that reason.
# COOL_IRQWAIT_PARAM (default spinlock.irqwait_us) names the interrupt-
# enabled wait's budget, in /sys/module/<module, kernel if
# none>/parameters/ and on the command line; COOL_IRQWAIT_WAITS the
# spinlock and write lock functions in which that wait fires
# lock:contention_begin (the tracepoint token); COOL_IRQWAIT_PV=off (the
# default, as both series do) that the wait is off while paravirt
# spinlocks are in use, so that irq_wait then expects none serviced and
# negative:irqwait is a SKIP.
# A case also fails when the kernel log it produced shows a warning, a BUG,
# an Oops or a lockdep splat.
#
# Exit status: 0 all cases passed or skipped, 1 a case failed, 2 bad usage.

MODDIR=${COOL_MODULES:-/modules}
tmp=$(mktemp -d /tmp/cool.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
n=0
pass=0
fail=0
skip=0

BADNESS='WARNING:|BUG:|Oops|general protection|Kernel panic|inconsistent lock state|possible recursive locking|circular locking dependency|soft lockup|hard LOCKUP|rcu.*stall|Call Trace:'

# uptime in hundredths of a second
now_cs() {
	u=$(cut -d' ' -f1 /proc/uptime)
	echo $((${u%.*} * 100 + 1${u#*.} - 100))
}
case_t0=$(now_cs)

# result OK|FAIL|SKIP NAME [REASON [SECONDS]]: print the result line at once,
# then its duration (SECONDS, else the guest time since the previous result).
result() {
	n=$((n + 1))
	case "$1" in
	OK)	pass=$((pass + 1)); echo "ok $n $2" ;;
	SKIP)	skip=$((skip + 1)); echo "ok $n $2 # SKIP $3" ;;
	*)	fail=$((fail + 1)); echo "not ok $n $2" ;;
	esac
	t1=$(now_cs)
	if [ -n "${4:-}" ]; then
		echo "# time: $2 $4"
	else
		d=$((t1 - case_t0))
		echo "# time: $2 $((d / 100)).$((d % 100 / 10))$((d % 10))"
	fi
	case_t0=$t1
}

diag() {
	echo "# $*"
}

# The kernel log since the last mark, without timestamps: mark_log clears
# the ring buffer (the console keeps everything), new_log reads it.
mark_log() {
	dmesg -c > /dev/null
}

new_log() {
	dmesg > "$tmp/rawlog"
	sed 's/^\[[^]]*\] //' "$tmp/rawlog"
}

# check_log NAME: fail NAME.kernel_log if the new log has badness. The
# WARNING reports at the sites of COOL_KNOWN_WARNINGS (the scenario's
# KNOWN_WARNINGS, from /scenario.env) are diagnostics, not badness.
check_log() {
	cp "$tmp/log" "$tmp/judged"
	if [ -n "${COOL_KNOWN_WARNINGS:-}" ]; then
		awk -v known="$COOL_KNOWN_WARNINGS" -f /selftests/known-warnings.awk \
			"$tmp/log" > "$tmp/known"
		if [ -s "$tmp/known" ]; then
			awk 'NR == FNR { skip[$1] = 1; next } !(FNR in skip)' \
				"$tmp/known" "$tmp/log" > "$tmp/judged"
			awk 'NR == FNR { skip[$1] = 1; next } (FNR in skip) && /WARNING:/' \
				"$tmp/known" "$tmp/log" | while read -r l; do
				diag "$1: known warning, not judged: $l"
			done
		fi
	fi
	if grep -Eq "$BADNESS" "$tmp/judged"; then
		grep -E "$BADNESS" "$tmp/judged" | head -5 | while read -r l; do
			diag "$1: $l"
		done
		result FAIL "$1.kernel_log_clean"
		return 1
	fi
	return 0
}

# The module's KTAP from the kernel log read by new_log. busybox insmod retries a failed
# finit_module() with init_module(), so a failing module runs twice: keep
# the first run only.
module_ktap() {
	module_ktap_timed | cut -d' ' -f2-
}

# The module's KTAP lines with the seconds each case took, from the kernel
# log's timestamps ("SECONDS LINE"; "- LINE" without printk times).
module_ktap_timed() {
	grep 'cool-ktap: ' "$tmp/rawlog" |
		sed -n 's/^\[ *\([0-9.]*\)\] cool-ktap: /\1 /p; s/^[^[].*cool-ktap: /- /p' |
		awk '{ t = $1; sub(/^[^ ]* /, "")
		       if (t == "-") d = "-"; else { if (t0 == "") t0 = t; d = sprintf("%.2f", t - t0) }
		       if (t != "-" && $0 ~ /^(not )?ok /) t0 = t
		       print d, $0
		       # the first run only (see module_ktap)
		       if ($0 ~ /^# Totals:/) exit }'
}

# report_cases PREFIX FILE [DROP] [MEASURE]: report the "SECONDS LINE"
# KTAP lines of FILE (module_ktap_timed, kunit_results) as cases
# PREFIX.NAME, leaving out the case named DROP; the cases named in MEASURE
# (space-separated) ran for their figures only and are SKIP, with the
# module's verdict in the reason. A "- suite not ok N NAME" line (a KUnit
# suite's own result) fails PREFIX.NAME. 0 if FILE had a result line.
report_cases() {
	prefix=$1
	drop=${3:-}
	measure=${4:-}
	found=0
	while read -r secs line; do
		[ "$secs" != - ] || secs=''
		case "$line" in
		"suite not ok "*)
			result FAIL "$prefix.$(echo "$line" | cut -d' ' -f5)"
			found=1; continue ;;
		"suite "*)
			found=1; continue ;;
		*"ok "[0-9]*" $drop"|*"ok "[0-9]*" $drop "*)
			[ -n "$drop" ] && { found=1; continue; } ;;
		esac
		case "$line" in
		"ok "*|"not ok "*)
			name=$(echo "$line" | sed 's/^\(not \)\{0,1\}ok [0-9]* \([^ ]*\).*/\2/')
			case " $measure " in
			*" $name "*)
				v=pass
				case "$line" in "not ok "*) v=fail ;; esac
				result SKIP "$prefix.$name" "measured only in this scenario (the module's verdict: $v)" "$secs"
				found=1
				continue ;;
			esac ;;
		esac
		case "$line" in
		"# "*)
			echo "$line" ;;
		"ok "*"# SKIP"*)
			result SKIP "$prefix.$name" "${line#*# SKIP }" "$secs"; found=1 ;;
		"ok "*)
			result OK "$prefix.$name" "" "$secs"; found=1 ;;
		"not ok "*)
			result FAIL "$prefix.$name" "" "$secs"; found=1 ;;
		esac
	done < "$2"
	[ "$found" = 1 ]
}

# run_module_cases PREFIX [DROP] [MEASURE]: the module's KTAP in the kernel
# log as cases (report_cases).
run_module_cases() {
	module_ktap_timed > "$tmp/ktap"
	report_cases "$1" "$tmp/ktap" "${2:-}" "${3:-}"
}

# wait_secs S: let S seconds of guest time pass. busybox sleep can return at
# once on a 32-bit userland whose time syscalls the kernel lacks, so watch
# /proc/uptime instead of trusting it.
wait_secs() {
	end=$(($(cut -d. -f1 /proc/uptime) + $1))
	while [ "$(cut -d. -f1 /proc/uptime)" -lt "$end" ]; do
		sleep 1 2>/dev/null
	done
}

load() {
	# load MODULE [ARGS...]: insmod from $MODDIR, 0 on success
	m=$1
	shift
	if [ ! -f "$MODDIR/$m.ko" ]; then
		echo "missing module $MODDIR/$m.ko" > "$tmp/insmod"
		return 127
	fi
	insmod "$MODDIR/$m.ko" "$@" > "$tmp/insmod" 2>&1
}

# The interrupt-enabled wait's budget (us): its name on the command line
# and its file (a built-in parameter without a dot is the kernel's).
IRQWAIT_PARAM=${COOL_IRQWAIT_PARAM:-spinlock.irqwait_us}
case $IRQWAIT_PARAM in
*.*)	IRQWAIT_FILE=/sys/module/${IRQWAIT_PARAM%%.*}/parameters/${IRQWAIT_PARAM#*.} ;;
*)	IRQWAIT_FILE=/sys/module/kernel/parameters/$IRQWAIT_PARAM ;;
esac

# COOL_IRQWAIT_PV=off (both series): the kernel does not wait with
# interrupts on while paravirt spinlocks are in use (Xen PV, KVM),
# whatever the budget says; the boot log says whether they are ("PV spinlocks enabled"), read
# once here, before tokens can push it out of the buffer.
PV_SPINLOCKS=0
dmesg 2>/dev/null | grep -q 'PV spinlocks enabled' && PV_SPINLOCKS=1
irqwait_off_by_pv() { [ "${COOL_IRQWAIT_PV:-off}" = off ] && [ "$PV_SPINLOCKS" = 1 ]; }

# the budget of the running kernel: what the irq_wait case must expect.
irqwait_param() {
	w=0
	[ -r "$IRQWAIT_FILE" ] && w=$(cat "$IRQWAIT_FILE")
	irqwait_off_by_pv && w=0
	echo "irqwait=$w"
}

# Lock/unlock pairs per CPU of the exclusion cases (the module's default is
# 20000): under TCG a queued waiter with interrupts on pays for every vCPU
# the host deschedules, and 20000 made one case last over a minute.
SELFTEST_ITERATIONS=${COOL_SELFTEST_ITERATIONS:-5000}
# The budget (IRQWAIT_PARAM, us) while the module runs, when the kernel waits with
# interrupts on at all: under TCG with more vCPUs than host cores a vCPU
# can be descheduled for milliseconds, and the default 2000 us budget then
# runs out before irq_wait's IPI arrives (seen in the cool-tas scenario).
# The cases read the budget in force (irqwait=) and check against it. A
# IRQWAIT_PARAM= on the kernel command line (make bench) is left alone.
SELFTEST_IRQWAIT=${COOL_SELFTEST_IRQWAIT:-20000}
# irq_wait's budget: boot.sh scales it with the host's measured slow-down.
SELFTEST_IRQWAIT_WAIT=${COOL_SELFTEST_IRQWAIT_WAIT:-$SELFTEST_IRQWAIT}
# The share irq_starve and irq_starve_rw judge (the module's default, 2,
# wants half a queued waiter's acquisitions). Under wall-clock TCG host
# scheduling swung the ratio from 0.18 (host busy with a build) to 3.5
# between boots of one kernel, and 0.075 (irq_starve_rw, cool-tas, host
# running make test and a kernel build) failed even 1/10: there the cases
# only measure (0) and still fail a wait as long as the whole run; the
# fairness scenarios judge the share under -icount (STARVE_SHARE=2).
SELFTEST_STARVE_SHARE=${COOL_SELFTEST_STARVE_SHARE:-0}

# budget_set BUDGET: IRQWAIT_PARAM=BUDGET (us) until budget_restore, if the
# kernel waits with interrupts on at all; a budget chosen on the command
# line (make bench) is kept.
budget_set() {
	param=$IRQWAIT_FILE
	saved_w=''
	if [ -w "$param" ] && [ "$(cat "$param")" != 0 ] &&
		! grep -q "$IRQWAIT_PARAM=" /proc/cmdline; then
		saved_w=$(cat "$param")
		echo "$1" > "$param"
	fi
}

budget_restore() {
	[ -z "$saved_w" ] || echo "$saved_w" > "$IRQWAIT_FILE"
}

# selftest_pass CASES BUDGET DROP [MEASURE]: one load of the test module
# with IRQWAIT_PARAM=BUDGET (us) while it runs, its cases reported except
# DROP, those in MEASURE as measured only (see run_module_cases).
selftest_pass() {
	budget_set "$2"
	args="$(irqwait_param) iterations=$SELFTEST_ITERATIONS starve_share=$SELFTEST_STARVE_SHARE"
	[ -n "$1" ] && args="$args cases=$1"
	mark_log
	# shellcheck disable=SC2086
	load test_cool_spinlock $args
	rc=$?
	budget_restore
	new_log > "$tmp/log"
	rmmod test_cool_spinlock 2>/dev/null
	if [ "$rc" = 127 ]; then
		result FAIL selftest.load
		diag "$(cat "$tmp/insmod")"
		return
	fi
	if ! run_module_cases selftest "$3" "${4:-}"; then
		result FAIL selftest.load
		diag "insmod rc=$rc, no KTAP from the module: $(cat "$tmp/insmod")"
	fi
	check_log selftest
}

# The whole module runs with SELFTEST_IRQWAIT; irq_wait, which needs
# interrupts to reach a waiter before its budget is spent, is judged on a
# run of its own with SELFTEST_IRQWAIT_WAIT when that is larger (boot.sh
# scales it with the host's slow-down). A larger budget for every case
# would let a relocker starve irq_starve's waiter longer (seen: 388
# acquisitions against a queued waiter's 4334 at 38.8 ms).
#
# "selftest:-CASE,CASE" runs every case and reports the named ones as
# measured only: scenarios whose wall clock cannot judge them (cool-tas:
# a test-and-set lock under host load) leave the verdict to a scenario
# that runs them under -icount (fairness-tas).
do_selftest() {
	cases=$1
	measure=''
	case "$cases" in
	-*)	measure=$(echo "${cases#-}" | tr , ' '); cases='' ;;
	esac
	if [ -z "$cases" ] && [ "$SELFTEST_IRQWAIT_WAIT" -gt "$SELFTEST_IRQWAIT" ]; then
		selftest_pass "" "$SELFTEST_IRQWAIT" irq_wait "$measure"
		diag "irq_wait: again alone, $IRQWAIT_PARAM=$SELFTEST_IRQWAIT_WAIT us (host slow-down)"
		selftest_pass irq_wait "$SELFTEST_IRQWAIT_WAIT" ""
	else
		selftest_pass "$cases" "$SELFTEST_IRQWAIT" "" "$measure"
	fi
}

# negative:kunit: the KUnit suite's own negative control. KUnit does not
# fail the module load, so the suite's KTAP is read: the control test must
# be "not ok" and the suite must report the failure.
do_negative_kunit() {
	name=negative_control.kunit
	mark_log
	old=$(cut -f1 /proc/sys/kernel/printk)
	echo 1 > /proc/sys/kernel/printk
	load "$KUNIT_MAIN" negative=1
	rc=$?
	echo "$old" > /proc/sys/kernel/printk
	new_log > "$tmp/log"
	rmmod "$KUNIT_MAIN" 2>/dev/null
	kunit_results > "$tmp/kunit"
	sed -n 's/^- # /# control: /p' "$tmp/kunit" | head -5
	if [ "$rc" != 0 ]; then
		diag "$name: insmod rc=$rc: $(cat "$tmp/insmod")"
		result FAIL "$name"
	elif grep -q '^[-0-9.]* ok [0-9]* registers_clobbering_routine # SKIP' "$tmp/kunit"; then
		result SKIP "$name" "no register convention in this kernel"
	elif ! grep -q ' registers_clobbering_routine' "$tmp/kunit" &&
		grep -q '^- suite ok ' "$tmp/kunit"; then
		# 7.3's suite builds its register cases only with the routines
		result SKIP "$name" "no register convention in this kernel (the suite has no register cases)"
	elif grep -q '^[-0-9.]* not ok [0-9]* registers_clobbering_routine' "$tmp/kunit" &&
		grep -q '^- suite not ok ' "$tmp/kunit"; then
		diag "$name: KUnit reported the clobbering routine's failure, as it must"
		result OK "$name"
	else
		diag "$name: the KUnit suite did not report the clobbered register"
		result FAIL "$name"
	fi
}

do_negative() {
	what=$1
	[ "$what" = kunit ] && { do_negative_kunit; return; }
	name="negative_control.$what"
	args="negative=$what"
	param=$IRQWAIT_FILE
	if [ "$what" = irqwait ]; then
		w=$(cat "$param" 2>/dev/null || echo 0)
		if [ "$w" = 0 ]; then
			result SKIP "$name" "$IRQWAIT_PARAM is off or absent in this kernel"
			return
		fi
		if irqwait_off_by_pv; then
			result SKIP "$name" "the wait is off while paravirt spinlocks are in use"
			return
		fi
		# the kernel waits with interrupts off, the module is told it
		# does not: irq_wait must see that no interrupt was serviced
		echo 0 > "$param"
		args="cases=irq_wait irqwait=$w"
	fi
	mark_log
	# The controls must produce failures: keep them off the console, where
	# the host's judge would take them for real ones. dmesg keeps them.
	old=$(cut -f1 /proc/sys/kernel/printk)
	# ... except the deadlock, whose stall reports the host should see
	[ "$what" = queue_irq ] || echo 1 > /proc/sys/kernel/printk
	# shellcheck disable=SC2086
	load test_cool_spinlock $args
	rc=$?
	echo "$old" > /proc/sys/kernel/printk
	[ "$what" = irqwait ] && echo "$w" > "$param"
	new_log > "$tmp/log"
	rmmod test_cool_spinlock 2>/dev/null
	ktap=$(module_ktap)
	echo "$ktap" | grep '^# ' | sed 's/^/# control: /'
	if [ "$what" = kasan ]; then
		# the module only does it; KASAN must say so in the log
		if grep -q 'BUG: KASAN: .*use-after-free' "$tmp/log"; then
			diag "$name: $(grep -m1 'BUG: KASAN:' "$tmp/log")"
			result OK "$name"
		else
			diag "$name: insmod rc=$rc; no KASAN use-after-free report for a lock in freed memory"
			result FAIL "$name"
		fi
	elif [ "$what" = queue_irq ]; then
		# whatever the module says: returning at all means no deadlock
		diag "$name: the module returned (insmod rc=$rc); the deadlock did not happen"
		result FAIL "$name"
	elif echo "$ktap" | grep -q '# SKIP'; then
		result SKIP "$name" "$(echo "$ktap" | sed -n 's/.*# SKIP //p' | head -1)"
	elif echo "$ktap" | grep -q '^not ok'; then
		# The module's first run is judged, not insmod's status: when
		# finit_module() fails, busybox insmod retries with
		# init_module(), and a racy control (the broken lock) can pass
		# that second run; insmod then exits 0 (seen under host load).
		diag "$name: the module reported the failure, as it must (insmod rc=$rc)"
		result OK "$name"
	else
		diag "$name: insmod rc=$rc; the control was not caught"
		result FAIL "$name"
	fi
}

do_locktorture() {
	type=$1
	secs=${2:-30}
	extra=$(echo "${3:-}" | tr ',' ' ')
	name="locktorture.$type"
	[ "$type" = lock_busted ] && name="locktorture.lock_busted_detected"
	# 7.3's hardirq contenders (hardirq_us=): a case of its own
	case " $extra " in *" hardirq_us="*) name="$name.hardirq" ;; esac
	mark_log
	load torture 2>/dev/null
	quiet=0
	if [ "$type" = lock_busted ]; then
		quiet=1
		old=$(cut -f1 /proc/sys/kernel/printk)
		echo 1 > /proc/sys/kernel/printk
	fi
	# shellcheck disable=SC2086
	if ! load locktorture "torture_type=$type" stat_interval=0 $extra; then
		[ "$quiet" = 1 ] && echo "$old" > /proc/sys/kernel/printk
		diag "$name: $(cat "$tmp/insmod")"
		result FAIL "$name"
		return
	fi
	wait_secs "$secs"
	rmmod locktorture
	# torture.ko keeps CPU-hotplug state between runs (its online-CPU
	# count goes stale and WARNs in the next run): a fresh one each time
	rmmod torture 2>/dev/null
	[ "$quiet" = 1 ] && echo "$old" > /proc/sys/kernel/printk
	new_log > "$tmp/log"
	stats=$(grep -E '(Writes|Reads ?):' "$tmp/log" | tail -2 | tr -s ' ' | tr '\n' ' ')
	onoff=$(grep -o 'onoff: [0-9]*/[0-9]*:[0-9]*/[0-9]*' "$tmp/log" | tail -1)
	diag "$name: $stats$onoff"
	if grep -q 'End of test: SUCCESS' "$tmp/log"; then
		verdict=SUCCESS
	elif grep -q 'End of test: FAILURE' "$tmp/log"; then
		verdict=FAILURE
	else
		verdict=NONE
	fi
	diag "$name: End of test: $verdict"
	if [ "$type" = lock_busted ]; then
		if [ "$verdict" = FAILURE ]; then
			result OK "$name"
		else
			result FAIL "$name"
		fi
		return
	fi
	if [ "$verdict" = SUCCESS ] && ! grep -q -- '-torture.*!!!' "$tmp/log"; then
		check_log "$name" && result OK "$name"
	else
		result FAIL "$name"
	fi
}

# trace_load TRACEFS STACK ARGS...: test_cool_spinlock ARGS loaded and
# unloaded with lock:contention_begin/_end on, with their stack traces if
# STACK is 1; the trace is left in TRACEFS/trace, insmod's status in $rc.
trace_load() {
	t=$1 st=$2
	shift 2
	: > "$t/trace"
	echo "$st" > "$t/options/stacktrace"
	echo 1 > "$t/events/lock/contention_begin/enable"
	echo 1 > "$t/events/lock/contention_end/enable"
	echo 1 > "$t/tracing_on"
	load test_cool_spinlock "$@"
	rc=$?
	echo 0 > "$t/tracing_on"
	echo 0 > "$t/events/lock/contention_begin/enable"
	echo 0 > "$t/events/lock/contention_end/enable"
	echo 0 > "$t/options/stacktrace"
	rmmod test_cool_spinlock 2>/dev/null
}

# Profiling must survive COOL: the contention tracepoints of the generic
# slowpaths fire when the out-of-line routines reach them.
do_tracepoint() {
	name=tracepoint.contention
	t=/sys/kernel/tracing
	[ -d "$t/events" ] || mount -t tracefs nodev "$t" 2>/dev/null
	if [ ! -d "$t/events/lock/contention_begin" ]; then
		result SKIP "$name" "no lock:contention_begin event (CONFIG_TRACING off)"
		return
	fi
	echo 0 > "$t/tracing_on"
	echo 1024 > "$t/buffer_size_kb"
	trace_load "$t" 0 "cases=exclusion_spin_lock,exclusion_rwlock" iterations=5000
	begin=$(grep -c 'contention_begin:' "$t/trace")
	end=$(grep -c 'contention_end:' "$t/trace")
	rd=$(grep 'contention_begin:' "$t/trace" | grep -c 'READ')
	diag "$name: insmod rc=$rc, contention_begin $begin, contention_end $end, of them rwlock READ $rd"
	if [ "$rc" = 0 ] && [ "$begin" -gt 0 ] && [ "$end" -gt 0 ]; then
		result OK "$name"
	else
		result FAIL "$name"
	fi
	do_tracepoint_irqwait "$t"
}

# The interrupt-enabled waits fire the tracepoints themselves: irq_visible
# makes a spin_lock_irqsave() and a write_lock_irqsave() waiter wait with
# interrupts on; with the event stack traces on, a contention_begin must
# come from inside each of the two routines' interrupt-enabled waits.
# begin_stacks FUNC: how many contention_begin events of the trace on
# stdin have FUNC in their stack (contention_end's stacks do not count: a
# wait that only ends in FUNC was begun elsewhere).
begin_stacks() {
	awk -v f="=> $1" '/ contention_begin: / { ev = "b"; seen = 0; next }
		/ contention_end: / { ev = "e"; next }
		ev == "b" && !seen && index($0, f) { n++; seen = 1 }
		END { print n + 0 }'
}

# The waiter must still be in its interrupt-enabled wait when the holder's
# IPI comes, so this runs with the selftest's budget: at the default 2000
# us a host that deschedules a vCPU (4 CPU hogs beside the guest) made
# 3 of 6 runs fail with "seen only after the waiter queued with
# interrupts off" (make test's none-hardened failed so in CI).
do_tracepoint_irqwait() {
	t=$1
	name=tracepoint.irqwait
	if [ "$(irqwait_param)" = irqwait=0 ]; then
		result SKIP "$name" "no interrupt-enabled waiting ($IRQWAIT_PARAM 0 or absent)"
		return
	fi
	budget_set "$SELFTEST_IRQWAIT"
	mark_log
	trace_load "$t" 1 cases=irq_visible "$(irqwait_param)"
	budget_restore
	waits=${COOL_IRQWAIT_WAITS:-queued_spin_lock_irqwait_slowpath queued_write_lock_irqwait_slowpath}
	sp=$(begin_stacks "${waits%% *}" < "$t/trace")
	wr=$(begin_stacks "${waits#* }" < "$t/trace")
	diag "$name: insmod rc=$rc, contention_begin stacks in the spinlock wait $sp, in the write wait $wr"
	if [ "$rc" = 0 ] && [ "$sp" -gt 0 ] && [ "$wr" -gt 0 ]; then
		result OK "$name"
	else
		# the module's own reasons, first run only (see module_ktap)
		new_log > "$tmp/log"
		module_ktap | grep '^# ' | while read -r l; do diag "$name: ${l#\# }"; done
		result FAIL "$name"
	fi
}

# kunit_results [SUITE]: the KUnit suite's test lines from the raw kernel
# log, as "SECONDS ok|not ok N NAME..." (SECONDS from the log's timestamps,
# "-" without them), its failure lines as "- # ..." and its own result line
# last as "- suite ...". SUITE defaults to spinlock_api.
kunit_results() {
	awk -v suite="${1:-spinlock_api}" '{
		t = "-"
		if (match($0, /^\[ *[0-9.]+\] /)) {
			t = substr($0, 2, RLENGTH - 3)
			sub(/^ */, "", t)
			$0 = substr($0, RLENGTH + 1)
		}
		if ($0 ~ ("# Subtest: " suite "$")) { on = 1; t0 = t; next }
		if (!on) next
		if ($0 ~ ("^(not )?ok [0-9]+ " suite)) { print "- suite " $0; exit }
		if ($0 ~ /^    (not )?ok [0-9]+ /) {
			d = (t == "-" || t0 == "-") ? "-" : sprintf("%.2f", t - t0)
			t0 = t
			print d, substr($0, 5)
		} else if ($0 ~ /^        not ok |EXPECTATION FAILED|ASSERTION FAILED|Expected /) {
			sub(/^ *(# )?/, "")
			print "- # " $0
		}
	}' "$tmp/rawlog"
}

# The series' KUnit suites, "MODULE:SUITE" each (COOL_KUNIT from
# /scenario.env, scripts/lib.sh select_kernel): the first must be there,
# the others exist only with their options (7.3's irqwait_kunit needs
# SPINLOCK_IRQWAIT) and are a SKIP when absent.
KUNIT_SUITES=${COOL_KUNIT:-spinlock_kunit:spinlock_api irqwait_kunit:spinlock_irqwait}
KUNIT_MAIN=${KUNIT_SUITES%% *}
KUNIT_MAIN=${KUNIT_MAIN%%:*}

# kunit_suite MODULE SUITE REQUIRED: load one KUnit suite as a module (the
# kernel runs it at load) and report each of its tests as kunit.NAME; a
# missing module fails when REQUIRED is 1, else it is a SKIP.
kunit_suite() {
	mark_log
	load "$1"
	rc=$?
	new_log > "$tmp/log"
	rmmod "$1" 2>/dev/null
	if [ "$rc" = 127 ] && [ "$3" = 0 ]; then
		result SKIP "kunit.$2" "$1.ko not built (its option is off in this kernel)"
		return
	fi
	if [ "$rc" != 0 ]; then
		result FAIL "kunit.$2.load"
		diag "insmod rc=$rc: $(cat "$tmp/insmod")"
		return
	fi
	kunit_results "$2" > "$tmp/kunit"
	report_cases kunit "$tmp/kunit"
	if ! grep -q '^- suite ' "$tmp/kunit"; then
		result FAIL "kunit.$2"
		diag "no result line of the KUnit suite $2 in the kernel log"
	fi
	check_log kunit
}

# kunit: every suite of KUNIT_SUITES, the first required.
do_kunit() {
	req=1
	for ms in $KUNIT_SUITES; do
		kunit_suite "${ms%%:*}" "${ms#*:}" "$req"
		req=0
	done
}

# The lock event counts (CONFIG_LOCK_EVENT_COUNTS): one file per event in
# debugfs, summed over the CPUs when read; writing .reset_counts zeroes
# them. The pv_* events exist only when paravirt spinlocks are on (a Xen
# PV or KVM guest with more than one vCPU), and count the waits and kicks
# of the pv slowpath that the plain qspinlock never makes.
LOCKEV=${COOL_LOCKEVENTS:-/sys/kernel/debug/lock_event_counts}

# The counts of the tokens before the last reset, added up per counter
# for lockevents:NAMES:all (the counts before the first token, the
# boot's own, are left out).
# (the guest's /tmp is new every boot; host tests name their own)
LOCKEV_ACC=${COOL_LOCKEVENTS_ACC:-/tmp/lockevents.acc}
lockev_started=0

lockevents_reset() {
	[ -w "$LOCKEV/.reset_counts" ] || return 0
	if [ "$lockev_started" = 1 ]; then
		mkdir -p "$LOCKEV_ACC"
		for f in "$LOCKEV"/*; do
			[ -f "$f" ] || continue
			v=$(lockev_value "$f" all)
			echo "$v" > "$LOCKEV_ACC/${f##*/}"
		done
	fi
	lockev_started=1
	echo 1 > "$LOCKEV/.reset_counts"
}

# lockev_value FILE [all]: a counter's value now (its integer part), with
# all plus what the accumulator holds for it
lockev_value() {
	v=$(cat "$1" 2>/dev/null)
	case $v in '' | *[!0-9.]*) v=0 ;; esac
	v=${v%%.*}
	if [ "${2:-}" = all ]; then
		a=$(cat "$LOCKEV_ACC/${1##*/}" 2>/dev/null || echo 0)
		v=$((v + a))
	fi
	echo "$v"
}

# do_lockevents NAMES LABEL [all]: the counts since the last reset, LABEL
# the token that ran since; with all, since the first token.
do_lockevents() {
	names=$(echo "$1" | tr ',' ' ')
	lockev_mode=${3:-}
	pre=lockevents.$2
	[ "$lockev_mode" != all ] || pre=lockevents.all
	case $lockev_mode in '' | all) ;; *) diag "lockevents: unknown mode '$lockev_mode' (all)"; result FAIL "$pre"; return ;; esac
	[ -n "$names" ] || { diag "lockevents: no counter named"; result FAIL "$pre"; return; }
	if [ ! -d "$LOCKEV" ]; then
		diag "$pre: no $LOCKEV (CONFIG_LOCK_EVENT_COUNTS off, or no debugfs)"
		for nm in $names; do result FAIL "$pre.$nm"; done
		return
	fi
	all=''
	for f in "$LOCKEV"/*; do
		[ -f "$f" ] && all="$all ${f##*/}=$(lockev_value "$f" "$lockev_mode")"
	done
	diag "$pre:$all"
	for nm in $names; do
		sum=0 found='' parts=''
		# CASE=C1+C2: the sum of those counters, named exactly;
		# NAME: every counter whose name starts with NAME
		case $nm in
		*=*) files=''
			for c in $(echo "${nm#*=}" | tr '+' ' '); do files="$files $LOCKEV/$c"; done
			nm=${nm%%=*} ;;
		*) files="$LOCKEV/$nm*" ;;
		esac
		for f in $files; do
			[ -f "$f" ] || continue
			v=$(lockev_value "$f" "$lockev_mode")
			found=1 parts="$parts ${f##*/}=$v"
			sum=$((sum + v))
		done
		if [ -z "$found" ]; then
			diag "$pre.$nm: no counter $nm* (the pv_* ones exist only while paravirt spinlocks are on)"
			result FAIL "$pre.$nm"
		elif [ "$sum" -gt 0 ]; then
			diag "$pre.$nm: total=$sum ($parts )"
			result OK "$pre.$nm"
		else
			diag "$pre.$nm: total=0 ($parts )"
			result FAIL "$pre.$nm"
		fi
	done
}

do_lockdep_selftests() {
	name=lockdep_selftests
	line=$(dmesg | grep -E 'Good, all [0-9]+ testcases passed|testcases failed|unexpected failures' | head -1)
	if [ -z "$line" ]; then
		result SKIP "$name" "no locking API selftest output (CONFIG_DEBUG_LOCKING_API_SELFTESTS off?)"
	elif echo "$line" | grep -q 'Good, all'; then
		diag "$name: ${line#*] }"
		result OK "$name"
	else
		diag "$name: ${line#*] }"
		result FAIL "$name"
	fi
}

do_bench() {
	what=$1
	args=$(echo "${2:-}" | tr ',' ' ')
	mark_log
	# shellcheck disable=SC2086
	load test_cool_spinlock "bench=$what" "$(irqwait_param)" $args
	rc=$?
	new_log > "$tmp/log"
	rmmod test_cool_spinlock 2>/dev/null
	module_ktap | grep -v '^#' | sed 's/^/# bench: /'
	if [ "$rc" = 0 ]; then
		result OK "bench.$what"
	else
		diag "bench.$what: $(cat "$tmp/insmod")"
		result FAIL "bench.$what"
	fi
}

# Lock-heavy user-space loops; under -icount guest ns count instructions.
do_workload() {
	if [ ! -x /bin/lockload ]; then
		result SKIP workload "no /bin/lockload (built for x86_64 guests only)"
		return
	fi
	/bin/lockload ${1:+"$1"} > "$tmp/workload" 2>&1
	rc=$?
	cat "$tmp/workload"
	if [ "$rc" = 0 ]; then
		result OK workload
	else
		diag "workload: lockload exited $rc"
		result FAIL workload
	fi
}

# skip_token REASON: the token being run ($kind, $rest, $token) as one
# SKIP, named as its cases would be, then its "# done:" line.
skip_token() {
	name=$kind
	[ -z "$rest" ] || name="$kind.$(echo "$rest" | cut -d: -f1 | tr , _)"
	[ "$kind" != negative ] || name="negative_control.$rest"
	result SKIP "$name" "$1"
	echo "# done: $token"
}

[ $# -gt 0 ] || { echo "usage: run.sh TOKEN..." >&2; exit 2; }

echo "KTAP version 1"
echo "# tokens: $*"
label=start
for token in "$@"; do
	echo "# running: $token"
	case_t0=$(now_cs)
	kind=${token%%:*}
	rest=""
	case "$token" in *:*) rest=${token#*:} ;; esac
	a1=$(echo "$rest" | cut -s -d: -f1)
	[ -z "$a1" ] && a1=$rest
	a2=$(echo "$rest" | cut -s -d: -f2)
	a3=$(echo "$rest" | cut -s -d: -f3-)
	# the lock event counts of each token, for a lockevents token after it
	if [ "$kind" != lockevents ]; then
		lockevents_reset
		label=$kind
		[ "$kind" != locktorture ] || label=$a1
	fi
	if [ "${COOL_SERIES:-1}" = 0 ]; then
		case "$kind" in
		selftest|negative|kunit|tracepoint|bench)
			skip_token "kernel ${KERNEL:-?} built without the series (the ${KERNEL:-?} series is empty): test_cool_spinlock.ko and cool_spinlock_kunit.ko do not exist"
			continue ;;
		esac
	fi
	# COOL_TESTMOD=0 (/scenario.env, scripts/lib.sh select_kernel): the
	# kernel has no test_cool_spinlock.ko, neither in its series (7.3's
	# carries only KUnit suites and locktorture cases, as upstream wants
	# them) nor built out of tree by the project (selftests/kmod)
	if [ "${COOL_TESTMOD:-1}" = 0 ]; then
		case "$kind:$rest" in
		negative:kunit) ;;
		selftest:*|negative:*|tracepoint:*|bench:*)
			skip_token "kernel ${KERNEL:-?} has no test_cool_spinlock.ko (COOL_TESTMOD=0)"
			continue ;;
		esac
	fi
	case "$kind" in
	selftest)	do_selftest "$rest" ;;
	tracepoint)	do_tracepoint ;;
	negative)	do_negative "$rest" ;;
	locktorture)	do_locktorture "$a1" "$a2" "$a3" ;;
	bench)		do_bench "$a1" "$a2" ;;
	lockdep_selftests) do_lockdep_selftests ;;
	kunit)		do_kunit ;;
	workload)	do_workload "$rest" ;;
	lockevents)	do_lockevents "$a1" "$label" "$a2" ;;
	*)		diag "unknown token '$token'"; result FAIL "token.$kind" ;;
	esac
	echo "# done: $token"
done

echo "# Totals: pass:$pass fail:$fail skip:$skip"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
