# known-warnings.awk - print the line numbers of the kernel WARNING reports
# raised at a known site, so that a judge can leave them out.
#
# Usage: awk -v known='FILE:LINE ...' -f known-warnings.awk LOG
#
# A report runs from its title, "WARNING: CPU: N PID: N at FILE:LINE func",
# to its "---[ end trace" line; it is known when FILE:LINE is in the list.
# Used by qemu-boot/judge.sh (the console log) and by the guest runner
# (each case's dmesg), for scenarios whose KNOWN_WARNINGS name a site that
# the same kernel with COOL off hits too. The report ends early at the title
# of any other report, and after 100 lines, so that nothing else is hidden;
# an Oops, a BUG or a panic is never known.
BEGIN {
	n = split(known, k, " ")
	for (i = 1; i <= n; i++)
		site[k[i]] = 1
	inrep = 0
}
/WARNING:|Oops|BUG:|Kernel panic|general protection|inconsistent lock state|possible recursive locking|circular locking dependency|soft lockup|hard LOCKUP|rcu.*stall|-torture.*!!!/ {
	inrep = 0
	if ($0 ~ /WARNING: CPU: [0-9]+ PID: [0-9]+ at [^ ]+:[0-9]+/) {
		s = $0
		sub(/.*WARNING: CPU: [0-9]+ PID: [0-9]+ at /, "", s)
		sub(/ .*/, "", s)
		if (s in site) {
			inrep = 1
			len = 0
		}
	}
}
inrep {
	print NR
	if ($0 ~ /---\[ end trace/ || ++len >= 100)
		inrep = 0
}
