#!/bin/bash
# run.sh - host-side suite runner: build, boot and judge each scenario, print
# one KTAP report, a summary table and the totals.  'make' and 'make test' use it.
#
# Usage: selftests/run.sh [--kernel VER] [--scenario A,B] [--tests 'TOKENS']
#                         [--timeout S] [--jobs N] [--dry-run] [--help]
#   --kernel VER     the kernel of the scenarios named without one: 7.3 or
#                    6.12 (env KERNEL; default scripts/lib.sh COOL_DEFAULT_KERNEL)
#   --scenario A,B   scenarios (qemu-boot/scenarios/*.conf), each NAME (on
#                    --kernel's kernel) or VER:NAME (on kernel VER: make test
#                    names both kernels' this way); env SCENARIO; default cool.
#                    A scenario whose KERNELS do not hold its kernel is a
#                    usage error before anything is built; one that wants
#                    COOL on, on a kernel whose series is empty (as 7.3's
#                    was before it landed), or a variant of the series
#                    without patches for that kernel's series, is reported as
#                    skipped, with that reason, and nothing is built for it
#   --tests TOKENS   guest runner arguments for every scenario (env COOL_TESTS;
#                    default: each scenario's TESTS)
#   --timeout S      guest timeout (env COOL_TIMEOUT; default: scenario's)
#   --jobs N         make -j (env JOBS)
#   --no-overlap     build each scenario only when its turn comes (env
#                    COOL_OVERLAP=0); default: the next scenario's kernel is
#                    built (nice 10) while the current one boots
#
# Stdout: KTAP.  Top level: one test per kernel and scenario, named VER-NAME
# (7.3-stock, 6.12-cool); inside it the guest's KTAP
# (selftests/guest/run.sh, read from serial 1) with three extra cases:
# 'booted' (COOL-EXIT reached), 'kernel_log_clean' (qemu-boot/judge.sh on the
# console log), 'build_no_warnings' (skipped when the kernel did not boot: a
# kernel that never booted passes no case).  A scenario whose
# build fails has the single case 'build' (or 'config' when options did not
# stick).  Then a table (kernel, scenario, verdict, pass/fail/skip, time,
# results dir) and the last line 'N passed, N failed, N skipped' over all
# cases of all scenarios (a skipped scenario counts as one skip).
# Everything is kept in results/<UTC date-time>/ (results/latest points there):
# ktap.log, summary.txt, <ver>-<scenario>/{build.log,warnings.txt,console.log,ktap.log,qemu-cmd,...}.
#
# Also results.json there (selftests/ktap2json.awk): kernel, scenario, case,
# status, duration, diagnostics and key=value figures of every case.
#
# Exit codes, kselftest's where it has one: 0 every scenario passed and its
# guest ran at least one case that was not skipped, 1 something failed, hung,
# did not build, or no case ran, 4 nothing failed but every guest case (or
# every scenario) was skipped, 5 bad usage.
set -eu
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

scenarios=${SCENARIO:-cool} tests=${COOL_TESTS:-} timeout_s=${COOL_TIMEOUT:-} jobs=${JOBS:-} dry_run=0
overlap=${COOL_OVERLAP:-1}
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) [ $# -ge 2 ] || usage_error "--kernel needs a value"; select_kernel "$2"; shift ;;
	--kernel=*) select_kernel "${1#*=}" ;;
	--scenario | --scenarios) [ $# -ge 2 ] || usage_error "$1 needs a value"; scenarios=$2; shift ;;
	--scenario=* | --scenarios=*) scenarios=${1#*=} ;;
	--tests) [ $# -ge 2 ] || usage_error "--tests needs a value"; tests=$2; shift ;;
	--tests=*) tests=${1#*=} ;;
	--timeout) [ $# -ge 2 ] || usage_error "--timeout needs a value"; timeout_s=$2; shift ;;
	--timeout=*) timeout_s=${1#*=} ;;
	--jobs) [ $# -ge 2 ] || usage_error "--jobs needs a value"; jobs=$2; shift ;;
	--jobs=*) jobs=${1#*=} ;;
	--no-overlap) overlap=0 ;;
	--dry-run) dry_run=1 ;;
	-h | --help) show_help; exit 0 ;;
	*) usage_error "unknown option $1" ;;
	esac
	shift
done

IFS=', ' read -r -a items <<<"$scenarios"
[ "${#items[@]}" -gt 0 ] || usage_error "no scenario given"
# list: VER-NAME of each item; kver_of / scen_of: its kernel and scenario
list=()
declare -A kver_of=() scen_of=()
for it in "${items[@]}"; do
	case $it in
	*:*) k=${it%%:*} s=${it#*:} ;;
	*) k=$KVER s=$it ;;
	esac
	(select_kernel "$k" && load_scenario "$s") || exit "$E_USAGE"
	qn="$k-$s"
	[ -z "${scen_of[$qn]:-}" ] || usage_error "scenario $s on kernel $k is asked for twice"
	list+=("$qn")
	kver_of[$qn]=$k scen_of[$qn]=$s
done
# use QN: select the kernel and load the scenario of run item QN
use() { select_kernel "${kver_of[$1]}" && load_scenario "${scen_of[$1]}"; }
# skip_reason: why the loaded scenario is not run on its kernel (empty: it
# is): a scenario that wants COOL on, on a kernel whose series is empty, or
# a variant of the series that has no patches for that kernel's series yet
skip_reason() {
	if [ "$USER_TREE" = 0 ] && ! kernel_has_series && scenario_wants_cool; then
		echo "the $KVER series (${PATCH_DIR#"$REPO_ROOT"/}/) is empty: nothing to build with COOL on"
	elif [ -n "$VARIANT" ] && ! variant_has_patches "$VARIANT"; then
		echo "variant $VARIANT has no patches for the $KVER series ($(variant_patch_dir "$VARIANT" | sed "s|^$REPO_ROOT/||")/)"
	fi
}
build_opts=() boot_opts=()
[ -z "$jobs" ] || build_opts+=(--jobs "$jobs")
[ -z "$tests" ] || boot_opts+=(--tests "$tests")
[ -z "$timeout_s" ] || boot_opts+=(--timeout "$timeout_s")

if [ "$dry_run" = 1 ]; then
	for qn in "${list[@]}"; do
		use "$qn"
		why=$(skip_reason)
		if [ -n "$why" ]; then
			echo "== kernel $KVER, scenario $SCENARIO ($qn): SKIP, $why"
			continue
		fi
		echo "== kernel $KVER, scenario $SCENARIO ($qn)"
		"$REPO_ROOT/scripts/build.sh" --kernel "$KVER" --scenario "$SCENARIO" ${build_opts[@]+"${build_opts[@]}"} --dry-run
		"$REPO_ROOT/qemu-boot/boot.sh" --kernel "$KVER" --scenario "$SCENARIO" ${boot_opts[@]+"${boot_opts[@]}"} --dry-run
	done
	echo "then: KTAP report, summary table, totals; results in results/<UTC date-time>/"
	exit 0
fi

stamp=$(run_stamp)
run_dir=$REPO_ROOT/results/$stamp
mkdir -p "$run_dir"
ln -sfn "$stamp" "$REPO_ROOT/results/latest"
export COOL_RUN_STAMP=$stamp
: >"$run_dir/ktap.log"
emit() { printf '%s\n' "$*" | tee -a "$run_dir/ktap.log"; }

# Guest KTAP of one scenario (selftests/scenario-ktap.awk): the guest's
# streamed results, what a hang or crash left (module cases from the
# console, the running token as TIMEOUT or CRASH), then booted,
# kernel_log_clean and build_no_warnings (warnings.txt of this run's build
# step: compiler and objtool), indented 4. A kernel that never booted passes
# nothing: booted fails and build_no_warnings is skipped.
# Prints "pass fail skip" counts of the top-level cases on fd 3.
subtest() {
	local name=$1 dir=$2 judge_ok=$3 verdict=$4 nwarn=0 booted=0
	[ ! -f "$dir/warnings.txt" ] || nwarn=$(wc -l <"$dir/warnings.txt")
	! grep -aq '^COOL-EXIT:' "$dir/console.log" 2>/dev/null || booted=1
	awk -v name="$name" -v jok="$judge_ok" -v jfile="$dir/judge.txt" -v nwarn="$nwarn" \
		-v wfile="$dir/warnings.txt" -v booted="$booted" -v verdict="$verdict" \
		-v console="$dir/console.log" -v qemuout="$dir/qemu.out" -v efile="$dir/console-expect.txt" \
		-f "$REPO_ROOT/selftests/scenario-ktap.awk" "$dir/ktap.log"
}

# A scenario whose pass is a failing boot (EXPECT_RC, a negative control of
# the harness itself or of a test): whether boot.sh reported what was
# expected, and, for a hang (EXPECT_HANG_TOKEN), whether the results
# streamed before it were kept and the hang names the token that was
# running; each case of EXPECT_FAIL must have failed ("not ok"), and no
# other case may have (only_expected_failures), so that a run that fails
# for another reason does not count.  JUDGE_OK is boot.sh's judgement of
# the console, as for subtest.  Prints "pass fail skip" on fd 3 like
# subtest.
expected_outcome() {
	local name=$1 dir=$2 rc=$3 verdict=$4 judge_ok=$5 ok=0 c n=1 k p=0 f=0 merged failed others
	for c in $EXPECT_RC; do [ "$c" != "$rc" ] || ok=1; done
	merged=$(subtest "$name" "$dir" "$judge_ok" "$verdict" 3>/dev/null)
	[ -z "$EXPECT_HANG_TOKEN" ] || n=3
	for c in $EXPECT_FAIL; do n=$((n + 1)); done
	[ -z "$EXPECT_FAIL" ] || n=$((n + 1))
	{
		echo "    KTAP version 1"
		echo "    # Subtest: $name"
		echo "    1..$n"
		echo "    # expected boot.sh exit: $EXPECT_RC; got $rc ($verdict)"
		tr -d '\r' <"$dir/console.log" | grep -av '^[[:space:]]*$' | tail -n 3 | sed 's/^/    # console: /'
		printf '%s\n' "$merged" | grep -E '^    (not )?ok ' | sed 's/^    /    # run: /'
		if [ "$ok" = 1 ]; then
			echo "    ok 1 expected_boot_outcome"; p=$((p + 1))
		else
			echo "    not ok 1 expected_boot_outcome"; f=$((f + 1))
		fi
		if [ -n "$EXPECT_HANG_TOKEN" ]; then
			# a result streamed before the hang, still there
			if printf '%s\n' "$merged" | sed '/# TIMEOUT/q' | grep -qE '^    ok [0-9]+ [a-z]'; then
				echo "    ok 2 results_before_hang_kept"; p=$((p + 1))
			else
				echo "    not ok 2 results_before_hang_kept"; f=$((f + 1))
			fi
			if printf '%s\n' "$merged" | grep -qF " $EXPECT_HANG_TOKEN # TIMEOUT"; then
				echo "    ok 3 hang_names_running_token"; p=$((p + 1))
			else
				echo "    not ok 3 hang_names_running_token"; f=$((f + 1))
			fi
		fi
		k=$((${EXPECT_HANG_TOKEN:+2} + 1))
		# the names of the cases that failed ("    not ok N NAME")
		failed=$(printf '%s\n' "$merged" | grep -E '^    not ok [0-9]+ ' | cut -d' ' -f8 || true)
		for c in $EXPECT_FAIL; do
			k=$((k + 1))
			if printf '%s\n' "$failed" | grep -qxF -- "$c"; then
				echo "    ok $k expected_fail.$c"; p=$((p + 1))
			else
				echo "    not ok $k expected_fail.$c"; f=$((f + 1))
			fi
		done
		if [ -n "$EXPECT_FAIL" ]; then
			k=$((k + 1))
			others=$(printf '%s\n' "$failed" | grep -vxF -f <(tr -s ' ' '\n' <<<"$EXPECT_FAIL") |
				grep . | tr '\n' ' ' || true)
			if [ -z "$others" ]; then
				echo "    ok $k only_expected_failures"; p=$((p + 1))
			else
				echo "    # failed too: $others"
				echo "    not ok $k only_expected_failures"; f=$((f + 1))
			fi
		fi
	} >"$run_dir/.expected"
	tee -a "$run_dir/ktap.log" <"$run_dir/.expected"
	rm -f "$run_dir/.expected"
	echo "$p $f 0" >&3
}

# Builds overlap boots: while scenario N boots, the next scenario with a
# build dir of its own is built in the background at nice 10 (the guest's
# vCPU threads keep their share), its output kept in .build-NAME.log and
# shown when its turn comes.  --no-overlap (COOL_OVERLAP=0): one at a time.
out_of() { (use "$1" && echo "$OUT"); }
declare -A built=() prebuild_pid=()
child=
prebuild_next() {
	local j o pid
	[ "$overlap" = 1 ] || return 0
	# one background build at a time
	for pid in "${prebuild_pid[@]}"; do
		! kill -0 "$pid" 2>/dev/null || return 0
	done
	for ((j = $1; j < ${#list[@]}; j++)); do
		o=$(out_of "${list[$j]}")
		[ -z "${built[$o]:-}" ] || continue
		[ -z "$( (use "${list[$j]}" && skip_reason) )" ] || continue
		built[$o]=1
		(
			rc=0
			# a session of its own, so that a stop can kill make and all
			# shellcheck disable=SC2016 # $$ is the new session's shell
			setsid sh -c 'echo $$ >"$1"; shift; exec nice -n 10 "$@"' sh "$run_dir/.build-${list[$j]}.pgid" \
				"$REPO_ROOT/scripts/build.sh" --kernel "${kver_of[${list[$j]}]}" --scenario "${scen_of[${list[$j]}]}" ${build_opts[@]+"${build_opts[@]}"} \
				>"$run_dir/.build-${list[$j]}.log" 2>&1 || rc=$?
			echo "$rc" >"$run_dir/.build-${list[$j]}.rc"
		) &
		prebuild_pid[${list[$j]}]=$!
		info "building ${list[$j]} in the background while $2 boots"
		return 0
	done
}

i=0 tot_pass=0 tot_fail=0 tot_skip=0 guest_cases=0 guest_skips=0 any_bad=0 skipped=0
rows=()
# Stopped or done: no background build outlives the run.
# shellcheck disable=SC2317 # called by the traps
kill_prebuilds() {
	local s pg
	# the build or boot in progress (boot.sh stops its QEMU on TERM)
	[ -z "$child" ] || kill -TERM -- "-$child" 2>/dev/null || kill "$child" 2>/dev/null || true
	for s in "${!prebuild_pid[@]}"; do
		kill "${prebuild_pid[$s]}" 2>/dev/null || true
	done
	# every background build's session, whatever the array says
	for s in "$run_dir"/.build-*.pgid; do
		[ -f "$s" ] || continue
		pg=$(cat "$s" 2>/dev/null || true)
		[ -z "$pg" ] || kill -TERM -- "-$pg" 2>/dev/null || true
		rm -f "${s%.pgid}".*
	done
}
trap kill_prebuilds EXIT
trap 'warn "interrupted"; exit 130' INT TERM
emit "KTAP version 1"
emit "1..${#list[@]}"
for s in "${list[@]}"; do
	i=$((i + 1))
	use "$s"
	t0=$(date +%s)
	why=$(skip_reason)
	if [ -n "$why" ]; then
		skipped=$((skipped + 1)) tot_skip=$((tot_skip + 1))
		emit "ok $i $s # SKIP $why"
		printf '%s %s %s %s %s %s\n' "$s" "$KVER" "$SCENARIO" SKIP 0 - >>"$run_dir/.meta"
		rows+=("$(printf '%-6s %-14s %-11s %5s %5s %5s %6ss  %s' "$KVER" "$SCENARIO" SKIP 0 0 1 0 "$why")")
		continue
	fi
	dir=$run_dir/$s
	mkdir -p "$dir"
	brc=0
	if [ -n "${prebuild_pid[$s]:-}" ]; then
		wait "${prebuild_pid[$s]}" || true
		unset "prebuild_pid[$s]"
		brc=$(cat "$run_dir/.build-$s.rc" 2>/dev/null || echo 1)
		cat "$run_dir/.build-$s.log" >&2
		rm -f "$run_dir/.build-$s.log" "$run_dir/.build-$s.rc" "$run_dir/.build-$s.pgid"
	else
		built[$(out_of "$s")]=1
		# in the background and waited for, so that a stop signal is
		# handled at once (bash defers traps until a foreground child ends)
		setsid "$REPO_ROOT/scripts/build.sh" --kernel "$KVER" --scenario "$SCENARIO" ${build_opts[@]+"${build_opts[@]}"} &
		child=$!
		wait "$child" || brc=$?
		child=
	fi
	use "$s"
	for f in build.log warnings.txt config.log; do
		[ ! -f "$OUT/$f" ] || cp "$OUT/$f" "$dir/"
	done
	if [ "$brc" != 0 ]; then
		p=0 fl=1 sk=0
		if [ "$brc" = 2 ]; then
			verdict=CONFIG-FAIL step=config why="requested options did not stick, see $dir/config.log and the messages above"
		else
			verdict=BUILD-FAIL step=build why="series, config or make failed (rc $brc), see $dir/build.log"
		fi
		emit "    KTAP version 1"
		emit "    # Subtest: $s"
		emit "    1..1"
		emit "    # $why"
		emit "    not ok 1 $step"
	else
		rc=0
		prebuild_next "$i" "$s"
		"$REPO_ROOT/qemu-boot/boot.sh" --kernel "$KVER" --scenario "$SCENARIO" --results-dir "$dir" ${boot_opts[@]+"${boot_opts[@]}"} &
		child=$!
		wait "$child" || rc=$?
		child=
		verdict=$(sed -n 's/^verdict=//p' "$dir/result" 2>/dev/null || true)
		[ -n "$verdict" ] || verdict="BOOT-ERROR($rc)"
		[ -f "$dir/ktap.log" ] || : >"$dir/ktap.log"
		# boot.sh's judgement (judge.sh with the scenario's KCSAN_SCOPE)
		judge_ok=0
		[ "$(sed -n 's/^judge_rc=//p' "$dir/result" 2>/dev/null)" != 0 ] || judge_ok=1
		[ -f "$dir/judge.txt" ] || echo "no judge.txt: boot.sh exit $rc" >"$dir/judge.txt"
		if [ "$EXPECT_RC" != 0 ]; then
			expected_outcome "$s" "$dir" "$rc" "$verdict" "$judge_ok" 3>"$run_dir/.counts"
			read -r p fl sk <"$run_dir/.counts"
			# a negative control's cases are what it ran
			guest_cases=$((guest_cases + p + fl))
			[ "$fl" != 0 ] || verdict="EXPECTED-$verdict"
		else
			subtest "$s" "$dir" "$judge_ok" "$verdict" 3>"$run_dir/.counts" | tee -a "$run_dir/ktap.log"
			read -r p fl sk <"$run_dir/.counts"
			# the host's cases: booted, kernel_log_clean,
			# build_no_warnings and those of CONSOLE_EXPECT
			nhost=3
			[ ! -s "$dir/console-expect.txt" ] || nhost=$((3 + $(grep -c . "$dir/console-expect.txt")))
			guest_cases=$((guest_cases + p + fl + sk - nhost))
			guest_skips=$((guest_skips + sk))
			# the guest passed but a harness case (build_no_warnings,
			# kernel_log_clean) failed: the scenario did not pass
			[ "$fl" = 0 ] || [ "$verdict" != PASS ] || verdict=FAIL
			if [ $((p + fl + sk - nhost)) -le 0 ] && [ "$verdict" = PASS ]; then
				verdict=NO-CASES
				emit "    # the guest runner reported no test case"
			fi
		fi
		rm -f "$run_dir/.counts"
		if [ "$rc" != 0 ] && [ "$fl" = 0 ] && [ "$EXPECT_RC" = 0 ]; then
			emit "    # $s: $verdict (boot.sh exit $rc), see $dir"
		fi
	fi
	secs=$(($(date +%s) - t0))
	tot_pass=$((tot_pass + p)) tot_fail=$((tot_fail + fl)) tot_skip=$((tot_skip + sk))
	if { [ "$verdict" = PASS ] || [ "$verdict" != "${verdict#EXPECTED-}" ]; } && [ "$fl" = 0 ]; then
		emit "ok $i $s"
	else
		any_bad=1
		emit "not ok $i $s # $verdict"
	fi
	printf '%s %s %s %s %s %s\n' "$s" "$KVER" "$SCENARIO" "$verdict" "$secs" "${dir#"$REPO_ROOT"/}" >>"$run_dir/.meta"
	rows+=("$(printf '%-6s %-14s %-11s %5s %5s %5s %6ss  %s' "$KVER" "$SCENARIO" "$verdict" "$p" "$fl" "$sk" "$secs" "${dir#"$REPO_ROOT"/}")")
done
emit "# Totals: pass:$tot_pass fail:$tot_fail skip:$tot_skip"

{
	echo
	printf '%-6s %-14s %-11s %5s %5s %5s %7s  %s\n' kernel scenario verdict pass fail skip time results
	printf '%s\n' "${rows[@]}"
	echo
	echo "$tot_pass passed, $tot_fail failed, $tot_skip skipped"
} | tee "$run_dir/summary.txt"
awk -v stamp="$stamp" -v meta="$run_dir/.meta" -f "$REPO_ROOT/selftests/ktap2json.awk" \
	"$run_dir/ktap.log" >"$run_dir/results.json"
rm -f "$run_dir/.meta"

if [ "$guest_cases" -le 0 ] && [ "$any_bad" = 0 ] && [ "$tot_fail" = 0 ] && [ "$skipped" -gt 0 ]; then
	echo "every scenario was skipped" >&2
	exit "$E_SKIP"
fi
if [ "$guest_cases" -le 0 ] && [ "$any_bad" = 0 ]; then
	echo "no guest test case ran" >&2
	exit "$E_FAIL"
fi
[ "$any_bad" = 0 ] && [ "$tot_fail" = 0 ] || exit "$E_FAIL"
if [ "$guest_skips" -ge "$guest_cases" ]; then
	echo "every guest test case was skipped" >&2
	exit "$E_SKIP"
fi
exit "$E_OK"
