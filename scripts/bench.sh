#!/bin/bash
# bench.sh - 'make bench': measure COOL against stock, write docs/results.md.
#
# Usage: scripts/bench.sh [--kernel VER] [--only LIST] [--smp-list 'N ...'] [--icount-smp-list 'N ...']
#                         [--torture-secs S] [--torture-repeats N] [--xen-repeats N] [--defconfig]
#                         [--debian] [--text-pairs LIST] [--out DIR]
#                         [--no-build]
#                         [--dry-run] [--help]
#   --kernel VER       the kernel measured, 7.3 or 6.12 (env KERNEL, default
#                      scripts/lib.sh COOL_DEFAULT_KERNEL); bench.txt says
#                      which (kernel=), and a section measured on another
#                      kernel's tree is stale for the other's cover letter
#   --only LIST        comma-separated subset of: callers,text,pathlen,irqlat,
#                      scaling,throughput,irqwait,profile,rivals,xen (default:
#                      all but profile, rivals and xen). profile: where the
#                      contended instructions go: each kernel of
#                      --torture-kernels runs locktorture spin_lock and
#                      spin_lock_irq alone at 4 vCPUs in instruction time
#                      with QEMU plugin qemu-boot/plugins/insnprof.c (built
#                      with gcc into the cache), once; bench.txt gets each
#                      kernel function's instructions per acquisition
#                      (profile.KERNEL.TYPE.fn.NAME, those of at least 0.5).
#                      rivals: the series' asm against the designs a
#                      maintainer would name, each a scenario built from the
#                      series tree plus qemu-boot/variants/rivals (COOL off):
#                      inline lock and unlock (ARCH_INLINE_*), inline unlocks
#                      only, out-of-line C with a register-preserving attribute
#                      (GCC no_caller_saved_registers, clang __preserve_most),
#                      inline fast paths with such slowpath calls; with GCC,
#                      with clang 19 (make LLVM=-19), with clang 22 (make
#                      LLVM=-22; group clang22, not in the default groups)
#                      and on i386 (groups, --rival-groups): text, call-site
#                      code, path length,
#                      callers and locktorture in instruction time (about 20
#                      kernel builds the first time).
#                      xen: the series as a Xen PV dom0 (scenarios xen-stock
#                      and xen, HOST=xen: Debian's Xen 4.17, 4 dom0 vCPUs on
#                      2 pCPUs, pv spinlocks, PARAVIRT_XXL's pv irq ops), in
#                      instruction time (-icount shift=0): bench:pathlen of
#                      each kernel under Xen and booted without it
#                      (COOL_HOST=native: the pv ops patched to the native
#                      instructions), --xen-repeats boots each; contended
#                      locktorture spin_lock and spin_lock_irq under Xen
#                      (--torture-secs, long_hold=0), --torture-repeats boots
#                      each, with each run's pv waits and kicks (lockevents).
#                      The sections left out keep their numbers from
#                      docs/data/bench.txt, each with the date and series
#                      commit of the run that measured it.
#   --rival-groups L   groups of the rivals section (default 'gcc clang19 i386';
#                      also clang22; --defconfig adds defconfig: its text only)
#   --rival-kernels L  only these scenarios of the groups (space- or
#                      comma-separated; each group's base, its stock, is
#                      always measured): a partial table when some rivals
#                      are not built (env COOL_RIVAL_KERNELS)
#   --rival-torture-repeats N  boots per kernel of the rivals' locktorture
#                      (default 3; env COOL_RIVAL_TORTURE_REPEATS)
#   --smp-list 'N ..'  vCPU counts of the scaling runs, wall-clock locktorture
#                      under multi-threaded TCG (default '2': one vCPU per
#                      host core; 4 vCPUs on this 2-core host measure
#                      lock-waiter preemption, not the lock, and 1 vCPU is
#                      the uncontended row of the throughput section)
#   --scaling-repeats N  boots per kernel and vCPU count of the scaling
#                      section (default 10: the wall clock needs more than
#                      instruction time for a confidence interval)
#   --icount-smp-list 'N ..'
#                      vCPU counts of the throughput runs, the same locktorture
#                      in instruction time, -icount shift=0 (default '1 2 4')
#   --hypervisor-smp-list 'N ..'
#                      vCPU counts at which the throughput section also boots
#                      stock and cool on a guest CPU with the CPUID
#                      hypervisor bit (virt_spin_lock()'s test-and-set lock,
#                      as in a VM without pv spinlocks; default '4', '' for
#                      none)
#   --torture-kernels 'K ..'
#                      kernels of the scaling and throughput sections, of
#                      stock, cool, coolnoirqwait (default all three;
#                      stock and cool are always measured)
#   --torture-types 'T ..'
#                      locktorture types of the scaling and throughput
#                      sections (default 'spin_lock spin_lock_irq rw_lock
#                      rw_lock_irq'; the _irq types take the irqsave APIs)
#   --irqwait-list 'N ..'
#                      cool_irqwait= budgets (microseconds) of the irqwait
#                      runs: irq_starve and irqlat in instruction time
#                      (default '0 200 1000 2000 5000')
#   --repeats N        boots per kernel of the callers section (default 5)
#   --xen-repeats N    boots per kernel and host of the xen section's path
#                      length (default 3)
#   --workload-iters N lockload iterations per workload (default 2000)
#   --torture-secs S   seconds per locktorture run (default 10; long_hold=0, so
#                      that random 100 ms holds do not dominate the count)
#   --torture-repeats N  boots per kernel and vCPU count of the throughput
#                      section (default 5): median, min and max
#   --defconfig        text: also x86_64_defconfig, stock vs cool (two full builds
#                      of that config; env COOL_BENCH_DEFCONFIG=1)
#   --debian           text: also Debian's cloud-amd64 config, modules off, stock
#                      vs cool (scenarios debian-stock/debian; env COOL_BENCH_DEBIAN=1)
#   --text-pairs LIST  text: measure only these pairs, comma-separated labels of
#                      minimal, minimal-irqwait-off, i386, i386-irqwait-off (the
#                      register convention alone: scenarios cool-irqwait-off and
#                      i386-irqwait-off, SPINLOCK_IRQWAIT off as in stock), i386-ecx
#                      (scenario i386-ecx: the lock in %ecx, a candidate),
#                      defconfig, debian (default: minimal,i386 and
#                      those --defconfig and --debian add). A pair left out keeps
#                      its keys from docs/data/bench.txt if they were measured
#                      on the series tree of this run, and is dropped otherwise,
#                      so that one table never mixes two versions of the series
#                      (env COOL_BENCH_TEXT_PAIRS)
#   --out DIR          where the raw results go (default results/bench-<ver>-<UTC time>)
#   --no-build         use the kernels already built
#   --resume           with --out DIR of an interrupted or smaller run: keep
#                      each boot of DIR that passed with the same tests on
#                      the same series commit, boot only the others (a
#                      kernel added to --torture-kernels, say); bench.txt
#                      is written anew from all of them
#
# Scenarios 'stock' and 'cool' are the same config with COOL off and on, both
# built from the patched tree; every ratio comes from one run of this script,
# stock and cool measured back to back. Text is compared per config pair: the
# minimal one (stock/cool), i386 (i386-stock/i386) and with --defconfig
# x86_64_defconfig (defconfig-stock/defconfig-cool), with --debian Debian's
# config (debian-stock/debian). Measurements, not tests: nothing here
# fails on a number. Results: DIR/bench.txt (key=value lines), then
# scripts/report.sh turns them into docs/results.md, docs/data/ and the plots.
# Environment: COOL_BENCH_ONLY, COOL_SMP_LIST, COOL_ICOUNT_SMP_LIST,
# COOL_IRQWAIT_LIST, COOL_TORTURE_SECS, COOL_TORTURE_REPEATS, COOL_SCALING_REPEATS,
# COOL_HYPERVISOR_SMP_LIST, COOL_TORTURE_TYPES, COOL_TORTURE_KERNELS, COOL_BENCH_REPEATS,
# COOL_WORKLOAD_ITERS, COOL_XEN_REPEATS, COOL_RIVAL_GROUPS, COOL_RIVAL_KERNELS,
# COOL_RIVAL_TORTURE_REPEATS.
#
# Exit codes: 0 measured, 1 a build or a boot failed, 5 bad usage.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

only=${COOL_BENCH_ONLY:-callers,text,pathlen,irqlat,scaling,throughput,irqwait}
repeats=${COOL_BENCH_REPEATS:-5}
workload_iters=${COOL_WORKLOAD_ITERS:-2000}
smp_list=${COOL_SMP_LIST:-2}
scaling_repeats=${COOL_SCALING_REPEATS:-10}
icount_smp_list=${COOL_ICOUNT_SMP_LIST:-1 2 4}
hv_smp_list=${COOL_HYPERVISOR_SMP_LIST-4}
torture_types=${COOL_TORTURE_TYPES:-spin_lock spin_lock_irq rw_lock rw_lock_irq}
torture_kernels=${COOL_TORTURE_KERNELS:-stock cool coolnoirqwait}
irqwait_list=${COOL_IRQWAIT_LIST:-0 200 1000 2000 5000}
secs=${COOL_TORTURE_SECS:-10}
torture_repeats=${COOL_TORTURE_REPEATS:-5}
xen_repeats=${COOL_XEN_REPEATS:-3}
out=''
build=1 resume=0 dry_run=0 defconfig=${COOL_BENCH_DEFCONFIG:-0} debian=${COOL_BENCH_DEBIAN:-0}
text_only=${COOL_BENCH_TEXT_PAIRS:-}
rival_groups=${COOL_RIVAL_GROUPS:-gcc clang19 i386}
rival_torture_repeats=${COOL_RIVAL_TORTURE_REPEATS:-3}
rival_only=${COOL_RIVAL_KERNELS:-}
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) [ $# -ge 2 ] || usage_error "--kernel needs a value"; select_kernel "$2"; shift ;;
	--kernel=*) select_kernel "${1#*=}" ;;
	--only) only=${2:?--only needs a value}; shift ;;
	--smp-list) smp_list=${2:?--smp-list needs a value}; shift ;;
	--icount-smp-list) icount_smp_list=${2:?--icount-smp-list needs a value}; shift ;;
	--irqwait-list) irqwait_list=${2:?--irqwait-list needs a value}; shift ;;
	--torture-secs) secs=${2:?--torture-secs needs a value}; shift ;;
	--torture-repeats) torture_repeats=${2:?--torture-repeats needs a value}; shift ;;
	--scaling-repeats) scaling_repeats=${2:?--scaling-repeats needs a value}; shift ;;
	--hypervisor-smp-list) [ $# -ge 2 ] || usage_error "--hypervisor-smp-list needs a value"; hv_smp_list=$2; shift ;;
	--torture-types) torture_types=${2:?--torture-types needs a value}; shift ;;
	--torture-kernels) torture_kernels=${2:?--torture-kernels needs a value}; shift ;;
	--repeats) repeats=${2:?--repeats needs a value}; shift ;;
	--xen-repeats) xen_repeats=${2:?--xen-repeats needs a value}; shift ;;
	--workload-iters) workload_iters=${2:?--workload-iters needs a value}; shift ;;
	--out) out=${2:?--out needs a value}; shift ;;
	--no-build) build=0 ;;
	--resume) resume=1 ;;
	--defconfig) defconfig=1 ;;
	--debian) debian=1 ;;
	--text-pairs) text_only=${2:?--text-pairs needs a value}; shift ;;
	--rival-groups) rival_groups=${2:?--rival-groups needs a value}; shift ;;
	--rival-kernels) rival_only=${2:?--rival-kernels needs a value}; shift ;;
	--rival-torture-repeats) rival_torture_repeats=${2:?--rival-torture-repeats needs a value}; shift ;;
	--dry-run) dry_run=1 ;;
	-h | --help) show_help; exit 0 ;;
	*) usage_error "unknown option $1" ;;
	esac
	shift
done
refuse_user_tree "make bench"
out=${out:-$REPO_ROOT/results/bench-$KVER-$(run_stamp)}
want() { case ",$only," in *",$1,"*) return 0 ;; esac; return 1; }
# label:stock-scenario:cool-scenario
all_text_pairs='minimal:stock:cool minimal-irqwait-off:stock:cool-irqwait-off i386:i386-stock:i386 i386-irqwait-off:i386-stock:i386-irqwait-off i386-ecx:i386-stock:i386-ecx defconfig:defconfig-stock:defconfig-cool debian:debian-stock:debian'
labels=${text_only:-minimal,i386}
if [ -z "$text_only" ]; then
	[ "$defconfig" = 0 ] || labels="$labels,defconfig"
	[ "$debian" = 0 ] || labels="$labels,debian"
fi
text_pairs=''
for l in $(echo "$labels" | tr ',' ' '); do
	p=$(echo "$all_text_pairs" | tr ' ' '\n' | grep "^$l:") ||
		usage_error "--text-pairs: unknown pair '$l' (minimal, minimal-irqwait-off, i386, i386-irqwait-off, i386-ecx, defconfig, debian)"
	text_pairs="${text_pairs:+$text_pairs }$p"
done
builds=''
for sec in callers pathlen irqlat scaling throughput irqwait profile; do
	want "$sec" && builds='stock cool'
done
# rival_kernels GROUP: the scenarios of a rivals group, its base first,
# less those --rival-kernels leaves out
rival_kernels() {
	local k ks
	ks=$(rival_group "$1") || exit 5
	[ -n "$rival_only" ] || { echo "$ks"; return 0; }
	# shellcheck disable=SC2086 # the list splits into words
	set -- $ks
	ks=$1
	shift
	for k in "$@"; do
		case " $(echo "$rival_only" | tr ',' ' ') " in *" $k "*) ks="$ks $k" ;; esac
	done
	echo "$ks"
}
rival_group() {
	case $1 in
	gcc) echo stock cool rival-inline rival-inline-unlock rival-preserve rival-inline-preserve ;;
	clang19 | clang22) echo "$1-stock $1-cool $1-preserve $1-inline-preserve" ;;
	i386) echo i386-stock i386 i386-inline i386-preserve ;;
	defconfig) echo defconfig-stock defconfig-cool defconfig-inline defconfig-preserve ;;
	*) usage_error "--rival-groups: unknown group '$1' (gcc, clang19, clang22, i386, defconfig)" ;;
	esac
}
for g in $rival_groups; do rival_kernels "$g" > /dev/null; done
for k in $(echo "$rival_only" | tr ',' ' '); do
	for g in $rival_groups; do
		case " $(rival_group "$g") " in *" $k "*) continue 2 ;; esac
	done
	usage_error "--rival-kernels: '$k' is in none of the groups '$rival_groups'"
done
[ "$defconfig" = 0 ] || case " $rival_groups " in *" defconfig "*) ;; *) rival_groups="$rival_groups defconfig" ;; esac
if want rivals; then
	for g in $rival_groups; do
		for k in $(rival_kernels "$g"); do
			case " $builds " in *" $k "*) ;; *) builds="${builds:+$builds }$k" ;; esac
		done
	done
fi
want xen && builds="${builds:+$builds }xen-stock xen"
if want text; then
	for p in $text_pairs; do
		q=${p#*:}
		case " $builds " in *" ${q%%:*} "*) ;; *) builds="${builds:+$builds }${q%%:*}" ;; esac
		case " $builds " in *" ${q#*:} "*) ;; *) builds="${builds:+$builds }${q#*:}" ;; esac
	done
fi

case " $torture_kernels " in *" stock "*) ;; *) torture_kernels="stock $torture_kernels" ;; esac
case " $torture_kernels " in *" cool "*) ;; *) torture_kernels="$torture_kernels cool" ;; esac
for v in $torture_kernels; do
	case $v in stock | cool | coolnoirqwait) ;; *) usage_error "--torture-kernels: unknown kernel '$v' (stock, cool, coolnoirqwait)" ;; esac
done

if [ "$dry_run" = 1 ]; then
	echo "bench plan, kernel $KVER -> $out/bench.txt, then scripts/report.sh:"
	[ "$build" = 1 ] && echo "  build scenarios: $builds"
	want callers && echo "  callers: selftests/guest/lockload.c ($workload_iters iterations) with -icount shift=0, 1 vCPU, nokaslr, $repeats boots each of stock, cool, cool $KIRQWAIT_PARAM=0"
	want text && echo "  text: size -A and bloat-o-meter -t of stock vs cool vmlinux, pairs: $text_pairs"
	want text && [ -n "$text_only" ] && echo "  text: other pairs kept from docs/data/bench.txt if measured on this series tree"
	want pathlen && echo "  pathlen: boot each with -icount shift=0, 1 vCPU, bench:pathlen"
	want irqlat && echo "  irqlat: boot each, 4 vCPUs, bench:irqlat (holds 10us to 10ms), with -icount shift=0 and with multi-threaded TCG"
	want scaling && echo "  scaling: locktorture $torture_types, ${secs}s each, multi-threaded TCG, vCPUs: $smp_list (kernels $torture_kernels; coolnoirqwait is cool with $KIRQWAIT_PARAM=0), $scaling_repeats boots each"
	want profile && echo "  profile: locktorture spin_lock and spin_lock_irq alone, ${secs}s, 4 vCPUs, -icount shift=0, insnprof plugin, once per kernel of $torture_kernels"
	want throughput && echo "  throughput: the same with -icount shift=0 (instruction time), vCPUs: $icount_smp_list, $torture_repeats boots each${hv_smp_list:+; stock and cool with the CPUID hypervisor bit at $hv_smp_list vCPUs}"
	want rivals && for g in $rival_groups; do echo "  rivals $g: $(rival_kernels "$g"): text and call sites against the first$(case $g in defconfig) ;; i386) echo "; pathlen, locktorture at 4 vCPUs ($rival_torture_repeats boots)" ;; *) echo "; pathlen, callers ($repeats boots), locktorture at 4 vCPUs ($rival_torture_repeats boots)" ;; esac)"; done
	want irqwait && echo "  irqwait: selftest:irq_starve,irq_starve_rw and bench:irqlat with -icount shift=0 at $KIRQWAIT_PARAM= $irqwait_list (us)"
	want xen && echo "  xen: xen-stock and xen with -icount shift=0: bench:pathlen under Xen (PV dom0, 4 vCPUs on 2 pCPUs) and natively, $xen_repeats boots each; locktorture spin_lock and spin_lock_irq ${secs}s under Xen with lockevents (pv waits head+node, kicks sent), $torture_repeats boots each"
	exit 0
fi

mkdir -p "$out"
data=$out/bench.txt
: > "$data"
emit() { echo "$*" >> "$data"; }

if [ "$build" = 1 ]; then
	# what the builds need beyond make setup --for bench (clang-22 of the
	# clang22 rivals)
	"$REPO_ROOT/scripts/setup.sh" --for bench --kernel "$KVER" --scenario "$(echo "$builds" | tr ' ' ',')" ||
		die "make setup for the scenarios $builds failed"
	for s in $builds; do
		"$REPO_ROOT/scripts/build.sh" --scenario "$s" || die "build of $s failed"
	done
else
	# --no-build: a 6.12 build dir of the layout before per-kernel build
	# dirs moves to its place here, as a build would move it
	for s in $builds; do (load_scenario "$s" && out_migrate); done
fi
# after the builds: they (re)apply the series
now=$(date -u '+%Y-%m-%d %H:%M UTC')
series=$(tree_git rev-parse --short "$COOL_BRANCH" 2>/dev/null || echo unknown)
# the tree the series produces: equal for every branch with the same patches,
# so the cover letter can tell numbers of this version from older ones
series_tree=$(tree_git rev-parse --short=12 "$COOL_BRANCH^{tree}" 2>/dev/null || echo unknown)
emit "date=$now"
emit "kernel=$KVER"
emit "series_commit=$series"
emit "series_tree=$series_tree"
emit "repo_commit=$(git -C "$REPO_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
emit "host=$(nproc) CPUs, $(uname -m)"
# Every section says which run measured it; a section left out by --only
# keeps its keys (and that provenance) from the previous docs/data/bench.txt,
# and so does one this script no longer measures (clang, which rivals
# replaced: its numbers stay on record in docs/data/bench.txt).
old=$REPO_ROOT/docs/data/bench.txt
sections='callers text pathlen irqlat scaling throughput irqwait profile rivals xen'
if [ -r "$old" ]; then
	for sec in $(grep -o '^[A-Za-z0-9_-]*\.' "$old" | tr -d . | sort -u); do
		case " $sections " in *" $sec "*) ;; *) sections="$sections $sec" ;; esac
	done
fi
for sec in $sections; do
	if want "$sec"; then
		emit "$sec.date=$now"
		emit "$sec.kernel=$KVER"
		emit "$sec.series_commit=$series"
		emit "$sec.series_tree=$series_tree"
	elif [ -r "$old" ] && grep -q "^$sec\." "$old"; then
		[ -n "$(bench_value "$old" "$sec.date")" ] || {
			emit "$sec.date=$(bench_value "$old" date)"
			emit "$sec.series_commit=$(bench_value "$old" series_commit)"
			emit "$sec.series_tree=$(bench_value "$old" series_tree)"
		}
		# the kernel it was measured on (runs before sections named
		# theirs took the file's, and before files named one, 6.12)
		[ -n "$(bench_value "$old" "$sec.kernel")" ] ||
			emit "$sec.kernel=$(bench_value "$old" kernel | grep . || echo 6.12)"
		grep "^$sec\." "$old" >> "$data"
	fi
done
guest_cpu=''
vml() { printf '%s/%s/vmlinux\n' "$OUT_ROOT" "$1"; }

# boot_tests SCENARIO NAME TESTS: boot, keep the guest KTAP in $out/NAME/.
boot_tests() {
	local s=$1 name=$2 tests=$3 r=$out/$2/result
	if [ "$resume" = 1 ] && [ -r "$r" ] && grep -qx 'verdict=PASS' "$r" &&
		grep -qxF "tests=$tests" "$r" &&
		grep -qx "kernel_head=$(tree_git rev-parse --short=9 "$COOL_BRANCH" 2>/dev/null)" "$r"; then
		info "bench: $name (kept from the earlier run)"
		guest_cpu=$(sed -n 's/^cpu=//p' "$r")
		return 0
	fi
	info "bench: $name"
	if ! "$REPO_ROOT/qemu-boot/boot.sh" --scenario "$s" --tests "$tests" \
		--results-dir "$out/$name" > /dev/null; then
		die "boot $name failed: see $out/$name/console.log"
	fi
	guest_cpu=$(sed -n 's/^cpu=//p' "$out/$name/result")
}

# torture_writes LOG TYPE: locktorture TYPE's write acquisitions in LOG
# (a guest's ktap.log), 0 when it has none
torture_writes() {
	local w
	w=$(sed -n "s/^# locktorture\.$2: Writes: Total: \([0-9]*\) .*/\1/p" "$1" | tail -1)
	echo "${w:-0}"
}

# kernel_scenario V, kernel_args V: the scenario and the boot arguments of
# a --torture-kernels name: coolnoirqwait is cool with the wait's budget
# at 0, stocktas and cooltas are stock and cool (on a guest CPU with the
# hypervisor bit, which the caller sets)
kernel_scenario() { case $1 in coolnoirqwait) echo cool ;; *) echo "${1%tas}" ;; esac; }
kernel_args() { [ "$1" != coolnoirqwait ] || echo "$KIRQWAIT_PARAM=0"; }

# torture_emit SEC N KERNELS: the locktorture totals of section SEC's boots
# at N vCPUs ($out/SEC-KERNEL-N-BOOT/ktap.log) as keys SEC.KERNEL.TYPE.N.BOOT
# (write acquisitions) and, for the rwlock types, SEC.KERNEL.TYPE.reads.N.BOOT
# (read acquisitions).
torture_emit() {
	local sec=$1 n=$2 v t w r log
	for r in $(seq 1 "$3"); do
		for v in $4; do
			log=$out/$sec-$v-$n-$r/ktap.log
			for t in $torture_types; do
				emit "$sec.$v.$t.$n.$r=$(torture_writes "$log" "$t")"
				case $t in rw_*) ;; *) continue ;; esac
				w=$(sed -n "s/^# locktorture\.$t: .* Reads \{0,1\}: Total: \([0-9]*\) .*/\1/p" "$log" | tail -1)
				emit "$sec.$v.$t.reads.$n.$r=${w:-0}"
			done
		done
	done
}

# bg CMD...: run a boot of a single-threaded (-icount) guest in the
# background, two at a time (one per host core); bg_wait: wait for them.
# Instruction-time results do not depend on the host's load.
bg_pids='' bg_running=0
bg_wait() {
	local p
	for p in $bg_pids; do wait "$p" || die "a boot failed: see the console.log files in $out/"; done
	bg_pids='' bg_running=0
}
bg() {
	"$@" &
	bg_pids="$bg_pids $!" bg_running=$((bg_running + 1))
	[ "$bg_running" -lt 2 ] || bg_wait
}

# torture_section SEC ICOUNT VCPUS REPEATS [HV_VCPUS]: locktorture of each
# type of $torture_types for $secs s (long_hold=0), REPEATS boots of each
# kernel at each vCPU count of VCPUS, -icount shift=0 when ICOUNT is 1 (two
# boots at a time: instruction time does not depend on the host), else
# wall-clock time (one at a time). Kernels (--torture-kernels): stock, cool, 'coolnoirqwait',
# the cool kernel booted with the wait's budget at 0 (KIRQWAIT_PARAM: 6.12
# cool_irqwait=0, 7.3 spinlock.irqwait_us=0), which separates the cost of
# the call convention from that of interrupt-enabled waiting; at the vCPU
# counts of HV_VCPUS also 'stocktas' and 'cooltas', stock and cool on a
# guest CPU with the CPUID hypervisor bit (COOL_HYPERVISOR=1: without pv
# spinlocks every waiter spins in virt_spin_lock()'s test-and-set lock, as
# in most VMs). They take turns within each round, so that a drift of the
# host's speed over the run shows in every kernel's spread.
# torture_kernels_at N HV_VCPUS: the kernels booted at N vCPUs
torture_kernels_at() {
	case " $2 " in
	*" $1 "*) echo "$torture_kernels stocktas cooltas" ;;
	*) echo "$torture_kernels" ;;
	esac
}

torture_section() {
	local sec=$1 ic=$2 list=$3 reps=$4 hv=${5:-} run='' r n v s args tokens='' t hyp
	[ "$ic" = 1 ] && run='bg'
	for t in $torture_types; do
		tokens="${tokens:+$tokens }locktorture:$t:$secs:long_hold=0"
	done
	for r in $(seq 1 "$reps"); do
		for n in $list; do
			for v in $(torture_kernels_at "$n" "$hv"); do
				s=$(kernel_scenario "$v") args=$(kernel_args "$v") hyp=0
				case $v in *tas) hyp=1 ;; esac
				COOL_HYPERVISOR=$hyp COOL_ICOUNT=$ic COOL_SMP=$n COOL_BOOT_ARGS=$args ${run:+"$run"} \
					boot_tests "$s" "$sec-$v-$n-$r" "$tokens"
			done
		done
	done
	bg_wait
	for n in $list; do
		torture_emit "$sec" "$n" "$reps" "$(torture_kernels_at "$n" "$hv")"
	done
	emit "$sec.secs=$secs"
	emit "$sec.repeats=$reps"
	emit "$sec.types=$torture_types"
	[ -z "$hv" ] || emit "$sec.hypervisor_vcpus=$hv"
	emit "$sec.guest_cpu=$(sed -n 's/^cpu=//p' "$out/$sec-cool-${list##* }-1/result")"
	[ -z "$hv" ] || emit "$sec.hypervisor_guest_cpu=$(sed -n 's/^cpu=//p' "$out/$sec-cooltas-${hv##* }-1/result")"
}

# workload_emit PREFIX KERNELS: the lockload figures of the boots
# $out/PREFIX-KERNEL-BOOT (dots of PREFIX as dashes) as keys
# PREFIX.KERNEL.WORKLOAD.BOOT=ns, and PREFIX.iters.WORKLOAD from the first
# boot of the first kernel.
workload_emit() {
	local pre=$1 r v w it ns first=${2%% *}
	for r in $(seq 1 "$repeats"); do
		for v in $2; do
			# workload: name=pipe iters=2000 ns=123 ns_per_iter=..
			sed -n 's/^# workload: name=\([a-z]*\) iters=\([0-9]*\) ns=\([0-9]*\) .*/\1 \2 \3/p' \
				"$out/${pre//./-}-$v-$r/ktap.log" | while read -r w it ns; do
				emit "$pre.$v.$w.$r=$ns"
				[ "$r$v" != "1$first" ] || emit "$pre.iters.$w=$it"
			done
		done
	done
}

# text_counts VMLINUX PREFIX: keys PREFIX.section_text (size -A .text),
# PREFIX.calls_raw and PREFIX.calls_cool (call sites of _raw_* / __cool_*).
text_counts() {
	emit "$2.section_text=$(size -A "$1" | awk '$1 == ".text" { print $2 }')"
	emit "$2.calls_raw=$(objdump -d --no-show-raw-insn "$1" | grep -cE 'call +[0-9a-f]+ <_raw_(spin|read|write)_')"
	emit "$2.calls_cool=$(objdump -d --no-show-raw-insn "$1" | grep -cE 'call +[0-9a-f]+ <__cool_')"
}

# text_pair LABEL STOCK COOL: keys text[.LABEL].*; the minimal pair keeps
# the unlabelled keys text.stock.* / text.cool.* / text.functions_*.
text_pair() {
	local label=$1 st=$2 co=$3 pre=text
	[ "$label" = minimal ] || pre=text.$label
	text_counts "$(vml "$st")" "$pre.stock"
	text_counts "$(vml "$co")" "$pre.cool"
	"$TREE/scripts/bloat-o-meter" -t "$(vml "$st")" "$(vml "$co")" > "$out/bloat-o-meter-$label.txt"
	# Total: Before=4349142, After=4345773, chg -0.08%
	sed -n "s/^Total: Before=\([0-9]*\), After=\([0-9]*\), chg \(.*\)/$pre.functions_before=\1\\
$pre.functions_after=\2\\
$pre.functions_change=\3/p" "$out/bloat-o-meter-$label.txt" >> "$data"
}

if want callers; then
	# Caller-side cost, the headline: lock-heavy system call loops
	# (selftests/guest/lockload.c) in instruction time (-icount shift=0:
	# one guest ns per instruction, one vCPU that never idles in the loops,
	# so the ns count the instructions of the whole guest), KASLR off;
	# $repeats boots of each kernel for the spread.
	for r in $(seq 1 "$repeats"); do
		for v in stock cool coolnoirqwait; do
			k=$v args=nokaslr
			[ "$v" != coolnoirqwait ] || k=cool args="nokaslr $KIRQWAIT_PARAM=0"
			COOL_ICOUNT=1 COOL_SMP=1 COOL_BOOT_ARGS=$args bg boot_tests "$k" "callers-$v-$r" "workload:$workload_iters"
		done
	done
	bg_wait
	workload_emit callers "stock cool coolnoirqwait"
	emit "callers.repeats=$repeats"
	emit "callers.irqwait_param=$KIRQWAIT_PARAM"
	emit "callers.guest_cpu=$(sed -n 's/^cpu=//p' "$out/callers-cool-1/result")"
fi

if want text; then
	info "bench: text size ($text_pairs)"
	for p in $text_pairs; do
		q=${p#*:}
		text_pair "${p%%:*}" "${q%%:*}" "${q#*:}"
		emit "text.pair.${p%%:*}.date=$now"
		emit "text.pair.${p%%:*}.series_tree=$series_tree"
	done
	# --text-pairs: the pairs left out keep their keys from the last run,
	# with the run that measured them, if that run had this series tree
	if [ -n "$text_only" ] && [ -r "$old" ]; then
		for p in $all_text_pairs; do
			l=${p%%:*}
			case " $text_pairs " in *" $p "*) continue ;; esac
			if [ "$l" = minimal ]; then keys='^text\.(stock|cool)\.|^text\.functions_'; else keys="^text\\.$l\\."; fi
			grep -Eq "$keys" "$old" || continue
			d=$(bench_value "$old" "text.pair.$l.date") t=$(bench_value "$old" "text.pair.$l.series_tree")
			[ -n "$d" ] || d=$(bench_value "$old" text.date) t=$(bench_value "$old" text.series_tree)
			if [ "$t" != "$series_tree" ]; then
				warn "text pair $l: docs/data/bench.txt has it from series tree $t, not $series_tree; dropped (measure it again)"
				continue
			fi
			grep -E "$keys" "$old" >> "$data"
			emit "text.pair.$l.date=$d"
			emit "text.pair.$l.series_tree=$t"
		done
	fi
fi

if want pathlen; then
	for s in stock cool; do
		COOL_ICOUNT=1 COOL_SMP=1 boot_tests "$s" "pathlen-$s" bench:pathlen
		sed -n 's/^# bench: pathlen api=\([^ ]*\) per_pair=\([^ ]*\) .*/\1 \2/p' \
			"$out/pathlen-$s/ktap.log" | while read -r api v; do
			emit "pathlen.$s.$api=$v"
		done
	done
	emit "pathlen.guest_cpu=$guest_cpu"
fi

if want irqlat; then
	# Two clocks: 'icount' (-icount shift=0, single-threaded TCG, guest time
	# counts instructions: deterministic, no host scheduling in it) and
	# 'mttcg' (the usual multi-threaded TCG, wall-clock guest time).
	for mode in icount mttcg; do
		for s in stock cool; do
			ic=0
			[ "$mode" = mttcg ] || ic=1
			COOL_ICOUNT=$ic boot_tests "$s" "irqlat-$mode-$s" bench:irqlat
			sed -n 's/^# bench: irqlat hold_us=\([0-9]*\) runs=[0-9]* median_ns=\([0-9]*\) p90_ns=[0-9]* p99_ns=\([0-9]*\) max_ns=\([0-9]*\).*/\1 \2 \3 \4/p' \
				"$out/irqlat-$mode-$s/ktap.log" | while read -r hold med p99 max; do
				emit "irqlat.$mode.$s.$hold.median_ns=$med"
				emit "irqlat.$mode.$s.$hold.p99_ns=$p99"
				emit "irqlat.$mode.$s.$hold.max_ns=$max"
			done
		done
	done
	emit "irqlat.runs=$(sed -n 's/^# bench: irqlat hold_us=[0-9]* runs=\([0-9]*\) .*/\1/p' "$out/irqlat-icount-cool/ktap.log" | head -1)"
	emit "irqlat.guest_cpu=$guest_cpu"
fi

if want scaling; then
	torture_section scaling 0 "$smp_list" "$scaling_repeats"
fi
if want throughput; then
	# locktorture in instruction time (-icount shift=0): deterministic, no
	# host scheduling, so uncontended (1 vCPU) differences of a few percent
	# are real. Single-threaded TCG runs the vCPUs in turn, so with more than
	# one a lock holder is descheduled at the end of its slice: contended
	# numbers still carry that artefact.
	torture_section throughput 1 "$icount_smp_list" "$torture_repeats" "$hv_smp_list"
fi

# profile_emit PREFIX VMLINUX PROFILE ACQUISITIONS: the instructions of
# insnprof.txt PROFILE per kernel function of VMLINUX (a nokaslr boot), per
# acquisition, as PREFIX.fn.NAME for those of at least 0.5, and the
# whole guest's as PREFIX.insns (boot and user space included).
profile_emit() {
	nm -n "$2" | python3 -c '
import bisect, sys
prefix, prof, acq = sys.argv[1], sys.argv[2], int(sys.argv[3])
addrs, names, end = [], [], 0
for line in sys.stdin:
    f = line.split()
    if len(f) != 3:
        continue
    if f[2] == "_etext":
        end = int(f[0], 16)
    if f[1] in "tTwW":
        addrs.append(int(f[0], 16))
        names.append(f[2])
per, total = {}, 0
with open(prof) as fp:
    for line in fp:
        a, n = line.split()
        a, n = int(a, 16), int(n)
        total += n
        i = bisect.bisect_right(addrs, a) - 1
        if i >= 0 and a < end:
            per[names[i]] = per.get(names[i], 0) + n
print(f"{prefix}.insns={total}")
for name, n in sorted(per.items(), key=lambda kv: -kv[1]):
    if acq and n / acq >= 0.5:
        print(f"{prefix}.fn.{name}={n / acq:.2f}")
' "$1" "$3" "$4" >> "$data" || die "could not map $3 to the symbols of $2"
}

if want profile; then
	# Where each kernel's instructions go under contention (issue 36):
	# locktorture types that take the spinlock paths, one per boot, at 4
	# vCPUs in instruction time, with the insnprof plugin counting the
	# instructions of every executed block. Per acquisition, a function's
	# count is its cost on the contended path (spinning included).
	plugin=$COOL_CACHE/insnprof.so
	gcc -O2 -Wall -shared -fPIC -fvisibility=hidden -o "$plugin" \
		"$REPO_ROOT/qemu-boot/plugins/insnprof.c" || die "could not build the insnprof plugin"
	for t in spin_lock spin_lock_irq; do
		for v in $torture_kernels; do
			COOL_INSNPROF=$plugin COOL_ICOUNT=1 COOL_SMP=4 COOL_BOOT_ARGS="nokaslr $(kernel_args "$v")" bg \
				boot_tests "$(kernel_scenario "$v")" "profile-$v-$t" "locktorture:$t:$secs:long_hold=0"
		done
	done
	bg_wait
	for t in spin_lock spin_lock_irq; do
		for v in $torture_kernels; do
			w=$(torture_writes "$out/profile-$v-$t/ktap.log" "$t")
			emit "profile.$v.$t.acquisitions=$w"
			profile_emit "profile.$v.$t" "$(vml "$(kernel_scenario "$v")")" "$out/profile-$v-$t/insnprof.txt" "$w"
		done
	done
	emit "profile.secs=$secs"
	emit "profile.vcpus=4"
	emit "profile.guest_cpu=$(sed -n 's/^cpu=//p' "$out/profile-cool-spin_lock/result")"
	emit "profile.kernels=$torture_kernels"
fi

if want irqwait; then
	# The interrupt-enabled wait's time budget, cool_irqwait=N microseconds,
	# against fairness and interrupt latency, in instruction time (-icount
	# shift=0) at each N; 0 turns the feature off. irq_starve: three other
	# CPUs relock back to back, the interrupt-enabled irqsave waiter against
	# a queued spin_lock() waiter in the same boot; then a single relocking
	# CPU, the irqsave waiter against one that queues with interrupts off.
	# bench:irqlat: the IPI latency of a waiting CPU at holds of 10 us to 10 ms.
	for b in $irqwait_list; do
		COOL_ICOUNT=1 COOL_BOOT_ARGS=$KIRQWAIT_PARAM=$b bg boot_tests cool "irqwait-$b" "selftest:irq_starve,irq_starve_rw bench:irqlat"
	done
	bg_wait
	for b in $irqwait_list; do
		f=$out/irqwait-$b/ktap.log
		# irq_starve: cpus=4 irqwait=.. spin_lock_irqsave(irqs on): n=.. max_ns=.. mean_ns=.. spin_lock(queued): n=.. max_ns=.. mean_ns=.. others=..
		sed -n 's/^# irq_starve: cpus=[0-9]* irqwait=[0-9]* spin_lock_irqsave(irqs on): n=\([0-9]*\) max_ns=\([0-9]*\) mean_ns=\([0-9]*\) spin_lock(queued): n=\([0-9]*\) max_ns=\([0-9]*\) mean_ns=\([0-9]*\).*/\1 \2 \3 \4 \5 \6/p' \
			"$f" | while read -r n1 m1 a1 n2 m2 a2; do
			emit "irqwait.$b.irqsave.n=$n1"
			emit "irqwait.$b.irqsave.max_ns=$m1"
			emit "irqwait.$b.irqsave.mean_ns=$a1"
			emit "irqwait.$b.queued.n=$n2"
			emit "irqwait.$b.queued.max_ns=$m2"
			emit "irqwait.$b.queued.mean_ns=$a2"
		done
		sed -n 's/^# irq_starve: one relocking CPU: irqsave(irqs on): n=\([0-9]*\) max_ns=\([0-9]*\) mean_ns=\([0-9]*\) queued(irqs off): n=\([0-9]*\) max_ns=\([0-9]*\) mean_ns=\([0-9]*\).*/\1 \2 \3 \4 \5 \6/p' \
			"$f" | while read -r n1 m1 a1 n2 m2 a2; do
			emit "irqwait.$b.relock.n=$n1"
			emit "irqwait.$b.relock.max_ns=$m1"
			emit "irqwait.$b.relock.mean_ns=$a1"
			emit "irqwait.$b.relock_queued.n=$n2"
			emit "irqwait.$b.relock_queued.max_ns=$m2"
			emit "irqwait.$b.relock_queued.mean_ns=$a2"
		done
		# irq_starve_rw: one relocking writer (1 CPU): irqsave(irqs on): n=.. ... queued(irqs off): n=..
		for k in writer readers; do
			case $k in writer) pat='one relocking writer' ;; readers) pat='readers' ;; esac
			sed -n "s/^# irq_starve_rw: $pat ([0-9]* CPUs*): irqsave(irqs on): n=\([0-9]*\) max_ns=\([0-9]*\) mean_ns=\([0-9]*\) queued(irqs off): n=\([0-9]*\) max_ns=\([0-9]*\) mean_ns=\([0-9]*\).*/\1 \2 \3 \4 \5 \6/p" \
				"$f" | while read -r n1 m1 a1 n2 m2 a2; do
				emit "irqwait.$b.rw_$k.n=$n1"
				emit "irqwait.$b.rw_$k.max_ns=$m1"
				emit "irqwait.$b.rw_$k.mean_ns=$a1"
				emit "irqwait.$b.rw_${k}_queued.n=$n2"
				emit "irqwait.$b.rw_${k}_queued.max_ns=$m2"
				emit "irqwait.$b.rw_${k}_queued.mean_ns=$a2"
			done
		done
		sed -n 's/^# bench: irqlat hold_us=\([0-9]*\) runs=[0-9]* median_ns=\([0-9]*\) p90_ns=[0-9]* p99_ns=[0-9]* max_ns=\([0-9]*\).*/\1 \2 \3/p' \
			"$f" | while read -r h med mx; do
			emit "irqwait.$b.irqlat.$h.median_ns=$med"
			emit "irqwait.$b.irqlat.$h.max_ns=$mx"
		done
	done
	emit "irqwait.guest_cpu=$(sed -n 's/^cpu=//p' "$out/irqwait-${irqwait_list##* }/result")"
fi

if want rivals; then
	# The designs a maintainer would name, each against its group's base
	# (stock of the same compiler and config): text (bloat-o-meter -t, call
	# sites), the code of typical callers, path length, callers and
	# locktorture in instruction time (-icount shift=0, nokaslr). A kernel
	# that does not boot is a result here: its first bad console line.
	rsites='complete add_wait_queue fd_install'
	rboot() { COOL_ICOUNT=1 COOL_BOOT_ARGS=nokaslr boot_tests "$@"; }
	emit "rivals.groups=$rival_groups"
	emit "rivals.compiler.gcc=$(gcc --version | head -1)"
	for g in $rival_groups; do
		case $g in clang*) emit "rivals.compiler.$g=$(clang-"${g#clang}" --version 2>/dev/null | head -1)" ;; esac
	done
	emit "rivals.sites=$rsites"
	: > "$out/rivals-sites.txt"
	booted=''
	for g in $rival_groups; do
		ks=$(rival_kernels "$g")
		emit "rivals.group.$g=$ks"
		for k in $(rival_group "$g"); do
			case " $ks " in *" $k "*) ;; *) emit "rivals.left_out.$g.$k=1" ;; esac
		done
		base=${ks%% *}
		for k in $ks; do
			v=$(vml "$k")
			text_counts "$v" "rivals.$k"
			"$TREE/scripts/bloat-o-meter" -t "$(vml "$base")" "$v" > "$out/bloat-o-meter-rivals-$k.txt"
			emit "rivals.$k.functions=$(sed -n 's/^Total: Before=[0-9]*, After=\([0-9]*\),.*/\1/p' "$out/bloat-o-meter-rivals-$k.txt")"
			emit "rivals.$k.lock_insns=$(objdump -d --no-show-raw-insn "$v" | grep -cE 'lock +(cmpxchg|xadd)')"
			for f in $rsites; do
				# the function's code: one typical caller per lock API
				objdump -d --no-show-raw-insn "$v" | awk -v f="<$f>:" '$2 == f { p = 1 } p && /^$/ { exit } p' > "$out/site-$k-$f.txt"
				emit "rivals.$k.site.$f.insns=$(grep -c '^ *[0-9a-f]*:' "$out/site-$k-$f.txt")"
				b=$(nm -S "$v" | awk -v f="$f" '$4 == f { print $2; exit }')
				emit "rivals.$k.site.$f.bytes=$([ -z "$b" ] || echo $((16#$b)))"
				{ echo "== $k: $f"; cat "$out/site-$k-$f.txt"; echo; } >> "$out/rivals-sites.txt"
			done
			[ "$g" != defconfig ] || continue
			if ! (COOL_SMP=1 rboot "$k" "rivals-pathlen-$k" bench:pathlen); then
				emit "rivals.$k.boot=$(grep -m1 -E 'kernel BUG|Oops|Kernel panic|WARNING|COOL-EXIT' \
					"$out/rivals-pathlen-$k/console.log" | sed 's/^\[[^]]*\] //')"
				continue
			fi
			booted="${booted:-} $k"
			sed -n 's/^# bench: pathlen api=\([^ ]*\) per_pair=\([^ ]*\) .*/\1 \2/p' \
				"$out/rivals-pathlen-$k/ktap.log" | while read -r api p; do
				emit "rivals.pathlen.$k.$api=$p"
			done
		done
	done
	# callers (x86-64 guests: lockload is built for them) and locktorture
	# at 4 vCPUs, two boots at a time, the kernels taking turns
	callers_ks='' r=''
	for r in $(seq 1 "$repeats"); do
		for k in $booted; do
			case $k in i386*) continue ;; esac
			[ "$r" != 1 ] || callers_ks="$callers_ks $k"
			COOL_SMP=1 bg rboot "$k" "rivals-callers-$k-$r" "workload:$workload_iters"
		done
	done
	for r in $(seq 1 "$rival_torture_repeats"); do
		for k in $booted; do
			COOL_SMP=4 bg rboot "$k" "rivals-torture-$k-$r" \
				"locktorture:spin_lock:$secs:long_hold=0 locktorture:spin_lock_irq:$secs:long_hold=0 locktorture:rw_lock:$secs:long_hold=0"
		done
	done
	bg_wait
	[ -z "$callers_ks" ] || workload_emit rivals.callers "${callers_ks# }"
	for r in $(seq 1 "$rival_torture_repeats"); do
		for k in $booted; do
			for t in spin_lock spin_lock_irq rw_lock; do
				emit "rivals.torture.$k.$t.4.$r=$(torture_writes "$out/rivals-torture-$k-$r/ktap.log" "$t")"
			done
			w=$(sed -n 's/^# locktorture\.rw_lock: .*Reads *: *Total: *\([0-9]*\).*/\1/p' \
				"$out/rivals-torture-$k-$r/ktap.log" | tail -1)
			emit "rivals.torture.$k.rw_lock_reads.4.$r=${w:-0}"
		done
	done
	emit "rivals.repeats=$repeats"
	emit "rivals.torture.secs=$secs"
	emit "rivals.torture.repeats=$rival_torture_repeats"
	emit "rivals.guest_cpu=$(sed -n 's/^cpu=//p' "$out/rivals-pathlen-stock/result" 2>/dev/null)"
fi

if want xen; then
	# The series where most kernels run, as a guest: a Xen PV dom0 (4
	# vCPUs on 2 pCPUs: Xen preempts them, so pv waits and kicks happen),
	# where the pv spinlock unlock and PARAVIRT_XXL's irq ops are Xen's,
	# against the same kernels booted without Xen (the pv ops patched to
	# the native instructions). Instruction time (-icount shift=0): under
	# Xen guest time comes from the same instruction-counting clock.
	# waits: pv_wait_head and _node (_early and _again count subsets of
	# them); kicks: pv_kick_unlock, the kicks sent (_wake counts woken
	# waiters)
	xen_ev=pv_wait=pv_wait_head+pv_wait_node,pv_kick=pv_kick_unlock
	xen_sc() { if [ "$1" = stock ]; then echo xen-stock; else echo xen; fi; }
	for r in $(seq 1 "$xen_repeats"); do
		for v in stock cool; do
			for h in xen native; do
				COOL_ICOUNT=1 COOL_HOST=$h bg boot_tests "$(xen_sc "$v")" "xen-pathlen-$v-$h-$r" bench:pathlen
			done
		done
	done
	bg_wait
	for r in $(seq 1 "$xen_repeats"); do
		for v in stock cool; do
			for h in xen native; do
				sed -n 's/^# bench: pathlen api=\([^ ]*\) per_pair=\([^ ]*\) .*/\1 \2/p' \
					"$out/xen-pathlen-$v-$h-$r/ktap.log" | while read -r api p; do
					emit "xen.pathlen.$h.$v.$api.$r=$p"
				done
			done
		done
	done
	for r in $(seq 1 "$torture_repeats"); do
		for v in stock cool; do
			COOL_ICOUNT=1 bg boot_tests "$(xen_sc "$v")" "xen-torture-$v-$r" \
				"locktorture:spin_lock:$secs:long_hold=0 lockevents:$xen_ev locktorture:spin_lock_irq:$secs:long_hold=0 lockevents:$xen_ev"
		done
	done
	bg_wait
	for r in $(seq 1 "$torture_repeats"); do
		for v in stock cool; do
			f=$out/xen-torture-$v-$r/ktap.log
			for t in spin_lock spin_lock_irq; do
				emit "xen.torture.$v.$t.$r=$(torture_writes "$f" "$t")"
				for e in pv_wait pv_kick; do
					c=$(sed -n "s/^# lockevents\.$t\.$e: total=\([0-9]*\) .*/\1/p" "$f" | tail -1)
					emit "xen.lockevents.$v.$t.$e.$r=${c:-0}"
				done
			done
		done
	done
	emit "xen.repeats=$xen_repeats"
	emit "xen.torture_repeats=$torture_repeats"
	emit "xen.secs=$secs"
	emit "xen.guest_cpu=$(sed -n 's/^cpu=//p' "$out/xen-pathlen-cool-xen-1/result")"
	emit "xen.host=$(sed -n 's/^host_package=//p' "$out/xen-pathlen-cool-xen-1/result")"
	emit "xen.host_args=$(sed -n 's/^host_args=//p' "$out/xen-pathlen-cool-xen-1/result")"
	emit "xen.host_cpus=$(sed -n 's/^host_cpus=//p' "$out/xen-pathlen-cool-xen-1/result")"
fi

info "bench: raw results in ${out#"$REPO_ROOT"/}/bench.txt"
"$REPO_ROOT/scripts/report.sh" "$data"
