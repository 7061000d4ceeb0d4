# scenario-ktap.awk - one scenario's nested KTAP from what its boot left:
# the guest runner's streamed KTAP (serial 1) and the console log (serial 0).
# Used by selftests/run.sh; tested by selftests/host/ktap-test.sh.
#
#   awk -v name=S -v booted=0|1 -v verdict=V -v jok=0|1 -v jfile=F \
#       -v nwarn=N -v wfile=F -v console=F -v qemuout=F [-v efile=F] \
#       -f selftests/scenario-ktap.awk ktap.log
#
# The guest prints each result the moment a case ends, "# running: TOKEN"
# before a token and "# done: TOKEN" after it.  When the guest never reached
# COOL-EXIT (booted=0), the results it streamed are kept; the cases a test
# module finished before the guest stopped are taken from the console
# (its "cool-ktap:" lines, printed by the kernel as each case ends); the
# token that was running becomes "not ok N TOKEN # TIMEOUT" (verdict HANG)
# or "# CRASH" (otherwise); a guest that printed nothing at all gets
# "not ok 1 boot # <verdict>" with QEMU's first message lines.
# Then the cases of the lines the console had to show (efile: boot.sh's
# console-expect.txt, "ok|not ok console.NAME<TAB>STRING" lines; skipped
# when the kernel did not boot) and three cases of the host: booted,
# kernel_log_clean, build_no_warnings (the last two skipped, never passed,
# when the kernel did not boot).
# Output: the subtest, indented 4; "pass fail skip" of its cases on fd 3.

function emit(line) { body[++nb] = line }
function count(line) {
	if (line ~ /# *SKIP/) skip++
	else if (line ~ /^not ok/) fail++
	else pass++
}
function module_prefix(token) {
	if (token ~ /^selftest/) return "selftest"
	if (token ~ /^negative:/) { sub(/^negative:/, "", token); return "negative_control." token }
	if (token ~ /^bench:/) { sub(/^bench:/, "", token); sub(/:.*/, "", token); return "bench." token }
	return ""
}
# The result lines of the last test module run in the console log, as
# "PREFIX.case" results numbered on from maxn.
function recover_module(prefix,    l, n, lines, i, m, rest, nm) {
	n = 0
	while ((getline l < console) > 0) {
		sub(/\r$/, "", l)
		if (l !~ /cool-ktap: /) continue
		sub(/.*cool-ktap: /, "", l)
		if (l ~ /^KTAP version/) { n = 0; continue }
		lines[++n] = l
	}
	close(console)
	for (i = 1; i <= n; i++) {
		l = lines[i]
		if (l !~ /^(not )?ok [0-9]+ /) continue
		m = (l ~ /^not ok/) ? "not ok" : "ok"
		rest = l
		sub(/^(not )?ok [0-9]+ /, "", rest)
		nm = rest
		sub(/ .*/, "", nm)
		sub(/^[^ ]*/, "", rest)
		if (rest == "") rest = " # from the console log: the guest stopped before reporting it"
		maxn++
		l = m " " maxn " " prefix "." nm rest
		emit(l)
		count(l)
	}
}
/^COOL-EXIT:/ { next }
/^[[:space:]]*(KTAP|TAP) version/ && !started && $0 !~ /^[[:space:]]/ { started = 1; next }
/^1\.\.[0-9]+/ && !plan { plan = $0; sub(/^1\.\./, "", plan); plan += 0; next }
/^# running: / { running = substr($0, 12) }
/^# done: / { running = "" }
{ emit($0) }
/^(not )?ok / {
	count($0)
	split($0, f, " ")
	num = ($1 == "not") ? f[3] : f[2]
	if (num + 0 > maxn) maxn = num + 0
	any = 1
}
END {
	if (booted != 1) {
		why = (verdict == "HANG") ? "TIMEOUT" : "CRASH"
		if (running != "") {
			p = module_prefix(running)
			if (p != "") recover_module(p)
			l = "not ok " ++maxn " " running " # " why " (" verdict ")"
			emit(l); count(l)
		} else if (!any) {
			emit("# the guest runner reported nothing; QEMU said:")
			while ((getline q < qemuout) > 0 && nq < 5) { nq++; emit("# qemu: " q) }
			l = "not ok " ++maxn " boot # " verdict
			emit(l); count(l)
		}
	}
	n = (plan > maxn) ? plan : maxn
	# the lines the console had to show (boot.sh, CONSOLE_EXPECT)
	ne = 0
	if (efile != "")
		while ((getline l < efile) > 0) {
			if (l !~ /^(not )?ok [^\t]+\t/) continue
			et = index(l, "\t")
			ename[++ne] = substr(l, 1, et - 1); sub(/^(not )?ok /, "", ename[ne])
			eok[ne] = (l !~ /^not /); estr[ne] = substr(l, et + 1)
		}
	print "    KTAP version 1"
	print "    # Subtest: " name
	print "    1.." n + ne + 3
	for (i = 1; i <= nb; i++) print "    " body[i]
	for (i = 1; i <= ne; i++) {
		if (booted != 1) { print "    ok " ++n " " ename[i] " # SKIP the kernel did not boot"; skip++ }
		else if (eok[i]) { print "    ok " ++n " " ename[i]; pass++ }
		else { print "    # the console does not show '" estr[i] "'"; print "    not ok " ++n " " ename[i]; fail++ }
	}
	while ((getline l < jfile) > 0) print "    # " l
	if (booted == 1) { print "    ok " n + 1 " booted"; pass++ }
	else { print "    not ok " n + 1 " booted # no COOL-EXIT on the console"; fail++ }
	if (jok == 1 && booted != 1) { print "    ok " n + 2 " kernel_log_clean # SKIP the kernel did not boot"; skip++ }
	else if (jok == 1) { print "    ok " n + 2 " kernel_log_clean"; pass++ }
	else { print "    not ok " n + 2 " kernel_log_clean"; fail++ }
	if (booted != 1) { print "    ok " n + 3 " build_no_warnings # SKIP the kernel did not boot"; skip++ }
	else if (nwarn == 0) { print "    ok " n + 3 " build_no_warnings"; pass++ }
	else { print "    # " nwarn " warning line(s) in " wfile; print "    not ok " n + 3 " build_no_warnings"; fail++ }
	printf "%d %d %d\n", pass, fail, skip > "/dev/fd/3"
}
