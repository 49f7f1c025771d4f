# SPDX-License-Identifier: GPL-2.0-only
#
# blkqual build.  One non-recursive make: Kbuild says what to build, this
# file says how.  Kernel conventions: quiet "  CC  file.o" lines, V=1 for
# the full commands, O=dir for an out-of-tree build, CI=true for -Werror.

VERSION := 0.1.0

MAKEFLAGS += --no-print-directory
.SUFFIXES:

ifeq ("$(origin V)", "command line")
  BUILD_VERBOSE := $(V)
endif
ifneq ($(BUILD_VERBOSE),1)
  Q := @
  quiet = @printf '  %-7s %s\n' $(1) $(2);
else
  Q :=
  quiet =
endif

srctree := $(CURDIR)
ifeq ("$(origin O)", "command line")
  $(shell mkdir -p "$(O)")
  objtree := $(realpath $(O))
  ifeq ($(objtree),)
    $(error O=$(O) cannot be created)
  endif
else ifeq ($(SANITIZE),1)
  # Sanitized objects must not mix with plain ones: their own tree.
  $(shell mkdir -p "$(srctree)/build/asan")
  objtree := $(srctree)/build/asan
else
  objtree := $(srctree)
endif

# Generated folders (probe results, kselftest headers, fuzz targets, the VM
# cache) go in build/ for an in-tree build, so nothing generated sits in the
# source root under a name that looks like source; O=dir keeps them in dir.
ifeq ($(objtree),$(srctree))
  gendir := $(srctree)/build
else
  gendir := $(objtree)
endif

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share

CC ?= cc
PKG_CONFIG ?= pkg-config
PKGS := liburing blkid libnvme numa json-c libcrypto

# Where bash-completion looks for a command's completion, as it says itself.
BASHCOMPDIR ?= $(shell $(PKG_CONFIG) --variable=completionsdir bash-completion 2>/dev/null)
ifeq ($(strip $(BASHCOMPDIR)),)
  BASHCOMPDIR := /usr/share/bash-completion/completions
endif

# The probe records what the installed headers support; see scripts/probe.sh.
PROBE_OUT := $(gendir)/config.mk $(gendir)/include/config-host.h
KSFT_DIR := $(gendir)/include/kselftest

ifeq ($(filter deps clean help,$(MAKECMDGOALS)),)
  -include $(gendir)/config.mk
endif
include $(srctree)/Kbuild

CFLAGS ?= -O2 -g
BQ_CFLAGS := -std=gnu11 -Wall -Wextra -Wshadow -Wformat=2 -Wno-unused-parameter \
	-Wmissing-prototypes -Wstrict-prototypes -Wvla -D_GNU_SOURCE \
	-DBLKQUAL_VERSION='"$(VERSION)"' \
	-I$(srctree)/lib/include -I$(gendir)/include -I$(srctree)/lib \
	$(PKG_CFLAGS)
ifeq ($(CI),true)
  BQ_CFLAGS += -Werror
endif
ifeq ($(WERROR),1)
  BQ_CFLAGS += -Werror
endif
LIBS := $(PKG_LIBS) -laio -lm

# SANITIZE=1: AddressSanitizer (leaks included) and UndefinedBehaviorSanitizer
# in everything built; a finding ends the program, so it fails its test.
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
ifeq ($(SANITIZE),1)
  BQ_CFLAGS += $(SAN_FLAGS)
  override LDFLAGS += $(SAN_FLAGS)
  SAN_ENV := ASAN_OPTIONS=exitcode=99:detect_leaks=1:print_summary=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
endif

# Everything compiled depends on the flags it was compiled with: the file
# changes only when they do (V=1 or not), and then everything is rebuilt.
FLAGS_FILE := $(gendir)/flags
flags-now := $(CC) $(BQ_CFLAGS) $(CFLAGS) $(LDFLAGS) $(LIBS)
ifneq ($(flags-now),$(file <$(FLAGS_FILE)))
  $(shell mkdir -p "$(gendir)")
  $(file >$(FLAGS_FILE),$(flags-now))
endif

# qualify --profile NAME looks in the install directory, then in this tree.
$(objtree)/tools/cmd_qualify.o: BQ_CFLAGS += \
	-DBLKQUAL_PROFILE_DIR='"$(DATADIR)/blkqual/profiles"' \
	-DBLKQUAL_SRC_PROFILE_DIR='"$(srctree)/tools/profiles"'

lib-objs := $(addprefix $(objtree)/,$(lib-y))
raid-objs := $(addprefix $(objtree)/,$(raid-y))
tools-objs := $(addprefix $(objtree)/,$(tools-y))
helper-objs := $(addprefix $(objtree)/,$(selftests-helpers-y))
test-progs := $(addprefix $(objtree)/,$(selftests-y))
vm-progs := $(addprefix $(objtree)/,$(vm-tests-y))
libblkqual := $(objtree)/lib/libblkqual.a
blkqual := $(objtree)/blkqual

all: $(blkqual)

$(gendir)/config.mk $(gendir)/include/config-host.h: $(srctree)/scripts/probe.sh
	$(call quiet,PROBE,config-host.h)$(srctree)/scripts/probe.sh "$(CC)" "$(PKG_CONFIG)" "$(gendir)" $(PKGS)

$(objtree)/%.o: $(srctree)/%.c $(PROBE_OUT) $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	$(call quiet,CC,$(patsubst $(objtree)/%,%,$@))$(CC) $(BQ_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# The block tracer's BPF program, and the skeleton that embeds it.
ifeq ($(CONFIG_LIBBPF),y)
BPF_SKEL := $(gendir)/include/block_trace.skel.h
$(gendir)/bpf/block_trace.bpf.o: $(srctree)/lib/trace/block_trace.bpf.c \
		$(srctree)/lib/trace/block_trace_maps.h $(PROBE_OUT)
	@mkdir -p $(dir $@)
	$(call quiet,BPF,$(notdir $@))$(BPF_CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) \
		-I$(BPF_ARCH_INC) -I$(srctree)/lib/trace -c -o $@ $<
$(BPF_SKEL): $(gendir)/bpf/block_trace.bpf.o
	$(call quiet,GEN,$(notdir $@))$(BPFTOOL) gen skeleton $< name block_trace_bpf > $@.tmp && \
		mv $@.tmp $@
$(objtree)/lib/trace/block_trace.o: $(BPF_SKEL)
endif

$(libblkqual): $(lib-objs) $(raid-objs)
	$(call quiet,AR,$(patsubst $(objtree)/%,%,$@))rm -f $@ && $(AR) rcs $@ $^

# tools/ and its subfolders share its headers.
$(tools-objs): BQ_CFLAGS += -I$(srctree)/tools

$(blkqual): $(tools-objs) $(libblkqual)
	$(call quiet,LD,blkqual)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(tools-objs) $(libblkqual) $(LIBS)

# Tests need the kselftest harness from the distribution's linux-source.
$(KSFT_DIR)/kselftest_harness.h:
	$(call quiet,KSFT,kselftest_harness.h)$(srctree)/scripts/kselftest-headers.sh "$(KSFT_DIR)"

$(helper-objs): BQ_CFLAGS += -I$(srctree)/selftests -isystem $(KSFT_DIR)
$(helper-objs): $(KSFT_DIR)/kselftest_harness.h

$(objtree)/selftests/%_test: $(srctree)/selftests/%_test.c $(libblkqual) $(helper-objs) \
		$(KSFT_DIR)/kselftest_harness.h $(PROBE_OUT) $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	$(call quiet,CCLD,$(patsubst $(objtree)/%,%,$@))$(CC) $(BQ_CFLAGS) $(CFLAGS) \
		-Wno-missing-prototypes -isystem $(KSFT_DIR) -I$(srctree)/selftests -MMD -MP -o $@ $< $(helper-objs) \
		$(libblkqual) $(LIBS)

# Fuzz targets (fuzz-y) are built twice.  make fuzz: with clang, libFuzzer,
# ASan and UBSan into $(gendir)/fuzz/.  make check: with $(CC) and
# replay.c's main() into $(gendir)/fuzz/replay/, where fuzz_replay.sh runs
# the seeds and past crashes once each.  Targets may use the tools' objects
# (compare, report), all but blkqual.o with its main().
FUZZ_CC ?= clang
FUZZ_TIME ?= 30
fuzz-names := $(notdir $(fuzz-y))
fuzz-tools-y := $(filter-out tools/blkqual.o,$(tools-y))
fuzz-replay-progs := $(addprefix $(gendir)/fuzz/replay/,$(fuzz-names))
fuzz-replay-objs := $(addprefix $(objtree)/,$(fuzz-helpers-y) selftests/fuzz/replay.o)
fuzz-obj := $(gendir)/fuzz/obj
fuzz-progs := $(addprefix $(gendir)/fuzz/,$(fuzz-names))
# Uninitialized stack variables get a pattern, so reading one shows.
FUZZ_CFLAGS = $(filter-out -Werror,$(BQ_CFLAGS)) -Wno-format-nonliteral -O1 -g $(SAN_FLAGS) \
	-ftrivial-auto-var-init=pattern -I$(srctree)/tools

$(gendir)/fuzz/replay/libtools.a: $(addprefix $(objtree)/,$(fuzz-tools-y))
	@mkdir -p $(dir $@)
	$(call quiet,AR,$(patsubst $(objtree)/%,%,$@))rm -f $@ && $(AR) rcs $@ $^

$(fuzz-replay-progs): $(gendir)/fuzz/replay/%: $(srctree)/selftests/fuzz/%.c $(fuzz-replay-objs) \
		$(gendir)/fuzz/replay/libtools.a $(libblkqual) $(PROBE_OUT)
	@mkdir -p $(dir $@)
	$(call quiet,CCLD,$(patsubst $(objtree)/%,%,$@))$(CC) $(BQ_CFLAGS) $(CFLAGS) \
		-I$(srctree)/tools -MMD -MP -o $@ $< $(fuzz-replay-objs) \
		$(gendir)/fuzz/replay/libtools.a $(libblkqual) $(LIBS)

$(fuzz-obj)/%.o: $(srctree)/%.c $(PROBE_OUT)
	@mkdir -p $(dir $@)
	$(call quiet,FUZZCC,$(patsubst $(objtree)/%,%,$@))$(FUZZ_CC) $(FUZZ_CFLAGS) \
		-fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(fuzz-obj)/libblkqual.a: $(addprefix $(fuzz-obj)/,$(lib-y) $(raid-y))
	$(call quiet,AR,$(patsubst $(objtree)/%,%,$@))rm -f $@ && $(AR) rcs $@ $^

$(fuzz-obj)/libtools.a: $(addprefix $(fuzz-obj)/,$(fuzz-tools-y))
	$(call quiet,AR,$(patsubst $(objtree)/%,%,$@))rm -f $@ && $(AR) rcs $@ $^

$(fuzz-progs): $(gendir)/fuzz/%: $(fuzz-obj)/selftests/fuzz/%.o \
		$(addprefix $(fuzz-obj)/,$(fuzz-helpers-y)) $(fuzz-obj)/libtools.a $(fuzz-obj)/libblkqual.a
	$(call quiet,FUZZLD,$(patsubst $(objtree)/%,%,$@))$(FUZZ_CC) $(SAN_FLAGS) -fsanitize=fuzzer \
		-o $@ $^ $(LIBS)

# Fail early, and say why, when clang cannot build a libFuzzer target.
fuzz-probe:
	@mkdir -p $(gendir)/fuzz
	$(Q)printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' \
		>$(gendir)/fuzz/probe.c
	$(Q)$(FUZZ_CC) -fsanitize=fuzzer,address,undefined -o $(gendir)/fuzz/probe \
		$(gendir)/fuzz/probe.c 2>$(gendir)/fuzz/probe.log || { \
		echo "make fuzz: $(FUZZ_CC) cannot build a libFuzzer target (make deps installs" \
			"clang and libclang-rt-dev):" >&2; cat $(gendir)/fuzz/probe.log >&2; exit 1; }

fuzz-build: $(fuzz-progs)

# make fuzz: each target for FUZZ_TIME seconds from its seed corpus.
fuzz: deps
	$(Q)$(MAKE) fuzz-probe
	$(Q)$(MAKE) fuzz-build
	$(Q)$(srctree)/selftests/fuzz/run.sh "$(FUZZ_TIME)" "$(gendir)/fuzz" \
		"$(srctree)/selftests/fuzz" $(fuzz-names)

tests: $(blkqual) $(test-progs) $(vm-progs) $(fuzz-replay-progs)

TEST_ENV = BLKQUAL="$(blkqual)" BLKQUAL_SRCTREE="$(srctree)" BLKQUAL_OBJTREE="$(objtree)" \
	BLKQUAL_GENDIR="$(gendir)" \
	$(SAN_ENV)
# The VM is one program to the runner; vm.sh passes it the guest tests.
VM_RUN = $(srctree)/selftests/vm/vm.sh $(vm-progs)

# make check: install what is missing, build, run every test, the VM's too.
check: deps
	$(Q)$(MAKE) tests
	$(Q)$(TEST_ENV) $(srctree)/selftests/run.sh $(test-progs) \
		$(addprefix $(srctree)/,$(selftests-scripts-y)) "$(VM_RUN)"

check-vm: deps
	$(Q)$(MAKE) tests
	$(Q)$(TEST_ENV) $(srctree)/selftests/run.sh "$(VM_RUN)"

# A shell in the test VM, with blkqual and the guest tests inside.
vm-shell: deps
	$(Q)$(MAKE) tests
	$(Q)$(TEST_ENV) $(srctree)/selftests/vm/vm.sh --shell $(vm-progs)

# Documentation/fio-options.rst is blkqual's own listing; fio_names_test
# fails when it is stale.
fio-options-doc: $(blkqual)
	$(call quiet,GEN,Documentation/fio-options.rst)$(blkqual) options -o rst \
		> $(srctree)/Documentation/fio-options.rst

deps:
	$(Q)$(srctree)/scripts/deps.sh
	$(Q)$(srctree)/scripts/kselftest-headers.sh "$(KSFT_DIR)"

demo: deps
	$(Q)$(MAKE) all
	$(Q)BLKQUAL="$(blkqual)" $(srctree)/scripts/demo.sh

install: $(blkqual)
	$(call quiet,INSTALL,blkqual)install -D -m 0755 $(blkqual) $(DESTDIR)$(BINDIR)/blkqual
	$(call quiet,INSTALL,blkqual.8)install -D -m 0644 $(srctree)/Documentation/blkqual.8 \
		$(DESTDIR)$(MANDIR)/man8/blkqual.8
	$(call quiet,INSTALL,profiles)install -d $(DESTDIR)$(DATADIR)/blkqual/profiles && \
		install -m 0644 $(srctree)/tools/profiles/*.ini $(DESTDIR)$(DATADIR)/blkqual/profiles/
	$(call quiet,INSTALL,completion)install -D -m 0644 \
		$(srctree)/tools/completion/blkqual.bash $(DESTDIR)$(BASHCOMPDIR)/blkqual

clean:
	$(call quiet,CLEAN,$(objtree))find $(objtree)/lib -name '*.[oda]' -delete 2>/dev/null; \
		rm -rf $(objtree)/raid/*.o $(objtree)/raid/*.d \
		$(objtree)/tools/*.o $(objtree)/tools/*.d $(objtree)/tools/html/*.[od] \
		$(objtree)/selftests/*_test $(objtree)/selftests/*.d \
		$(objtree)/selftests/vm/*_test $(objtree)/selftests/vm/*.d \
		$(objtree)/selftests/helpers/*.o $(objtree)/selftests/helpers/*.d \
		$(blkqual) $(gendir)/config.mk $(gendir)/include/config-host.h \
		$(objtree)/selftests/fuzz/*.o $(objtree)/selftests/fuzz/*.d $(gendir)/fuzz

distclean: clean
	$(Q)rm -rf $(gendir)/include $(gendir)/vm

help:
	@echo 'Targets:'
	@echo '  all        build blkqual (default)'
	@echo '  check      install dependencies, build, run every test (the VM tests too)'
	@echo '  check-vm   only the VM tests: NVMe, SCSI, null_blk, md under QEMU'
	@echo '  vm-shell   boot the test VM with a shell on this terminal'
	@echo '  demo       install dependencies, build, run on a loop-backed scratch device'
	@echo '  deps       install build and test dependencies (Debian/Ubuntu, as root)'
	@echo '  install    install blkqual, its man page and bash completion (PREFIX, DESTDIR,'
	@echo '             BASHCOMPDIR)'
	@echo '  fuzz       run each libFuzzer target for FUZZ_TIME seconds (default 30; clang)'
	@echo '  fio-options-doc  regenerate Documentation/fio-options.rst from blkqual options'
	@echo '  clean      remove build products'
	@echo 'Variables: V=1 (full commands), O=dir (out-of-tree), CI=true or WERROR=1 (-Werror),'
	@echo '  SANITIZE=1 (ASan and UBSan; own tree build/asan unless O= is given)'

.PHONY: all tests check check-vm vm-shell deps demo install clean distclean help \
	fuzz fuzz-build fuzz-probe fio-options-doc

-include $(lib-objs:.o=.d) $(raid-objs:.o=.d) $(tools-objs:.o=.d) $(helper-objs:.o=.d) $(test-progs:=.d) \
	$(vm-progs:=.d) $(fuzz-replay-objs:.o=.d) $(fuzz-replay-progs:=.d) \
	$(addprefix $(fuzz-obj)/,$(lib-y:.o=.d) $(raid-y:.o=.d) $(fuzz-tools-y:.o=.d) $(fuzz-helpers-y:.o=.d)) \
	$(addprefix $(fuzz-obj)/selftests/fuzz/,$(fuzz-names:=.d))
