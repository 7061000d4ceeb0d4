#!/bin/bash
# judge.sh - judge a guest's console log, like rcutorture's parse-console.sh
# and blktests' dmesg check.
#
# Usage: qemu-boot/judge.sh [--kcsan-scope REGEX] [--known-warnings LIST] [--help] CONSOLE_LOG
#   --kcsan-scope REGEX  judge only the KCSAN reports that name code matching
#                        REGEX (extended regex, matched against the report's
#                        title and stack frames; env COOL_KCSAN_SCOPE; default
#                        empty: every report is badness).  The kcsan scenario
#                        sets it to the lock code (KCSAN_SCOPE).  Reports
#                        outside the scope are listed, never hidden.
#   --known-warnings LIST  FILE:LINE sites (space-separated; env
#                        COOL_KNOWN_WARNINGS; default empty) of kernel
#                        WARNINGs that the same kernel with COOL off raises
#                        too (a scenario's KNOWN_WARNINGS): their reports,
#                        title to '---[ end trace', are listed, not judged
#                        (selftests/guest/known-warnings.awk). An Oops, a
#                        BUG or a panic is always badness.
#
# Badness: Kernel panic, Oops, WARNING:, BUG:, general protection,
# inconsistent lock state, possible recursive locking, circular locking
# dependency, rcu.*stall, soft lockup, hard LOCKUP, -torture.*!!!, Call Trace:;
# and from the Xen hypervisor of a HOST=xen scenario, whose lines share the
# console with dom0's and start with "(XEN) ": Panic on CPU, Xen BUG at,
# Xen WARN at, Assertion ... failed, FATAL TRAP, FATAL PAGE FAULT, DOUBLE
# FAULT, Watchdog timer detects ... stuck, and a crashed dom0 ("Hardware
# Dom0 crashed", "Domain 0 crashed").
# The offending lines are printed (at most 20).  A log without the guest's
# 'COOL-EXIT:' sentinel means the guest hung or died before reporting.
#
# Exit codes: 0 clean, 2 badness found, 3 no COOL-EXIT sentinel (and no
# badness), 5 bad usage / unreadable log.
set -u
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

scope=${COOL_KCSAN_SCOPE:-} known=${COOL_KNOWN_WARNINGS:-} log=''
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) show_help; exit 0 ;;
	--kcsan-scope) [ $# -ge 2 ] || usage_error "--kcsan-scope needs a value"; scope=$2; shift ;;
	--kcsan-scope=*) scope=${1#*=} ;;
	--known-warnings) [ $# -ge 2 ] || usage_error "--known-warnings needs a value"; known=$2; shift ;;
	--known-warnings=*) known=${1#*=} ;;
	-*) usage_error "unknown option $1" ;;
	*) [ -z "$log" ] || usage_error "one CONSOLE_LOG expected"; log=$1 ;;
	esac
	shift
done
[ -n "$log" ] || usage_error "missing CONSOLE_LOG"
[ -r "$log" ] || die_rc "$E_USAGE" "cannot read console log $log"
if [ -n "$scope" ]; then
	rc=0
	printf '' | grep -aE -- "$scope" >/dev/null 2>&1 || rc=$?
	[ "$rc" -le 1 ] || usage_error "--kcsan-scope: bad extended regex '$scope'"
fi

BADNESS='Kernel panic|Oops|WARNING:|BUG:|general protection|inconsistent lock state|possible recursive locking|circular locking dependency|rcu.*stall|soft lockup|hard LOCKUP|-torture.*!!!|Call Trace:'
# Xen's own (HOST=xen): its lines start with "(XEN) ", mid-line when dom0
# had printed part of one
BADNESS="$BADNESS|\\(XEN\\) (Panic on CPU|Xen BUG at|Xen WARN at|Assertion .* failed|FATAL TRAP|FATAL PAGE FAULT|.*DOUBLE FAULT|Watchdog timer detects|Hardware Dom0 crashed|Domain 0 crashed)"

# Line numbers of the titles of KCSAN reports outside the scope. A report
# runs from its "BUG: KCSAN:" title to the next line of '='; it is in scope
# if its title or one of its stack frames ("  func+0x1/0x2 [mod]") matches.
outside=''
if [ -n "$scope" ]; then
	outside=$(tr -d '\r' <"$log" | awk -v scope="$scope" '
		function flush() { if (title && !hit) print title; title = 0 }
		/BUG: KCSAN:/ { flush(); title = NR; hit = ($0 ~ scope); next }
		title && /==========/ { flush(); next }
		title && /^(\[[ 0-9.]+\])? +[A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+\/0x[0-9a-f]+/ && $0 ~ scope { hit = 1 }
		END { flush() }')
fi

# Line numbers of the reports of known WARNING sites.
known_lines=''
if [ -n "$known" ]; then
	known_lines=$(tr -d '\r' <"$log" |
		awk -v known="$known" -f "$REPO_ROOT/selftests/guest/known-warnings.awk")
fi

skip=" $(printf '%s\n%s\n' "$outside" "$known_lines" | tr '\n' ' ') "
bad=$(tr -d '\r' <"$log" | grep -aE -n -- "$BADNESS" |
	awk -F: -v skip="$skip" 'index(skip, " " $1 " ") == 0' || true)
if [ -n "$known_lines" ]; then
	titles=$(tr -d '\r' <"$log" | awk -v lines=" $(echo "$known_lines" | tr '\n' ' ') " \
		'index(lines, " " NR " ") && /WARNING:/ { print "  " NR ":" $0 }')
	echo "known warnings (sites: $known), listed, not judged ($(printf '%s\n' "$titles" | wc -l)):"
	printf '%s\n' "$titles" | head -n 20
fi
if [ -n "$outside" ]; then
	n=$(printf '%s\n' "$outside" | wc -l)
	echo "KCSAN reports outside the scope /$scope/, not judged ($n):"
	for l in $outside; do
		printf '  %s:%s\n' "$l" "$(tr -d '\r' <"$log" | sed -n "${l}p")"
	done | head -n 20
fi
if [ -n "$bad" ]; then
	n=$(printf '%s\n' "$bad" | wc -l)
	echo "kernel badness in $log ($n line(s)):"
	printf '%s\n' "$bad" | head -n 20 | sed 's/^/  /'
	[ "$n" -le 20 ] || echo "  ... $((n - 20)) more"
	exit "$E_BADNESS"
fi
if ! grep -aq 'COOL-EXIT:' "$log"; then
	echo "no COOL-EXIT: in $log: the guest hung or died before reporting"
	echo "  last console line: $(tr -d '\r' <"$log" | grep -av '^[[:space:]]*$' | tail -n 1)"
	exit "$E_HANG"
fi
exit 0
