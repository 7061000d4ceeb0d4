#!/bin/bash
# boot.sh - boot a scenario's kernel in QEMU, run the guest tests, judge.
#
# Usage: qemu-boot/boot.sh [--kernel VER] [--scenario NAME] [--shell] [--timeout S]
#                          [--tests 'TOKENS'] [--results-dir DIR] [--dry-run] [--help]
#   --kernel VER       7.3 or 6.12 (env KERNEL, default scripts/lib.sh
#                      COOL_DEFAULT_KERNEL)
#   --scenario NAME    (env SCENARIO, default cool)
#   --shell            interactive shell on the console (kernel arg cool.shell=1),
#                      no timeout; QEMU: Ctrl-A x quits
#   --timeout S        seconds before the guest counts as hung (env COOL_TIMEOUT,
#                      then the scenario's TIMEOUT; default: from what the guest
#                      runs, scripts/lib.sh scenario_timeout: each token's
#                      declared seconds plus BOOT_SECONDS, x3, x the host
#                      slow-down measured now by a fixed CPU loop)
#   --tests TOKENS     guest runner arguments instead of the scenario's TESTS
#   --results-dir DIR  default results/<UTC date-time>/VER-NAME
# Environment: COOL_ACCEL=kvm|tcg forces the accelerator (default: probe KVM by
# booting the kernel, fall back to -accel tcg,thread=multi). ICOUNT=1 (the
# scenario's, or env COOL_ICOUNT=1)
# boots with -accel tcg -icount shift=0 (guest time counts instructions).
# COOL_INSNPROF=PLUGIN (a build of qemu-boot/plugins/insnprof.c, for
# scripts/bench.sh's profile section) loads that QEMU plugin, which counts
# the instructions executed per translation block into insnprof.txt of the
# results dir; exact with -icount (one TCG thread) only.
# The guest CPU has no CPUID hypervisor bit unless the scenario says
# HYPERVISOR=1 (env COOL_HYPERVISOR): with the bit, a guest without pv
# spinlocks waits in virt_spin_lock()'s test-and-set lock instead of the
# qspinlock queue, and the queue is what the series must be tested on.
#
# HOST=xen (the scenario's): QEMU boots Debian's Xen hypervisor
# ($COOL_CACHE/xen/, scripts/setup.sh --for xen) with -kernel, and the
# kernel is its PV dom0: -initrd "bzImage DOM0-CMDLINE,initramfs" (QEMU's
# multiboot modules; a comma inside a module's command line is doubled).
# Xen gets HOST_CPUS (default 2) CPUs and "console=com1
# dom0_max_vcpus=SMP-SMP" plus HOST_ARGS (env COOL_HOST_ARGS; dom0_mem=
# there); QEMU's -smp HOST_CPUS,maxcpus=SMP makes the MADT list SMP CPUs,
# from which dom0 takes its possible CPUs, so dom0 has SMP vCPUs on
# HOST_CPUS pCPUs and Xen preempts them. Xen prints on com1 (console.log)
# both its own lines, "(XEN) ...", and dom0's console (hvc0); dom0 drives
# COM2 itself (ttyS1, ktap.log), a port Xen leaves to it. No Xen
# 'noreboot': a dom0 panic (panic=-1) or a Xen panic reboots the machine
# 5 s later, which ends QEMU (-no-reboot), as a native panic does. Xen's
# serial port is also a socket (com1.sock): 20 s before the timeout of a
# guest that has not reported, boot.sh types Xen's debug key '0' there,
# and Xen dumps each dom0 vCPU's registers and stack into console.log;
# hang-stacks.txt has them with the kernel's symbols
# (qemu-boot/xen-stacks.awk).
#
# A scenario's CONSOLE_EXPECT ('|'-separated fixed strings) must all be in
# console.log, else the boot fails (1); console-expect.txt has one
# "ok|not ok console.NAME<TAB>STRING" line each (selftests/run.sh makes
# them cases).
#
# Needs a built kernel (scripts/build.sh).  Writes to the results dir:
# console.log (serial 0: kernel + /init; under Xen: Xen and dom0's hvc0),
# ktap.log (serial 1: guest runner), qemu-cmd (the exact QEMU command,
# replay with: cd DIR && sh qemu-cmd), bzImage + initramfs.cpio.gz (and
# xen: what was booted), judge.txt, result (key=value).
#
# Exit codes (docs/harness.md maps them to kselftest's): 0 the guest ran and
# reported 0, 1 tests failed (guest rc != 0), 2 kernel badness in the console
# log, 3 hang/timeout (no COOL-EXIT after S s), 5 bad usage / unknown
# scenario, 6 QEMU (or the initramfs) failed to start / kernel not built.
set -eu
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

scenario=${SCENARIO:-cool} shell=0 timeout_s='' tests='' resdir='' dry_run=0
while [ $# -gt 0 ]; do
	case $1 in
	--scenario) [ $# -ge 2 ] || usage_error "--scenario needs a value"; scenario=$2; shift ;;
	--scenario=*) scenario=${1#*=} ;;
	--kernel) [ $# -ge 2 ] || usage_error "--kernel needs a value"; select_kernel "$2"; shift ;;
	--kernel=*) select_kernel "${1#*=}" ;;
	--shell) shell=1 ;;
	--timeout) [ $# -ge 2 ] || usage_error "--timeout needs a value"; timeout_s=$2; shift ;;
	--timeout=*) timeout_s=${1#*=} ;;
	--tests) [ $# -ge 2 ] || usage_error "--tests needs a value"; tests=$2; shift ;;
	--tests=*) tests=${1#*=} ;;
	--results-dir) [ $# -ge 2 ] || usage_error "--results-dir needs a value"; resdir=$2; shift ;;
	--results-dir=*) resdir=${1#*=} ;;
	--dry-run) dry_run=1 ;;
	-h | --help) show_help; exit 0 ;;
	*) usage_error "unknown option $1" ;;
	esac
	shift
done
load_scenario "$scenario"
[ -z "$timeout_s" ] || TIMEOUT=$timeout_s
[ -z "$tests" ] || TESTS=$tests
timeout_why="set"
sd=$(host_slowdown) || exit "$E_USAGE"
read -r slowdown slowdown_measured <<<"$sd"
# cool_irqwait of the selftest's irq_wait case: 20 ms on an idle host,
# scaled by the slow-down (at most the knob's 100 ms): the budget is TSC
# time, and a host that deschedules the vCPUs spends it before the waiter
# has had interrupts on for long (irq_wait saw no tick in a 20 ms budget
# at 2.5x). The other cases keep COOL_SELFTEST_IRQWAIT (20 ms).
if [ -z "${COOL_SELFTEST_IRQWAIT_WAIT:-}" ]; then
	COOL_SELFTEST_IRQWAIT_WAIT=$((${COOL_SELFTEST_IRQWAIT:-20000} * slowdown / 100))
	[ "$COOL_SELFTEST_IRQWAIT_WAIT" -le 100000 ] || COOL_SELFTEST_IRQWAIT_WAIT=100000
	export COOL_SELFTEST_IRQWAIT_WAIT
fi
if [ -z "$TIMEOUT" ]; then
	read -r TIMEOUT declared < <(scenario_timeout "$slowdown")
	timeout_why="declared ${declared}s x$([ "$ICOUNT" = 1 ] && echo "12 (x3, x4 for -icount)" || echo 3) x host slow-down $(slowdown_factor "$slowdown")"
	[ "$slowdown" = "$slowdown_measured" ] ||
		timeout_why="$timeout_why (capped by COOL_SLOWDOWN_MAX; measured $(slowdown_factor "$slowdown_measured"))"
fi
case $TIMEOUT in '' | *[!0-9]* | 0) usage_error "--timeout wants a positive number of seconds, got '$TIMEOUT'" ;; esac
[ -n "$resdir" ] || resdir=$(default_results_dir "$(run_name "$SCENARIO")$([ "$shell" = 1 ] && echo -shell)")
kernel=$OUT/arch/x86/boot/bzImage

# cpu_model ACCEL: QEMU's -cpu value: the default model of the binary (host
# under KVM), without the CPUID hypervisor bit unless HYPERVISOR=1.
cpu_model() {
	local m=qemu64
	[ "$ARCH" != i386 ] || m=qemu32
	[ "$1" != kvm ] || m=host
	[ "$HYPERVISOR" = 1 ] || m="$m,-hypervisor"
	echo "$m"
}

append="console=ttyS0 panic=-1${BOOT_ARGS:+ $BOOT_ARGS}"
if [ "$HOST" = xen ]; then
	# dom0's console is Xen's (hvc0); loglevel=8 lets the console show
	# the KERN_DEBUG line "xen: PV spinlocks enabled"
	append="console=hvc0 earlyprintk=xen loglevel=8 panic=-1${BOOT_ARGS:+ $BOOT_ARGS}"
	xen_append="console=com1 dom0_max_vcpus=$SMP-$SMP${HOST_ARGS:+ $HOST_ARGS}"
	maxcpus=$SMP
	[ "$maxcpus" -ge "$HOST_CPUS" ] || maxcpus=$HOST_CPUS
fi
[ "$shell" = 0 ] || append="$append cool.shell=1"

if [ "$dry_run" = 1 ]; then
	echo "boot: kernel $KVER, scenario $SCENARIO ($ARCH), results in $resdir"
	echo "  kernel $kernel$([ -f "$kernel" ] || echo " (NOT BUILT: make kernel KERNEL=$KVER SCENARIO=$SCENARIO)")"
	"$REPO_ROOT/qemu-boot/initramfs.sh" --scenario "$SCENARIO" --tests "$TESTS" --output "$resdir/initramfs.cpio.gz" --dry-run | sed 's/^/  /'
	echo "  $QEMU_BIN -accel <kvm if a probe boot works, else tcg,thread=$([ "$HOST" = xen ] && echo single || echo multi)> -cpu $(cpu_model tcg) (kvm: $(cpu_model kvm))"
	if [ "$HOST" = xen ]; then
		echo "    -smp $HOST_CPUS,maxcpus=$maxcpus -m $MEM -nographic -no-reboot"
		echo "    -kernel xen ($XEN_IMAGE$([ -s "$XEN_IMAGE" ] || echo ', NOT THERE: scripts/setup.sh --for xen')) -append \"$xen_append\""
		echo "    -initrd \"bzImage ${append//,/,,},initramfs.cpio.gz\"   (Xen PV dom0, $SMP vCPUs on $HOST_CPUS pCPUs)"
	else
		echo "    -smp $SMP -m $MEM -nographic -no-reboot"
		echo "    -kernel bzImage -initrd initramfs.cpio.gz -append \"$append\""
	fi
	if [ "$shell" = 1 ]; then
		echo "    -serial mon:stdio -serial file:ktap.log   (interactive, no timeout)"
	elif [ "$HOST" = xen ]; then
		echo "    -chardev socket,id=com1,path=com1.sock,server=on,wait=off,logfile=console.log -serial chardev:com1 -serial file:ktap.log"
		echo "    (timeout ${TIMEOUT}s: $timeout_why; Xen debug key '0' 20 s before it; then judge.sh console.log)"
	else
		echo "    -serial file:console.log -serial file:ktap.log   (timeout ${TIMEOUT}s: $timeout_why; then judge.sh console.log)"
	fi
	exit 0
fi
# a 6.12 build dir of the layout before per-kernel build dirs, booted
# without a build first (make bench --no-build)
out_migrate

command -v "$QEMU_BIN" >/dev/null 2>&1 ||
	die_rc "$E_QEMU" "missing tool $QEMU_BIN: apt-get install qemu-system-x86"
require_tool timeout coreutils
[ -f "$kernel" ] || die_rc "$E_QEMU" "no $KVER kernel for $SCENARIO: $kernel does not exist" \
	"build it: make kernel KERNEL=$KVER SCENARIO=$SCENARIO (or scripts/build.sh --kernel $KVER --scenario $SCENARIO)"
if [ "$HOST" = xen ]; then
	[ -s "$XEN_IMAGE" ] || die_rc "$E_QEMU" "scenario $SCENARIO boots Xen, and $XEN_IMAGE does not exist" \
		"scripts/setup.sh --for xen (apt-get download + dpkg-deb -x of $XEN_PKG, never installed)"
	# QEMU splits -initrd at commas and each module at its first space
	case $resdir in *[,\ ]*) die_rc "$E_USAGE" "scenario $SCENARIO: the results dir '$resdir' has a comma or a space, which QEMU's -initrd list cannot carry" ;; esac
fi

mkdir -p "$resdir"
resdir=$(cd "$resdir" && pwd)
"$REPO_ROOT/qemu-boot/initramfs.sh" --scenario "$SCENARIO" --tests "$TESTS" --output "$resdir/initramfs.cpio.gz" ||
	die_rc "$E_QEMU" "could not build the initramfs"
cp "$kernel" "$resdir/bzImage"
[ "$HOST" != xen ] || cp "$XEN_IMAGE" "$resdir/xen"
cp "$OUT/.config" "$resdir/config" 2>/dev/null || true

if [ "$ICOUNT" = 1 ]; then
	# Deterministic instruction counting: one guest ns per instruction.
	# icount needs single-threaded TCG.
	accel=tcg-icount
else
	accel=$(pick_accel "$QEMU_BIN" "$kernel")
fi
# Xen under TCG runs single-threaded: with multi-threaded TCG the same
# boot was several times slower (Xen's page-table updates and TLB flushes
# of PV guests stop every vCPU thread) and went quiet with every QEMU
# thread idle and a dom0 vCPU runnable until a key on Xen's console woke
# it (seen 3 times in 5 boots, 2026-12-06; never with one thread)
[ "$HOST" != xen ] || [ "$accel" != tcg ] || accel=tcg-single
if [ "$accel" = tcg-icount ]; then
	accel_args=(-accel tcg -icount shift=0)
elif [ "$accel" = kvm ]; then
	accel_args=(-accel kvm)
elif [ "$accel" = tcg-single ]; then
	accel_args=(-accel 'tcg,thread=single')
else
	accel_args=(-accel 'tcg,thread=multi')
fi
accel_args+=(-cpu "$(cpu_model "$accel")")
if [ -n "${COOL_INSNPROF:-}" ]; then
	[ -r "$COOL_INSNPROF" ] || die_rc "$E_USAGE" "COOL_INSNPROF=$COOL_INSNPROF is not readable" "scripts/bench.sh --only profile builds it"
	[ "$accel" = tcg-icount ] || die_rc "$E_USAGE" "COOL_INSNPROF needs -icount (ICOUNT=1): its counts are exact with one TCG thread only"
	accel_args+=(-plugin "$COOL_INSNPROF,out=$resdir/insnprof.txt")
fi
if [ "$HOST" = xen ]; then
	cmd=("$QEMU_BIN" "${accel_args[@]}" -smp "$HOST_CPUS,maxcpus=$maxcpus" -m "$MEM" -nographic -no-reboot -nic none
		-kernel "$resdir/xen" -append "$xen_append"
		-initrd "$resdir/bzImage ${append//,/,,},$resdir/initramfs.cpio.gz")
else
	cmd=("$QEMU_BIN" "${accel_args[@]}" -smp "$SMP" -m "$MEM" -nographic -no-reboot -nic none
		-kernel "$resdir/bzImage" -initrd "$resdir/initramfs.cpio.gz" -append "$append")
fi
if [ "$shell" = 1 ]; then
	cmd+=(-serial mon:stdio -serial file:ktap.log)
elif [ "$HOST" = xen ]; then
	# Xen's console: logged to console.log, and a socket through which
	# boot.sh can type Xen debug keys before it stops a hung guest
	cmd+=(-monitor none -chardev 'socket,id=com1,path=com1.sock,server=on,wait=off,logfile=console.log'
		-serial chardev:com1 -serial file:ktap.log)
else
	cmd+=(-monitor none -serial file:console.log -serial file:ktap.log)
fi
{
	echo "#!/bin/sh"
	echo "# QEMU command of scenario $SCENARIO on kernel $KVER, $(date -u '+%Y-%m-%d %H:%M:%S UTC'), accel $accel."
	echo "# Replay: cd $resdir && sh qemu-cmd  (serial logs go to the current directory)"
	line=''
	for a in "${cmd[@]}"; do line="$line $(shquote "$a")"; done
	echo "exec${line}"
} >"$resdir/qemu-cmd"
chmod +x "$resdir/qemu-cmd"

if [ "$shell" = 1 ]; then
	info "booting $SCENARIO with a shell ($accel); Ctrl-A x quits QEMU; results: $resdir"
	cd "$resdir"
	rc=0
	"${cmd[@]}" || rc=$?
	[ "$rc" = 0 ] || die_rc "$E_QEMU" "QEMU exited with $rc" "see $resdir/qemu-cmd"
	exit 0
fi

: >"$resdir/console.log"
: >"$resdir/ktap.log"
info "booting $KVER $SCENARIO ($ARCH, $accel, ${HOST:+$HOST dom0, $HOST_CPUS pCPUs, }smp $SMP, mem $MEM, timeout ${TIMEOUT}s ($timeout_why), TESTS='$TESTS') -> $resdir"
start=$(date +%s)
(cd "$resdir" && exec timeout -k 10 "$TIMEOUT" "${cmd[@]}" </dev/null >"$resdir/qemu.out" 2>&1) &
qpid=$!
trap 'kill "$qpid" 2>/dev/null || true' EXIT
trap 'status_done; warn "interrupted"; exit 130' INT TERM
# xen_debug_keys: before the timeout stops a hung Xen guest, switch Xen's
# serial input to Xen (Ctrl-A three times) and press '0': Xen dumps every
# dom0 vCPU's registers and stack into console.log (symbolized below)
xen_debug_keys() {
	python3 - "$resdir/com1.sock" <<'PY' || warn "could not send Xen debug keys through $resdir/com1.sock"
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(5)
s.connect(sys.argv[1])
s.sendall(b"\x01\x01\x01")
time.sleep(1)
s.sendall(b"0")
time.sleep(6)
s.close()
PY
}
seen_exit="" last_report=$start killed_after_exit=0 keys_sent=0
while kill -0 "$qpid" 2>/dev/null; do
	now=$(date +%s)
	el=$((now - start))
	if [ "$HOST" = xen ] && [ "$keys_sent" = 0 ] && [ "$TIMEOUT" -gt 60 ] && [ "$el" -ge $((TIMEOUT - 20)) ] &&
		! grep -aq 'COOL-EXIT:' "$resdir/console.log"; then
		keys_sent=1
		info "$SCENARIO: no COOL-EXIT $el s in: Xen debug key '0' (dom0 vCPU registers and stacks) before the timeout"
		xen_debug_keys
	fi
	last=$(tail -c 2000 "$resdir/console.log" | tr -d '\r' | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g' | tr -c '[:print:]\n' ' ' | grep -v '^[[:space:]]*$' | tail -n 1 || true)
	status "[cool] $KVER $SCENARIO ${el}s/${TIMEOUT}s | $last"
	if ! is_tty && [ $((now - last_report)) -ge 60 ]; then
		info "$KVER $SCENARIO: ${el}s | $last"
		last_report=$now
	fi
	if grep -aq 'COOL-EXIT:' "$resdir/console.log"; then
		[ -n "$seen_exit" ] || seen_exit=$now
		if [ $((now - seen_exit)) -ge 15 ]; then
			warn "guest reported COOL-EXIT but did not power off within 15 s; stopping QEMU"
			kill "$qpid" 2>/dev/null || true
			killed_after_exit=1
		fi
	fi
	sleep 1
done
qrc=0
wait "$qpid" || qrc=$?
trap - EXIT INT TERM
status_done
elapsed=$(($(date +%s) - start))

# ktap.log went through a tty: drop carriage returns.
tr -d '\r' <"$resdir/ktap.log" >"$resdir/ktap.log.tmp" && mv "$resdir/ktap.log.tmp" "$resdir/ktap.log"
guest_rc=$(tr -d '\r' <"$resdir/console.log" | sed -n 's/.*COOL-EXIT: \([0-9]*\).*/\1/p' | tail -n 1)
[ -n "$guest_rc" ] || guest_rc=$(sed -n 's/^COOL-EXIT: \([0-9]*\).*/\1/p' "$resdir/ktap.log" | tail -n 1)

jrc=0
"$REPO_ROOT/qemu-boot/judge.sh" --kcsan-scope "$KCSAN_SCOPE" \
	--known-warnings "$KNOWN_WARNINGS" "$resdir/console.log" >"$resdir/judge.txt" 2>&1 || jrc=$?

# CONSOLE_EXPECT: lines the console must show (fixed strings, '|' between
# them), each a case console.NAME (NAME: the string in lower case, runs of
# other characters as '_'), "ok|not ok NAME<TAB>STRING" in console-expect.txt
missing=''
: >"$resdir/console-expect.txt"
if [ -n "$CONSOLE_EXPECT" ]; then
	IFS='|' read -r -a expects <<<"$CONSOLE_EXPECT"
	for e in "${expects[@]}"; do
		[ -n "$e" ] || continue
		en=console.$(printf '%s' "$e" | tr '[:upper:]' '[:lower:]' | tr -c 'a-z0-9' '_' | sed 's/__*/_/g; s/^_//; s/_$//')
		if tr -d '\r' <"$resdir/console.log" | grep -aqF -- "$e"; then
			printf 'ok %s\t%s\n' "$en" "$e"
		else
			printf 'not ok %s\t%s\n' "$en" "$e"
			missing="$missing '$e'"
		fi >>"$resdir/console-expect.txt"
	done
fi

if [ ! -s "$resdir/console.log" ] && [ "$qrc" != 0 ] && [ "$qrc" != 124 ] && [ "$qrc" != 137 ]; then
	rc=$E_QEMU verdict=QEMU-FAIL
	msg="QEMU failed to start (rc $qrc): $(head -n 3 "$resdir/qemu.out" | tr '\n' ' ')"
elif [ -z "$guest_rc" ] && { [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; }; then
	rc=$E_HANG verdict=HANG msg="guest hung: no COOL-EXIT after $TIMEOUT s"
elif [ "$jrc" = "$E_BADNESS" ]; then
	rc=$E_BADNESS verdict=BADNESS msg="kernel badness in the console log"
elif [ -z "$guest_rc" ]; then
	rc=$E_HANG verdict=NO-EXIT msg="guest stopped without COOL-EXIT (QEMU rc $qrc)"
elif [ "$guest_rc" != 0 ]; then
	rc=$E_FAIL verdict=FAIL msg="guest tests failed (COOL-EXIT: $guest_rc)${missing:+; the console lacks$missing}"
elif [ -n "$missing" ]; then
	rc=$E_FAIL verdict=FAIL msg="the console lacks$missing"
else
	rc=0 verdict=PASS msg="guest tests passed"
fi
if [ "$jrc" != 0 ] && [ "$verdict" != QEMU-FAIL ]; then
	sed 's/^/[cool]   /' "$resdir/judge.txt" >&2
fi
# where the hung dom0's vCPUs were (the Xen debug key dump), symbolized
if [ "$keys_sent" = 1 ] && [ -f "$OUT/System.map" ]; then
	cp "$OUT/System.map" "$resdir/System.map"
	awk -f "$REPO_ROOT/qemu-boot/xen-stacks.awk" "$resdir/System.map" "$resdir/console.log" >"$resdir/hang-stacks.txt"
	if [ -s "$resdir/hang-stacks.txt" ]; then
		info "$SCENARIO: dom0 vCPUs at the hang ($resdir/hang-stacks.txt):"
		sed 's/^/[cool]   /' "$resdir/hang-stacks.txt" | head -n 60 >&2
	fi
fi
[ "$killed_after_exit" = 0 ] || msg="$msg (QEMU had to be stopped after COOL-EXIT)"
{
	echo "scenario=$SCENARIO"
	echo "kernel=$KVER"
	echo "verdict=$verdict"
	echo "exit=$rc"
	echo "guest_rc=${guest_rc:-none}"
	echo "judge_rc=$jrc"
	echo "qemu_rc=$qrc"
	echo "accel=$accel"
	echo "cpu=$(cpu_model "$accel")"
	if [ "$HOST" = xen ]; then
		echo "host=xen"
		echo "host_cpus=$HOST_CPUS"
		echo "host_args=$xen_append"
		echo "host_package=$(cat "${XEN_IMAGE%/*}/package" 2>/dev/null || echo unknown)"
	fi
	echo "boot_seconds=$elapsed"
	echo "timeout=$TIMEOUT"
	echo "timeout_why=$timeout_why"
	echo "host_slowdown_percent=$slowdown"
	echo "host_slowdown_measured_percent=$slowdown_measured"
	echo "selftest_irqwait_wait_us=$COOL_SELFTEST_IRQWAIT_WAIT"
	echo "tests=$TESTS"
	echo "kernel_head=$(tree_git rev-parse --short HEAD 2>/dev/null || echo unknown)"
} >"$resdir/result"
info "$KVER $SCENARIO: $verdict in ${elapsed}s: $msg ($resdir)"
exit "$rc"
