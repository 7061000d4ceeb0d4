#!/bin/bash
# help.sh - 'make help': targets, variables, kernels, scenarios (with the
# kernels each applies to) and config fragments (their '# Help:' lines).
#
# Usage: scripts/help.sh [--help]
# Exit codes: 0.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
printf 'cool-spinlock harness.  Kernels: %s (KERNEL=, default %s); the series of %s is patches/,\n' \
	"$COOL_KERNELS" "$COOL_DEFAULT_KERNEL" "$COOL_MAIN_KERNEL"
printf '%s\n' "the others' patches/<ver>/ (backports).  Targets:"
# make test's runs as the Makefile has them (make help passes TEST_RUNS)
sed "s/@TEST_RUNS@/${COOL_TEST_RUNS:-see the Makefile}/" <<'TXT'
  make [all]          build + boot + test the SCENARIO (default cool) on KERNEL, print the verdict
  make setup          check every package (and fetch 7.3's, unpack each tree, the i386 busybox); as root install
                      what is missing, else print the apt-get line and exit 7
  make test           what CI checks: lint, host-test, then the Makefile's TEST_RUNS, both kernels
                      (@TEST_RUNS@);
                      KERNEL=VER: that kernel's only
  make matrix         the configurations make test has no time for (MATRIX_RUNS: static
                      preemption models, frame pointers, IBT off, Debian's config, lockdep, KCSAN, sweeps;
                      the Xen PV dom0 scenarios xen, xen-stock, xen-rawirq, xen-1vcpu;
                      7.3's i386, KASAN, hang, fairness and preemption scenarios)
  make tree           unpack Debian's linux-source-<ver> as a git repo (no-op when present)
  make series         branch 'cool' = base tag + the kernel's series (no-op when unchanged)
  make config         configure SCENARIO and check every requested option stuck
  make kernel         series + config + build bzImage and modules of SCENARIO
  make boot           build, then boot SCENARIO with an interactive shell (Ctrl-A x quits)
  make lint           shellcheck -S style on every script
  make host-test      the console judge on synthetic logs (badness, hang, KCSAN scope) and
                      what a run keeps (hang mid-module, crash, no boot, results.json), and the
                      kernel knob (which kernel, scenario, fragments, build dirs; dry runs only)
  make check          checkpatch --strict, git am on pristine, every patch built and booted, new warnings,
                      get_maintainer recipients, shellcheck (KTAP, N passed, N failed)
  make check-bisect   only: every patch builds (no new warning) and boots (locktorture) with COOL on
                      and off, on COOL_CHECK_CONFIGS (default cool, preempt-none or preempt-lazy,
                      xen, i386): hours
  make bench          measure stock vs cool on KERNEL -> docs/results.md, plots, docs/data/bench.txt
  make soak           locktorture matrix with CPU hotplug, 10 min/scenario -> docs/reliability.md
  make series-export  each kernel's series (KERNEL=: that one's) and cover letter from branch 'dev' of its tree
  make send           KERNEL's series, as git's identity (not an example domain): b4 prep --auto-to-cc,
                      b4 send -o: the addressed mails in results/send-*/ (nothing is sent)
  make kunit          the series' KUnit suite through the tree's kunit.py (--arch=x86_64)
  make clean          remove results/ and the scenarios' build dirs (not the tree, not ccache)
  make help           this text
Make variables (also taken from the environment): KERNEL=7.3|6.12 (default: the scripts' default
kernel; make test and make matrix: both), SCENARIO=name (default cool; 'make' also takes VER:name),
TESTS='tokens' (guest runner arguments), JOBS=n, COOL_CACHE=dir, DRY_RUN=1 (make, make test,
make matrix: print the plans, build and boot nothing).
Environment knobs (command-line options of the scripts win over them, they win
over the defaults):
  KERNEL=7.3|6.12           the kernel (scripts: --kernel; default scripts/lib.sh COOL_DEFAULT_KERNEL)
  COOL_CACHE=dir            trees, builds, packages, i386 busybox (default ~/.cache/cool-spinlock)
  COOL_TREE=dir             kernel tree (default $COOL_CACHE/src/linux-source-<ver>); another
                            tree is yours: built with O= as it stands, never checked out,
                            committed to or cleaned, refused unless it carries the series
  COOL_PATCH_DIR=dir        the series to apply (default <repo>/patches for 7.3, patches/<ver> else)
  COOL_DEBIAN_MIRROR=uri    the Debian mirror 7.3's packages come from (default: the host's own,
                            read from its apt sources)
  COOL_KPKG_VERSION=ver     linux-source-7.3 version to fetch (default 7.3.4-1~bpo13+1; empty: newest)
  COOL_DEV_BRANCH=name      branch make series-export exports (default dev)
  JOBS=n                    make -j (default nproc+1)
  COOL_OVERLAP=0|1          build the next scenario (nice 10) while one boots (default 1)
  COOL_SMP=n COOL_MEM=size  QEMU -smp / -m (default: the scenario's, mostly 4 and 1G)
  COOL_TIMEOUT=s            guest timeout (default: the scenario's TIMEOUT, else computed: the
                            tokens' declared seconds + BOOT_SECONDS, x3, x host slow-down)
  COOL_CALIBRATE_REF_MS=ms  the host slow-down loop's time on an idle CI machine (default 300)
  COOL_SLOWDOWN_MAX=pct     the largest host slow-down a timeout is scaled by, in percent
                            (default 1000: ten times the idle CI machine)
  COOL_ACCEL=kvm|tcg        force the accelerator (default auto: KVM if a probe boot works; a Xen
                            host under TCG runs single-threaded)
  COOL_HOST=native|xen      boot a HOST=xen scenario's kernel without Xen, or under it (default:
                            the scenario's HOST)
  COOL_HOST_CPUS=n COOL_HOST_ARGS='...'  Xen's pCPUs (QEMU -smp, default 2) and more of Xen's
                            command line (default: the scenario's, dom0_mem=1024M)
  COOL_BOOT_ARGS='...'      kernel command line (default: the scenario's BOOT_ARGS)
  COOL_TESTS='tokens'       guest runner tokens (default: the scenario's TESTS)
  COOL_HYPERVISOR=0|1       CPUID hypervisor bit of the guest (default: the scenario's, 0)
  COOL_ICOUNT=0|1           -icount shift=0, single-threaded TCG (default: the scenario's ICOUNT,
                            1 in fairness*, else 0)
  COOL_SELFTEST_ITERATIONS=n lock/unlock pairs per CPU of the exclusion cases (default 5000)
  COOL_SELFTEST_IRQWAIT=us  spinlock.irqwait_us while the selftest runs, when not set at boot (default 20000)
  COOL_SELFTEST_IRQWAIT_WAIT=us  the same for a second run of irq_wait alone (default
                            COOL_SELFTEST_IRQWAIT x the measured host slow-down, at most 100000)
  COOL_SELFTEST_STARVE_SHARE=n  irq_starve(_rw) want 1/n of a queued waiter's acquisitions (default:
                            the scenario's STARVE_SHARE, 2 in fairness*, else 0: measure only)
  COOL_KCSAN_SCOPE=regex    KCSAN reports judged (default: the scenario's KCSAN_SCOPE)
  COOL_SETUP_FOR=run|xen|matrix|check|bench|send|all  package set of make setup (default run; xen,
                            matrix, bench and all, or a HOST=xen SCENARIO, also fetch Debian's Xen)
  COOL_CHECK_ONLY=list      make check steps (default checkpatch,apply,bisect,warnings,maintainers,lint)
  COOL_BENCH_ONLY=list      make bench sections (default callers,text,pathlen,irqlat,scaling,throughput,irqwait;
                            also rivals, xen)
  COOL_BENCH_DEFCONFIG=1    make bench: also x86_64_defconfig text (default 0)
  COOL_BENCH_DEBIAN=1       make bench: also Debian's cloud-amd64 config text (default 0)
  COOL_SMP_LIST, COOL_ICOUNT_SMP_LIST, COOL_IRQWAIT_LIST, COOL_TORTURE_SECS  make bench lists
  COOL_BENCH_REPEATS=n COOL_WORKLOAD_ITERS=n  make bench callers: boots per kernel (5), lockload iterations (2000)
  COOL_TORTURE_REPEATS=n    make bench scaling/throughput: boots per kernel and vCPU count (5)
  COOL_XEN_REPEATS=n        make bench xen: path length boots per kernel and host (3)
  COOL_RIVAL_GROUPS='...' COOL_RIVAL_KERNELS='...' COOL_RIVAL_TORTURE_REPEATS=n  make bench rivals:
                            groups (gcc clang19 i386; also clang22, defconfig), only these
                            rivals, locktorture boots (3)
  COOL_SOAK_MINUTES=n COOL_SOAK_SCENARIOS='...'  make soak (default 10, the soak matrix)
Exit codes of make setup: 0 ready, 1 install failed, 7 packages missing and not root.
TXT
echo "Scenarios (qemu-boot/scenarios/; [kernels they apply to]):"
for s in $(list_scenarios); do
	# shellcheck disable=SC1090
	k=$(KERNELS=$COOL_KERNELS && . "$SCENARIO_DIR/$s.conf" && echo "$KERNELS")
	printf '  %-17s [%s] %s\n' "$s" "${k:-$COOL_KERNELS}" "$(sed -n '1s/^# Help: //p' "$SCENARIO_DIR/$s.conf")"
done
echo "Config fragments (qemu-boot/configs/<ver>/NAME follows NAME on kernel <ver>):"
for f in "$REPO_ROOT"/Kconfig.fragment "$REPO_ROOT"/qemu-boot/configs/*.config "$REPO_ROOT"/qemu-boot/configs/*/*.config; do
	[ -f "$f" ] || continue
	printf '  %-38s %s\n' "${f#"$REPO_ROOT"/}" "$(sed -n '1s/^# Help: //p' "$f")"
done
