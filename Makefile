# cool-spinlock: thin wrapper, every target calls one script.  'make help'.
# Every target that builds, boots or checks runs 'setup' first: it checks
# (and as root installs) every package before any work starts.
#
# KERNEL=7.3|6.12 picks the kernel (command line beats environment beats
# the scripts' default, scripts/lib.sh COOL_DEFAULT_KERNEL); make test and
# make matrix run both kernels' lists unless KERNEL names one.
SCENARIO ?= cool
TESTS ?=
JOBS ?=
KERNEL ?=
COOL_CACHE ?= $(HOME)/.cache/cool-spinlock
export COOL_CACHE JOBS KERNEL

# What CI runs (make test) and what it cannot fit in its 90 minutes (make
# matrix), as KERNEL:SCENARIO: six kernel builds, as before 7.3's i386
# and KASAN came in (docs/harness.md, Run times). 7.3: the series with
# COOL off and on, i386 and KASAN; 6.12, the backport: COOL on with its
# fairness and hang controls and static PREEMPT_NONE (PREEMPT_COUNT=n,
# which 7.3 no longer has). 6.12's stock, i386 and KASAN kernels are in
# make matrix.
TEST_RUNS = 7.3:stock 7.3:cool 7.3:i386 7.3:kasan \
	6.12:cool 6.12:fairness 6.12:preempt-none 6.12:hang
MATRIX_RUNS = 7.3:i386-stock 6.12:i386 6.12:kasan 7.3:hang 7.3:fairness 7.3:preempt-full 7.3:preempt-lazy 7.3:dyn-full \
	6.12:stock 6.12:cool-tas 6.12:fairness-tas 6.12:none-hardened 6.12:fairness-i386 6.12:clang-cool 6.12:xenpv \
	6.12:preempt-voluntary 6.12:preempt-full 6.12:dyn-none 6.12:dyn-full 6.12:hardening 6.12:framepointer \
	6.12:noibt 6.12:debian 6.12:lockdep 6.12:kcsan 6.12:sweep-guess 6.12:sweep-fp 6.12:cool8 6.12:stock8 \
	6.12:nopvspin 6.12:xen 6.12:xen-stock 6.12:xen-rawirq 6.12:xen-1vcpu \
	7.3:xen 7.3:xen-stock 7.3:xen-rawirq 7.3:xen-1vcpu 7.3:tracing 7.3:irqwait-wrong \
	6.12:tracing 6.12:irqwait-wrong 7.3:cool-irqwait-off
# runs LIST: the runs of LIST on KERNEL, or all of them
runs = $(if $(KERNEL),$(filter $(KERNEL):%,$(1)),$(1))
# make setup checks what the runs about to start need (Xen for the xen scenarios)
SETUP_SCENARIOS = $(if $(filter test,$(MAKECMDGOALS)),$(call runs,$(TEST_RUNS)),$(SCENARIO))

# DRY_RUN=1: print the plans (make test DRY_RUN=1: both kernels'), build and boot nothing
DRY_RUN ?=
RUN_OPTS = $(if $(TESTS),--tests '$(TESTS)') $(if $(DRY_RUN),--dry-run)
SETUP_OPTS = $(if $(DRY_RUN),--dry-run)

.PHONY: all test matrix setup lint host-test tree series config kernel boot check check-bisect bench soak send series-export kunit clean help
all: setup
	selftests/run.sh --scenario $(SCENARIO) $(RUN_OPTS)
test: setup lint host-test
	selftests/run.sh --scenario '$(call runs,$(TEST_RUNS))' $(RUN_OPTS)
matrix:
	scripts/setup.sh --for matrix $(SETUP_OPTS)
	selftests/run.sh --scenario '$(call runs,$(MATRIX_RUNS))' $(RUN_OPTS)
setup:
	scripts/setup.sh --scenario '$(SETUP_SCENARIOS)' $(SETUP_OPTS)
lint:
	scripts/lint.sh
host-test:
	selftests/host/judge-test.sh
	selftests/host/ktap-test.sh
	selftests/host/kernel-test.sh
tree: setup
series: setup
	scripts/series.sh
config: setup
	scripts/config.sh --scenario $(SCENARIO)
kernel: setup
	scripts/build.sh --scenario $(SCENARIO)
boot: kernel
	qemu-boot/boot.sh --scenario $(SCENARIO) --shell $(RUN_OPTS)
check:
	scripts/setup.sh --for check
	scripts/check.sh
check-bisect:
	scripts/setup.sh --for check
	scripts/check.sh --only apply,bisect
bench:
	scripts/setup.sh --for bench
	scripts/bench.sh
soak: setup
	scripts/soak.sh
send:
	scripts/setup.sh --for send
	scripts/send.sh
series-export: setup
	scripts/series-export.sh
kunit: setup
	scripts/kunit.sh $(if $(DRY_RUN),--dry-run)
clean:
	scripts/clean.sh
help:
	@COOL_TEST_RUNS="$(TEST_RUNS)" scripts/help.sh
