# cool-spinlock: thin wrapper, every target calls one script.  'make help'.
# Every target that builds, boots or checks runs 'setup' first: it checks
# (and as root installs) every package before any work starts.
SCENARIO ?= cool
TESTS ?=
JOBS ?=
COOL_CACHE ?= $(HOME)/.cache/cool-spinlock
export COOL_CACHE JOBS

# What CI runs (make test) and what it cannot fit in its 90 minutes (make matrix).
TEST_SCENARIOS = stock,cool,fairness,cool-tas,fairness-tas,i386,none-hardened,kasan,xen,hang
MATRIX_SCENARIOS = fairness-i386,clang-cool,xenpv,preempt-none,preempt-voluntary,preempt-full,dyn-none,dyn-full,hardening,framepointer,noibt,debian,lockdep,kcsan,sweep-guess,sweep-fp,cool8,stock8,nopvspin,xen-stock,xen-rawirq,xen-1vcpu
# make setup checks what the scenarios about to run need (Xen for xen*)
SETUP_SCENARIOS = $(if $(filter test,$(MAKECMDGOALS)),$(TEST_SCENARIOS),$(SCENARIO))

RUN_OPTS = $(if $(TESTS),--tests '$(TESTS)')

.PHONY: all test matrix setup lint host-test tree series config kernel boot check check-bisect bench soak send series-export clean help
all: setup
	selftests/run.sh --scenario $(SCENARIO) $(RUN_OPTS)
test: setup lint host-test
	selftests/run.sh --scenario $(TEST_SCENARIOS) $(RUN_OPTS)
matrix:
	scripts/setup.sh --for matrix
	selftests/run.sh --scenario $(MATRIX_SCENARIOS) $(RUN_OPTS)
setup:
	scripts/setup.sh --scenario $(SETUP_SCENARIOS)
lint:
	scripts/lint.sh
host-test:
	selftests/host/judge-test.sh
	selftests/host/ktap-test.sh
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
clean:
	scripts/clean.sh
help:
	@scripts/help.sh
