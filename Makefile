# ptstress: see README.md. `make help` lists the targets.
#
# Variables (make VAR=value or the environment):
#   PTSTRESS_CACHE  extracted kernel trees, builds, images, run directories
#                   (outside the repository; default /var/cache/ptstress)
#   EXTRA_PATCHES   patch files applied after patch/series (mutants)
#   QEMU_TIMEOUT    hard limit of one guest run, in seconds (default 600)
#   MUTANTS         mutant patches for `make mutants` (default patch/mutants/*.patch)
#   BENCH_TASKS     idle task counts for `make bench` (default 200 ... 32000)
PTSTRESS_CACHE ?= /var/cache/ptstress
EXTRA_PATCHES ?=
QEMU_TIMEOUT ?= 600
export PTSTRESS_CACHE EXTRA_PATCHES QEMU_TIMEOUT

all: ptstress

ptstress:
	$(MAKE) -C ptstress

deps:
	@guest/deps

kernel: deps
	guest/build-kernel

# The main job: build everything, boot the patched kernel, run the default
# suite in the guest, print the verdict (exit 0 pass, 1 finding, 3 harness).
run: deps ptstress
	guest/run -- guest/suite

test: deps ptstress
	tests/run unit host guest

check-unit: deps ptstress
	tests/run unit

check-host: deps ptstress
	tests/run host

check-guest: deps ptstress
	tests/run guest

# Kill matrix: each mutant kernel must be caught, the clean one must pass.
mutants: deps ptstress
	guest/mutants $(MUTANTS)

# Fuzz for DURATION (10m, 8h, ...): slices of ptstress fuzz in fresh guest
# boots, findings deduplicated and minimized under $(PTSTRESS_CACHE)/fuzz
# (docs/fuzz.md).  SEED= the first seed, RUN= a run to resume, JOBS=N
# shards under GNU parallel (each its own guest; FUZZ_ARGS=--host fuzzes
# the host kernel), PARALLEL_ARGS= e.g. --sshloginfile FILE for many machines.
# AGAINST=REF: differential mode against a reference kernel (an image
# directory, "clean", or patch files separated by commas); the kernel under
# test is the series plus EXTRA_PATCHES.
DURATION ?= 10m
SEED ?= 1
JOBS ?= 1
FUZZ_NOW := $(shell date +%Y%m%d-%H%M%S)
RUN ?= $(FUZZ_NOW)
FUZZ_AGAINST = $(if $(AGAINST),--against $(AGAINST))
fuzz: deps ptstress
	@if [ "$(JOBS)" = 1 ]; then \
		guest/fuzz --duration $(DURATION) --seed $(SEED) --run $(RUN) $(FUZZ_AGAINST) \
			$(FUZZ_ARGS); \
	else \
		parallel --line-buffer --halt never -j $(JOBS) $(PARALLEL_ARGS) \
			guest/fuzz --duration $(DURATION) --seed $(SEED) --shard {}/$(JOBS) \
			--run $(RUN)-shard{} $(FUZZ_AGAINST) $(FUZZ_ARGS) ::: $$(seq 0 $$(($(JOBS) - 1))); \
		guest/fuzz-report $$(for i in $$(seq 0 $$(($(JOBS) - 1))); do \
			echo $(RUN)-shard$$i; done); \
	fi

# The figures of docs/fuzz.md, a resumable batch (hours of TCG): run it
# again to go on.  FIGURES_ARGS= e.g. --only fuzz-m05,diff-m05 or --report.
fuzz-figures: deps ptstress
	guest/fuzz-figures $(FIGURES_ARGS)

# Kernel line coverage of exit.c, ptrace.c, signal.c, exec.c by the library,
# fuzz, the kernel's ptrace selftests, stress-ng and an idle guest
# (docs/fuzz.md).  COVERAGE_SECONDS= for fuzz/stress-ng/idle (default 1200),
# COVERAGE_ARGS= e.g. --out DIR to resume.
COVERAGE_SECONDS ?= 1200
coverage: deps ptstress
	guest/coverage --seconds $(COVERAGE_SECONDS) $(COVERAGE_ARGS)

# Merge fuzz runs (shards, other machines' copies): make fuzz-report RUNS='a b'.
fuzz-report:
	@test -n "$(RUNS)" || { echo "usage: make fuzz-report RUNS='run-dir ...'" >&2; exit 2; }
	guest/fuzz-report $(RUNS)

# Each prefix of patch/series builds and boots on its own.
series-check: deps ptstress
	guest/series-check

# checkpatch.pl --strict on every patch of the series.
checkpatch: deps
	guest/checkpatch

# Figures, never pass/fail: fork+exit and thread create+exit cost and exit
# work with 200..32000 idle tasks, lists vs the 2002 scan (docs/benchmarks.md).
bench: deps
	bench/run $(BENCH_TASKS)

# An interactive shell in the guest (end it with `exit`).
shell: deps ptstress
	guest/run --shell

# A scenario with gdb on the frozen guest at its first finding (docs/debugging.md).
debug: deps ptstress
	@test -n "$(SCENARIO)" || { echo "usage: make debug SCENARIO=file.sc" >&2; exit 2; }
	guest/run --gdb-interactive --timeout 3600 -- ./ptstress/ptstress run \
		--kernel=require --gdb-on-failure --first-finding $(DEBUG_ARGS) $(SCENARIO)

clean:
	$(MAKE) -C ptstress clean
	$(MAKE) -C bench clean
	rm -rf build

# Removes every cached kernel tree, image and kept run directory.
clean-cache:
	rm -rf "$(PTSTRESS_CACHE)"

help:
	@echo "make            build ptstress"
	@echo "make run        build the patched kernel, boot it in QEMU, run the default suite"
	@echo "make test       everything CI runs: check-unit, check-host, check-guest"
	@echo "make check-unit unit tests (seconds)"
	@echo "make check-host ptstress against the running kernel (patch checks SKIP)"
	@echo "make check-guest  the guest tests on the patched kernel in QEMU"
	@echo "make kernel     build the patched guest kernel (cached)"
	@echo "make shell      boot the guest with a shell on the terminal"
	@echo "make debug SCENARIO=f.sc  run it in the guest; at its first finding, gdb on the frozen kernel"
	@echo "make mutants    kill matrix of patch/mutants (or MUTANTS='a.patch b.patch')"
	@echo "make fuzz DURATION=8h [SEED=] [JOBS=] [RUN=] [AGAINST=clean]  fuzz in the guest (docs/fuzz.md)"
	@echo "make fuzz-figures [FIGURES_ARGS=--report]  the figures of docs/fuzz.md (resumable)"
	@echo "make coverage [COVERAGE_SECONDS=1200]  gcov of exit/ptrace/signal/exec per source of steps"
	@echo "make fuzz-report RUNS='a b'  merge fuzz runs"
	@echo "make series-check  every prefix of patch/series builds and boots"
	@echo "make checkpatch checkpatch.pl --strict on every patch"
	@echo "make bench      exit cost and work, 200..32000 idle tasks, lists vs 2002 scan"
	@echo "make clean      remove ptstress's build output"
	@echo "make clean-cache  remove $(PTSTRESS_CACHE)"
	@echo "variables: PTSTRESS_CACHE=$(PTSTRESS_CACHE) EXTRA_PATCHES=$(EXTRA_PATCHES) QEMU_TIMEOUT=$(QEMU_TIMEOUT)"

.PHONY: all ptstress deps kernel run test check-unit check-host check-guest shell debug clean \
	clean-cache help mutants series-check checkpatch bench fuzz fuzz-report fuzz-figures coverage
