# ktap2json.awk - results.json of a run from its KTAP (selftests/run.sh).
#
#   awk -v stamp=S -v meta=FILE -f selftests/ktap2json.awk results/S/ktap.log
#
# meta: one line per scenario, "NAME KERNEL SCENARIO VERDICT SECONDS DIR"
# (run.sh writes it; NAME is KERNEL-SCENARIO, the KTAP test's name; DIR is
# "-" for a scenario that was skipped).
# Output: one JSON object:
#   { "format": "cool-spinlock-results/2", "run": S,
#     "totals": {"pass": N, "fail": N, "skip": N},
#     "scenarios": [ { "name", "kernel", "scenario", "verdict", "seconds",
#                      "results_dir", "status": "pass"|"fail"|"skip",
#                      "reason": text (a skipped scenario's),
#                      "cases": [ { "name", "status": "pass"|"fail"|"skip"|
#                                   "timeout"|"crash", "duration_s": number
#                                   or null, "directive": text,
#                                   "diagnostics": [text...],
#                                   "figures": {key: number or text} } ] } ] }
# A case's diagnostics are the "# ..." lines between the previous result
# and its own; its figures are the key=value pairs in them (the test
# module's and the runner's measurements); duration_s comes from the
# guest's "# time: NAME SECONDS" line after the result.
# Format 2 (this one) added kernel and scenario: format 1's name was the
# scenario alone, with every scenario on Linux 6.12.

function jstr(s) {
	gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, "\\t", s)
	gsub(/[\001-\037]/, "", s)
	return "\"" s "\""
}
function jval(v) {
	if (v ~ /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/) return v
	return jstr(v)
}
function figures(d,    n, parts, j, k, kv, figs, sep, seen) {
	figs = ""; sep = ""
	n = split(d, parts, /[ ,]+/)
	for (j = 1; j <= n; j++) {
		if (parts[j] !~ /^[A-Za-z_][A-Za-z0-9_.]*=[^=]+$/) continue
		k = parts[j]; sub(/=.*/, "", k)
		kv = parts[j]; sub(/^[^=]*=/, "", kv); sub(/[;:)]+$/, "", kv)
		if (k in seen) continue
		seen[k] = 1
		figs = figs sep jstr(k) ": " jval(kv); sep = ", "
	}
	return figs
}
function flush_scenario(    i, cases, f) {
	if (sname == "") return
	cases = ""
	for (i = 1; i <= nc; i++) {
		f = figures(cfig[i])
		cases = cases (i > 1 ? ",\n" : "") "        {\"name\": " jstr(cn[i]) ", \"status\": " jstr(cs[i]) \
			", \"duration_s\": " (cd[i] == "" ? "null" : cd[i]) ", \"directive\": " jstr(cdir[i]) \
			", \"diagnostics\": [" cdiag[i] "], \"figures\": {" f "}}"
	}
	out = out (nsc++ ? ",\n" : "") "    {" head(sname) ", \"status\": " jstr(sstatus) ",\n      \"cases\": [\n" cases "\n      ]}"
	sname = ""; nc = 0; pdiag = ""; pfig = ""
}
function head(n) {
	return "\"name\": " jstr(n) ", \"kernel\": " jstr(kern[n]) ", \"scenario\": " jstr(scen[n]) \
		", \"verdict\": " jstr(verdict[n]) ", \"seconds\": " (secs[n] == "" ? "null" : secs[n]) \
		", \"results_dir\": " (rdir[n] == "-" || rdir[n] == "" ? "null" : jstr(rdir[n]))
}
BEGIN {
	while ((getline l < meta) > 0) {
		split(l, m, " ")
		kern[m[1]] = m[2]; scen[m[1]] = m[3]; verdict[m[1]] = m[4]; secs[m[1]] = m[5]; rdir[m[1]] = m[6]
	}
}
/^    # Subtest: / { flush_scenario(); sname = substr($0, 16); sstatus = "fail"; next }
/^    # time: / {
	split(substr($0, 13), t, " ")
	if (nc > 0 && t[1] == cn[nc] && t[2] ~ /^[0-9.]+$/) cd[nc] = t[2] + 0
	next
}
/^    # (running|done|tokens): / { next }
/^    (not )?ok [0-9]+ / {
	line = substr($0, 5)
	st = (line ~ /^not ok/) ? "fail" : "pass"
	rest = line; sub(/^(not )?ok [0-9]+ /, "", rest)
	nm = rest; sub(/ .*/, "", nm)
	dir = ""
	if (rest ~ / # /) { dir = rest; sub(/^[^#]* # /, "", dir) }
	if (dir ~ /^SKIP/) st = "skip"
	else if (dir ~ /^TIMEOUT/) st = "timeout"
	else if (dir ~ /^CRASH/) st = "crash"
	nc++
	cn[nc] = nm; cs[nc] = st; cdir[nc] = dir; cd[nc] = ""
	cdiag[nc] = pdiag; cfig[nc] = pfig
	pdiag = ""; pfig = ""
	tot[st == "pass" ? "pass" : st == "skip" ? "skip" : "fail"]++
	next
}
/^    # / {
	d = substr($0, 7)
	pdiag = pdiag (pdiag == "" ? "" : ", ") jstr(d)
	pfig = pfig " " d
	next
}
/^(not )?ok [0-9]+ / {
	# a scenario skipped as a whole: no subtest, "ok N NAME # SKIP reason"
	if (sname == "" && $0 ~ /^ok [0-9]+ [^ ]+ # SKIP/) {
		n = $3; why = $0; sub(/^[^#]*# SKIP ?/, "", why)
		out = out (nsc++ ? ",\n" : "") "    {" head(n) ", \"status\": \"skip\", \"reason\": " jstr(why) ",\n      \"cases\": []}"
		tot["skip"]++
		next
	}
	if (sname != "") sstatus = ($0 ~ /^ok/) ? "pass" : "fail"
	flush_scenario()
}
END {
	flush_scenario()
	printf "{\"format\": \"cool-spinlock-results/2\", \"run\": %s,\n", jstr(stamp)
	printf "  \"totals\": {\"pass\": %d, \"fail\": %d, \"skip\": %d},\n", tot["pass"], tot["fail"], tot["skip"]
	printf "  \"scenarios\": [\n%s\n  ]}\n", out
}
