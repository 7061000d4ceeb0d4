#!/bin/bash
# judge.sh - judge a guest's console log, like rcutorture's parse-console.sh
# and blktests' dmesg check.
#
# Usage: qemu-boot/judge.sh [--help] CONSOLE_LOG
#
# Badness: Kernel panic, Oops, WARNING:, BUG:, general protection,
# inconsistent lock state, possible recursive locking, circular locking
# dependency, rcu.*stall, soft lockup, hard LOCKUP, -torture.*!!!, Call Trace:.
# The offending lines are printed (at most 20).  A log without the guest's
# 'COOL-EXIT:' sentinel means the guest hung or died before reporting.
#
# Exit codes: 0 clean, 2 badness found, 3 no COOL-EXIT sentinel (and no
# badness), 5 bad usage / unreadable log.
set -u
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

case ${1:-} in
-h | --help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
'') usage_error "missing CONSOLE_LOG" ;;
esac
[ $# -eq 1 ] || usage_error "one CONSOLE_LOG expected"
log=$1
[ -r "$log" ] || die_rc "$E_USAGE" "cannot read console log $log"

BADNESS='Kernel panic|Oops|WARNING:|BUG:|general protection|inconsistent lock state|possible recursive locking|circular locking dependency|rcu.*stall|soft lockup|hard LOCKUP|-torture.*!!!|Call Trace:'

bad=$(tr -d '\r' <"$log" | grep -aE -n -- "$BADNESS" || true)
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
