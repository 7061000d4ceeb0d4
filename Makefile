# cool-spinlock: thin wrapper, every target calls one script.  'make help'.
SCENARIO ?= cool
TESTS ?=
JOBS ?=
COOL_CACHE ?= $(HOME)/.cache/cool-spinlock
export COOL_CACHE JOBS

RUN_OPTS = $(if $(TESTS),--tests '$(TESTS)')

.PHONY: all test lint host-test tree series config kernel boot check check-bisect bench soak send series-export clean help
all:
	selftests/run.sh --scenario $(SCENARIO) $(RUN_OPTS)
test: lint host-test
	selftests/run.sh --scenario stock,cool,cool-tas,i386,lockdep,hardening,kcsan,hang $(RUN_OPTS)
lint:
	scripts/lint.sh
host-test:
	selftests/host/judge-test.sh
tree:
	scripts/tree.sh
series:
	scripts/series.sh
config:
	scripts/config.sh --scenario $(SCENARIO)
kernel:
	scripts/build.sh --scenario $(SCENARIO)
boot: kernel
	qemu-boot/boot.sh --scenario $(SCENARIO) --shell $(RUN_OPTS)
check:
	scripts/check.sh
check-bisect:
	scripts/check.sh --only apply,bisect
bench:
	scripts/bench.sh
soak:
	scripts/soak.sh
send:
	scripts/send.sh
series-export:
	scripts/series-export.sh
clean:
	scripts/clean.sh
help:
	@scripts/help.sh
