#!/bin/bash
# cover-letter.sh - write a kernel's 0000-cover-letter.patch (patches/ for
# 7.3, patches/6.12/ for the backport) from its series, its prose and the
# measured numbers in docs/data/bench.txt.
#
# Usage: scripts/cover-letter.sh [--kernel VER] [--branch B] [--dry-run] [--help]
#   --kernel VER  7.3 or 6.12 (env KERNEL, default scripts/lib.sh
#                 COOL_DEFAULT_KERNEL)
#
# The header (subject, shortlog, diffstat, base-commit) comes from
# 'git format-patch --cover-letter' of <tag>..B (default 'dev') in the
# kernel's tree; the prose from docs/cover-letter.in (7.3, the series
# proper) or docs/cover-letter-<ver>.in (a backport: what differs), whose
# @NUMBERS@ line is replaced by tables made from docs/data/bench.txt, so
# the letter never says what was not measured (a section measured on
# another kernel's tree is another tree: stale, left out).
# Environment: COOL_DEV_BRANCH (default dev).
#
# Exit codes: 0 written, 1 missing branch or input, 5 bad usage.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

branch=${COOL_DEV_BRANCH:-dev}
dry_run=0
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) [ $# -ge 2 ] || usage_error "--kernel needs a value"; select_kernel "$2"; shift ;;
	--kernel=*) select_kernel "${1#*=}" ;;
	--branch) branch=${2:?--branch needs a value}; shift ;;
	--dry-run) dry_run=1 ;;
	-h | --help) show_help; exit 0 ;;
	*) usage_error "unknown option $1" ;;
	esac
	shift
done
tag=$(base_tag)
in=$REPO_ROOT/docs/cover-letter.in
[ "$KVER" = "$COOL_MAIN_KERNEL" ] || in=$REPO_ROOT/docs/cover-letter-$KVER.in
data=$REPO_ROOT/docs/data/bench.txt
[ -r "$in" ] || die "missing $in"
if [ "$dry_run" = 1 ]; then
	echo "would write $PATCH_DIR/0000-cover-letter.patch from $tag..$branch, $in and $data"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

get() { bench_value "$data" "$1"; }
# Only numbers of this version of the series go into the letter: a section
# counts when the tree it was measured on is the tree the branch produces,
# or differs from it in comments, help texts and Documentation/ only
# (same_code).
cur_tree=$(tree_git rev-parse --short=12 "$branch^{tree}")
current() { same_code "$(get "$1.series_tree")" "$cur_tree" "$1"; }
# measured SEC: the date of the run that measured one section
measured() { echo "(measured $(get "$1.date"))"; }
# sections KIND: the make bench sections of bench.txt that are stale
# (measured on a tree whose code, as far as the section runs it, differs
# from this version's), this (measured on this version's tree) or older
# (measured on an earlier tree with the same code: same_code)
sections() {
	local sec t out=''
	for sec in callers text pathlen irqlat throughput profile scaling irqwait rivals xen; do
		grep -q "^$sec\." "$data" 2>/dev/null || continue
		t=$(get "$sec.series_tree")
		case $1 in
		stale) current "$sec" || out="$out $sec" ;;
		this) [ "$t" != "$cur_tree" ] || out="$out $sec" ;;
		older) if [ "$t" != "$cur_tree" ] && current "$sec"; then out="$out $sec"; fi ;;
		esac
	done
	echo "${out# }"
}
stale() { sections stale; }
# section_list WHAT SECS: a paragraph "WHAT (sections of 'make bench'):
# SECS." when SECS (space-separated) is not empty
section_list() {
	local l=${2# }
	[ -n "$l" ] || return 0
	echo
	echo "$1 (sections of 'make bench'): ${l// /, }." | fold -s -w 72 | sed 's/ *$//'
}
sec_kernel() { bench_sec_kernel "$data" "$1"; }

# noise WORKLOAD NAME STOCK_STATS -- KERNEL_STATS: the callers_stats
# fields of stock and of one kernel; prints "WORKLOAD NAME (spread ...), "
# when the change of the medians is within either kernel's boot-to-boot
# spread (max/min of its boots), which makes it noise.
noise() {
	local w=$1 name=$2 a
	shift 2
	a=("$@")
	awk -v w="$w" -v n="$name" -v sm="${a[4]}" -v s1="${a[5]}" -v s2="${a[6]}" \
		-v cm="${a[12]}" -v c1="${a[13]}" -v c2="${a[14]}" 'BEGIN {
		d = (cm - sm) / sm; if (d < 0) d = -d
		sp = (s2 - s1) / s1; cp = (c2 - c1) / c1
		if (d < sp || d < cp) printf "%s %s (spread stock %.2f%%, %s %.2f%%), ", w, n, sp * 100, n, cp * 100 }'
}

# noise_line FILE: the sentence naming what noise() found, if anything.
noise_line() {
	local n
	n=$(cat "$1" 2>/dev/null || true)
	[ -z "$n" ] || { echo; echo "Within the boot-to-boot spread (max/min of one kernel's boots), so noise: ${n%, }." | fold -s -w 72 | sed 's/ *$//'; }
}

numbers() {
	if [ ! -r "$data" ]; then
		echo "No 'make bench' results yet."
		return
	fi
	if [ -z "$(sections this)" ] && [ -z "$(sections older)" ]; then
		echo "Nothing has been measured on this version of the series yet:"
		echo "every section of 'make bench' ran on another tree (listed below)."
	elif [ -n "$(stale)" ]; then
		echo "Measured with this version of the series; sections measured on"
		echo "an earlier version or on the other kernel's series are left out"
		echo "(listed at the end)."
	elif [ -z "$(sections older)" ]; then
		echo "Every section below was measured with this version of the series."
	else
		echo "Every section below was measured with the code of this version of"
		echo "the series."
	fi
	if [ -n "$(sections older)" ]; then
		{
			if [ -z "$(sections this)" ]; then
				printf 'The sections below ran on an earlier version, '
			else
				printf 'Some of them (%s) ran on an earlier version, ' "$(sections older | sed 's/ /, /g')"
			fi
			# the older sections that do not run the test modules
			skip=$(for sec in $(sections older); do bench_ignores "$sec" | grep -q . && printf '%s ' "$sec"; done)
			skip=${skip% }
			if [ "$skip" = "$(sections older)" ]; then skip='those sections'; else skip=${skip// /, }; fi
			printf 'which differs from this one only in comments, Kconfig help texts, Documentation/ and the test modules, which %s do not run.\n' "$skip"
		} | fold -s -w 72 | sed 's/ *$//'
	fi
	if grep -q '^callers\.iters\.' "$data" && current callers; then
		echo
		echo "Caller-side cost: whole-guest instructions per iteration of lock-heavy"
		echo "system call loops (QEMU -icount shift=0, 1 vCPU, nokaslr), median of"
		echo "$(get callers.repeats) boots per kernel, min-max in brackets:"
		measured callers
		echo
		printf '  %-11s %22s %22s %8s %22s %8s\n' workload stock cool change "cool, irqwait=0" change
		sed -n 's/^callers\.iters\.\([a-z]*\)=.*/\1/p' "$data" | while read -r w; do
			read -r -a st <<<"$(callers_stats "$data" stock "$w")"
			read -r -a co <<<"$(callers_stats "$data" cool "$w")"
			read -r -a cn <<<"$(callers_stats "$data" coolnoirqwait "$w")"
			printf '  %-11s %22s %22s %8s %22s %8s\n' "$w" "${st[0]} (${st[1]}-${st[2]})" \
				"${co[0]} (${co[1]}-${co[2]})" "$(pct "${co[4]}" "${st[4]}")" \
				"${cn[0]:-} (${cn[1]:-}-${cn[2]:-})" "$(pct "${cn[4]:-}" "${st[4]}")"
			noise "$w" cool "${st[@]}" -- "${co[@]}" >>"$tmp/noisy"
		done
		noise_line "$tmp/noisy"
	fi
	if [ -n "$(get text.functions_before)" ] && current text; then
		echo
		echo "Text (bloat-o-meter -t, function text, stock -> cool):"
		measured text
		printf '  %-26s %s -> %s bytes, %s\n' "x86-64 minimal:" "$(get text.functions_before)" \
			"$(get text.functions_after)" "$(get text.functions_change)"
		for lt in 'minimal-irqwait-off:  without SPINLOCK_IRQWAIT:' 'i386:i386 minimal:' \
			'i386-irqwait-off:  without SPINLOCK_IRQWAIT:' 'defconfig:x86_64_defconfig:' \
			'debian:Debian cloud-amd64 (built in):'; do
			label=${lt%%:*}
			[ -n "$(get "text.$label.functions_before")" ] || continue
			printf '  %-26s %s -> %s bytes, %s\n' "${lt#*:}" "$(get "text.$label.functions_before")" \
				"$(get "text.$label.functions_after")" "$(get "text.$label.functions_change")"
		done
		echo "  call sites (x86-64 minimal): $(get text.stock.calls_raw) 'call _raw_*' -> $(get text.cool.calls_cool) 'call __cool_*'"
	fi
	if grep -q '^pathlen\.' "$data" && current pathlen; then
		echo
		echo "Path length, guest instructions per uncontended lock+unlock pair"
		echo "(QEMU -icount shift=0, 1 vCPU, less an empty call):"
		measured pathlen
		echo
		printf '  %-22s %8s %8s\n' API stock cool
		sed -n 's/^pathlen\.stock\.\([^=]*\)=.*/\1/p' "$data" | while read -r api; do
			printf '  %-22s %8s %8s\n' "$api" "$(get "pathlen.stock.$api")" "$(get "pathlen.cool.$api")"
		done
	fi
	if grep -q '^rivals\.groups=' "$data" && current rivals; then
		echo
		echo "The designs a reviewer names first, each built from the same tree"
		echo "with COOL off (the harness's qemu-boot/variants/rivals, not part of"
		echo "this series): inline (ARCH_INLINE_* for every lock and unlock),"
		echo "C preserve (the out-of-line _raw_*() marked no_caller_saved_registers"
		echo "with GCC, __preserve_most with clang) and inline + preserve (inline"
		echo "fast paths whose slowpath calls carry the attribute). Function text"
		echo "against the group's stock, path length per uncontended lock+unlock"
		echo "pair, whole-guest instructions per iteration of the caller workloads"
		echo "(median of $(get rivals.repeats) boots), all in instruction time:"
		measured rivals
		for g in $(get rivals.groups); do
			ks=$(get "rivals.group.$g")
			base=${ks%% *}
			echo
			case $g in
			gcc) echo "$(get rivals.compiler.gcc | sed 's/ (.*)//'), minimal config:" ;;
			clang*) echo "$(get "rivals.compiler.$g" | sed 's/ (.*//'), make LLVM=-${g#clang}, minimal config:" ;;
			*) echo "group $g:" ;;
			esac
			printf '  %-18s' ""; for k in $ks; do
				case $g in clang*) l=${k#"$g"-} ;; *) l=$k ;; esac
				l=${l#rival-}
				case $l in inline-preserve) l=inl+preserve ;; inline-unlock) l=inl-unlock ;; esac
				printf ' %12s' "$l"
			done; echo
			b=$(get "rivals.$base.functions")
			printf '  %-18s' "function text"; for k in $ks; do
				f=$(get "rivals.$k.functions")
				if [ "$k" = "$base" ]; then printf ' %12s' "$f"; else printf ' %12s' "$(pct "$f" "$b")"; fi
			done; echo
			for api in spin_lock spin_lock_irq spin_lock_irqsave spin_lock_bh read_lock; do
				[ -n "$(get "rivals.pathlen.$base.$api")" ] || continue
				printf '  %-18s' "$api"; for k in $ks; do printf ' %12s' "$(get "rivals.pathlen.$k.$api" | grep . || echo -)"; done; echo
			done
			sed -n 's/^rivals\.callers\.iters\.\([a-z]*\)=.*/\1/p' "$data" | while read -r w; do
				grep -q "^rivals\\.callers\\.$base\\.$w\\." "$data" || continue
				read -r -a st <<<"$(callers_stats "$data" "$base" "$w" rivals.callers)"
				printf '  %-18s' "callers, $w"; for k in $ks; do
					if [ "$k" = "$base" ]; then printf ' %12s' "${st[0]}"; continue; fi
					read -r -a co <<<"$(callers_stats "$data" "$k" "$w" rivals.callers)"
					printf ' %12s' "$(pct "${co[4]:-}" "${st[4]}")"
					noise "$w" "$k" "${st[@]}" -- "${co[@]}" >>"$tmp/noisy-rivals"
				done; echo
			done
		done
		noise_line "$tmp/noisy-rivals"
	fi
	if grep -q '^irqlat\.icount\.' "$data" && current irqlat; then
		echo
		echo "IPI latency on a CPU waiting in spin_lock_irqsave(), IPI sent a quarter"
		echo "of the hold after the waiter reached the lock, $(get irqlat.runs) runs, 4 vCPUs, in"
		echo "instruction time (-icount shift=0: no host scheduling, but a max is one"
		if [ -n "$(get irqwait.2000.irqlat.1000.max_ns)" ] && current irqwait; then
			echo "boot's worst case: the same cool kernel booted again for the budget"
			echo "table below gave $(get irqwait.2000.irqlat.1000.max_ns) ns at a 1 ms hold, $(get irqwait.2000.irqlat.10.max_ns) ns at 10 us):"
		else
			echo "boot's worst case):"
		fi
		measured irqlat
		echo
		# 71 columns: checkpatch wants a letter's lines within 75
		printf '  %-7s %11s %11s %6s %11s %11s %6s\n' hold "stock med" "cool med" ratio "stock max" "cool max" ratio
		sed -n 's/^irqlat\.icount\.stock\.\([0-9]*\)\.max_ns=.*/\1/p' "$data" | while read -r h; do
			s=$(get "irqlat.icount.stock.$h.max_ns") c=$(get "irqlat.icount.cool.$h.max_ns")
			sm=$(get "irqlat.icount.stock.$h.median_ns") cm=$(get "irqlat.icount.cool.$h.median_ns")
			printf '  %-7s %9sns %9sns %6s %9sns %9sns %6s\n' "${h}us" "$sm" "$cm" "$(ratio "$sm" "$cm")" "$s" "$c" "$(ratio "$s" "$c")"
		done
		# The wall-clock (multi-threaded TCG) table of the same run is in
		# docs/results.md only: on 2 shared host cores it measures the host
		# as much as the lock.
	fi
	# locktorture write acquisitions, cool/stock of the medians of the
	# boots (keys SEC.KERNEL.TYPE.VCPUS.BOOT), of bench.sh section $1
	med() { repeat_stats "$data" "$1" | cut -d' ' -f1; }
	# separated SEC: the points where cool's confidence interval of the
	# median lies wholly below or above stock's (docs/results.md has them)
	separated() {
		local n k out='' c
		while read -r n; do
			for k in $(torture_keys "$data" "$1"); do
				c=$(ci_compare "$data" "$1.cool.$k.$n" "$1.stock.$k.$n")
				case $c in
				below | above) out="$out, $(torture_api "$k") at $n vCPUs (cool $c)" ;;
				esac
			done
		done < <(torture_points "$data" "$1")
		if [ -z "$out" ]; then
			echo "every point, the confidence intervals of the medians of cool and stock overlap"
		else
			echo "these points, the confidence intervals of the medians of cool and stock do not overlap: ${out#, }"
		fi
	}
	# torture_ratios SEC: cool/stock per API and vCPU count, then the
	# points with the CPUID hypervisor bit ("4 hv": stocktas, cooltas)
	torture_ratios() {
		local n k line hv
		hv=$(get "$1.hypervisor_vcpus")
		printf '  %-22s' "vCPUs:"
		torture_points "$data" "$1" | while read -r n; do printf ' %7s' "$n"; done
		for n in $hv; do printf ' %7s' "$n hv"; done
		echo
		for k in $(torture_keys "$data" "$1"); do
			line=$(printf '  %-22s' "$(torture_api "$k")")
			while read -r n; do
				line="$line$(printf ' %7s' "$(ratio "$(med "$1.cool.$k.$n")" "$(med "$1.stock.$k.$n")")")"
			done < <(torture_points "$data" "$1")
			for n in $hv; do
				line="$line$(printf ' %7s' "$(ratio "$(med "$1.cooltas.$k.$n")" "$(med "$1.stocktas.$k.$n")")")"
			done
			echo "$line"
		done
		[ -z "$hv" ] || echo "  (hv: a guest CPU with the CPUID hypervisor bit: test-and-set lock)"
	}
	if grep -q '^throughput\.' "$data" && current throughput; then
		echo
		echo "locktorture acquisitions, cool/stock of the medians of"
		echo "$(get throughput.repeats | grep . || echo 1) boots per kernel, same duration, in instruction time"
		echo "(-icount shift=0$(torture_points "$data" throughput | grep -qx 1 && echo '; 1 vCPU is uncontended')). At $(separated throughput)." | fold -s -w 72 | sed 's/ *$//'
		echo "Ratios:"
		measured throughput
		echo
		torture_ratios throughput
	fi
	if grep -q '^profile\.' "$data" && current profile; then
		echo
		echo "Where those instructions go: one more boot per kernel and type at"
		echo "$(get profile.vcpus) vCPUs, the type alone, with a QEMU plugin that counts every"
		echo "executed block's instructions. Instructions per acquisition in the"
		echo "lock functions (the routines or _raw_*(), thunks, slowpaths, the"
		echo "wait and the clock it reads), and acquisitions relative to stock:"
		measured profile
		echo
		printf '  %-28s' ''
		for k in $(get profile.kernels); do printf ' %13s' "$k"; done
		echo
		for t in spin_lock spin_lock_irq; do
			printf '  %-28s' "$(torture_api "$t")"
			for k in $(get profile.kernels); do
				printf ' %6s (%s)' "$(profile_lock_insns "$data" "profile.$k.$t")" \
					"$(ratio "$(get "profile.$k.$t.acquisitions")" "$(get "profile.stock.$t.acquisitions")")"
			done
			echo
		done
	fi
	if grep -q '^scaling\.' "$data" && current scaling; then
		echo
		echo "The same in wall-clock time (multi-threaded TCG, medians of"
		echo "$(get scaling.repeats | grep . || echo 1) boots). At $(separated scaling)." | fold -s -w 72 | sed 's/ *$//'
		echo "Ratios:"
		measured scaling
		echo
		torture_ratios scaling
	fi
	if grep -q '^irqwait\.' "$data" && current irqwait; then
		echo
		echo "The interrupt-enabled wait's time budget (cool_irqwait= us), in"
		echo "instruction time: against one CPU that relocks back to back, the"
		echo "interrupt-enabled spin_lock_irqsave() waiter's acquisitions and worst"
		echo "wait relative to a waiter that queues with interrupts off; and the"
		echo "worst IPI latency of the waiting CPU while the lock is held 1 ms:"
		measured irqwait
		echo
		printf '  %-8s %10s %10s %10s %10s %10s %10s %18s\n' budget "spin acq" "spin worst" "writer acq" "w. worst" "readers acq" "r. worst" "IPI max, 1 ms hold"
		sed -n 's/^irqwait\.\([0-9]*\)\.relock\.n=.*/\1/p' "$data" | while read -r b; do
			printf '  %-8s %10s %10s %10s %10s %10s %10s %16sns\n' "${b}us" \
				"$(ratio "$(get "irqwait.$b.relock.n")" "$(get "irqwait.$b.relock_queued.n")")" \
				"$(ratio "$(get "irqwait.$b.relock.max_ns")" "$(get "irqwait.$b.relock_queued.max_ns")")" \
				"$(ratio "$(get "irqwait.$b.rw_writer.n")" "$(get "irqwait.$b.rw_writer_queued.n")")" \
				"$(ratio "$(get "irqwait.$b.rw_writer.max_ns")" "$(get "irqwait.$b.rw_writer_queued.max_ns")")" \
				"$(ratio "$(get "irqwait.$b.rw_readers.n")" "$(get "irqwait.$b.rw_readers_queued.n")")" \
				"$(ratio "$(get "irqwait.$b.rw_readers.max_ns")" "$(get "irqwait.$b.rw_readers_queued.max_ns")")" \
				"$(get "irqwait.$b.irqlat.1000.max_ns")"
		done
		echo
		echo "(ratios: interrupt-enabled waiter / waiter queued with interrupts off"
		echo "in the same boot; spin: spin_lock_irqsave() against one relocking CPU;"
		echo "writer, readers: write_lock_irqsave() against one relocking writer and"
		echo "against readers on the other CPUs.)"
	fi
	if grep -q '^xen\.pathlen\.' "$data" && current xen; then
		# xmed KEY: the median of KEY.BOOT, two decimals; xcount KEY: rounded;
		# xrange KEY: min-max, rounded
		xmed() { grep -E "^${1//./\\.}\.[0-9]+=" "$data" | cut -d= -f2 | sort -n | sorted_stats 1 | awk '{ printf "%.2f", $5 }'; }
		xcount() { grep -E "^${1//./\\.}\.[0-9]+=" "$data" | cut -d= -f2 | sort -n | sorted_stats 1 | awk '{ printf "%s", $1 }'; }
		xrange() { grep -E "^${1//./\\.}\.[0-9]+=" "$data" | cut -d= -f2 | sort -n | sorted_stats 1 | awk '{ printf "%s-%s", $2, $3 }'; }
		echo
		printf "As a Xen PV dom0 (Debian's Xen %s under QEMU TCG, 4 dom0 vCPUs on %s pCPUs: Xen's pv spinlocks and PARAVIRT_XXL's pv irq ops), guest instructions per uncontended lock+unlock pair (-icount shift=0, medians of %s boots; native: the same kernels booted without Xen):\n" \
			"$(get xen.host | sed -n 's/^xen-hypervisor-[^_]*_\([^_]*\)_.*/\1/p')" "$(get xen.host_cpus)" "$(get xen.repeats)" |
			fold -s -w 72 | sed 's/ *$//'
		measured xen
		echo
		printf '  %-20s %13s %10s %13s %10s\n' API "stock native" "stock Xen" "cool native" "cool Xen"
		sed -n 's/^xen\.pathlen\.xen\.stock\.\([^=]*\)\.1=.*/\1/p' "$data" | while read -r api; do
			printf '  %-20s %13s %10s %13s %10s\n' "$api" "$(xmed "xen.pathlen.native.stock.$api")" "$(xmed "xen.pathlen.xen.stock.$api")" \
				"$(xmed "xen.pathlen.native.cool.$api")" "$(xmed "xen.pathlen.xen.cool.$api")"
		done
		echo
		{
			printf 'The spin_lock pair under Xen less the same pair natively is what the pv unlock costs over the native store: stock +%s, cool +%s instructions. ' \
				"$(awk -v a="$(xmed xen.pathlen.xen.stock.spin_lock)" -v b="$(xmed xen.pathlen.native.stock.spin_lock)" 'BEGIN { printf "%.2f", a - b }')" \
				"$(awk -v a="$(xmed xen.pathlen.xen.cool.spin_lock)" -v b="$(xmed xen.pathlen.native.cool.spin_lock)" 'BEGIN { printf "%.2f", a - b }')"
			printf 'The series reaches the pv unlock through a thunk of its own that saves every C-ABI register around a C call of queued_spin_unlock(), which then goes through the pv op'"'"'s callee-save thunk: two register-saving thunks where stock has one.\n'
		} | fold -s -w 72 | sed 's/ *$//'
		if grep -q '^xen\.torture\.' "$data"; then
			echo
			echo "Contended, locktorture under Xen, $(get xen.secs) s, long_hold=0, $(get xen.torture_repeats) boots per"
			echo "kernel: write acquisitions in millions and the pv waits and kicks"
			echo "(CONFIG_LOCK_EVENT_COUNTS), median (min-max):"
			echo
			printf '  %-14s %-6s %-20s %-18s %s\n' run kernel "writes, M" "pv waits" "pv kicks"
			for t in spin_lock spin_lock_irq; do
				for v in stock cool; do
					printf '  %-14s %-6s %-20s %-18s %s\n' "$t" "$v" \
						"$(grep -E "^xen\.torture\.$v\.$t\.[0-9]+=" "$data" | cut -d= -f2 | sort -n | sorted_stats 1 |
							awk '{ printf "%.2f (%.2f-%.2f)", $5 / 1e6, $6 / 1e6, $7 / 1e6 }')" \
						"$(xcount "xen.lockevents.$v.$t.pv_wait") ($(xrange "xen.lockevents.$v.$t.pv_wait"))" \
						"$(xcount "xen.lockevents.$v.$t.pv_kick") ($(xrange "xen.lockevents.$v.$t.pv_kick"))"
				done
				echo "  $t cool/stock of the median writes: $(ratio "$(xmed "xen.torture.cool.$t")" "$(xmed "xen.torture.stock.$t")")"
			done
			echo
			echo "Instruction time is not real time: a hypercall costs its instructions"
			echo "here, not what it costs on hardware."
		fi
	fi
	if [ -n "$(stale)" ]; then
		local sec other='' mine=''
		for sec in $(stale); do
			if [ "$(sec_kernel "$sec")" = "$KVER" ]; then mine="$mine $sec"; else other="$other $sec"; fi
		done
		section_list "Not re-measured on this version of the series" "$mine"
		section_list "Measured on the other kernel's series only, not on this one" "$other"
	fi
}

numbers > "$tmp/numbers"
awk -v nf="$tmp/numbers" '$0 == "@NUMBERS@" { while ((getline l < nf) > 0) print l; next } { print }' \
	"$in" > "$tmp/blurb"
tree_git -c diff.suppressBlankEmpty=true format-patch -q --no-signature --cover-letter --subject-prefix="$(subject_prefix)" --base="$tag" \
	-o "$tmp/fp" "$tag..$branch"
awk -v bf="$tmp/blurb" '
	/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, "x86/locking: Completely out of line spinlocks (CONFIG_COOL_SPINLOCK)") }
	/\*\*\* BLURB HERE \*\*\*/ { while ((getline l < bf) > 0) print l; next }
	{ print }' "$tmp/fp/0000-cover-letter.patch" > "$PATCH_DIR/0000-cover-letter.patch"
info "wrote ${PATCH_DIR#"$REPO_ROOT"/}/0000-cover-letter.patch"
