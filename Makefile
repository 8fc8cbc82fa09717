# SPDX-License-Identifier: Apache-2.0
# rocectl — plain GNU make.  `make` builds ./rocectl, `make test` runs every test with
# ASan+UBSan, `make demo` runs the demo, `make deps` installs the Debian packages.
#
# Components outside the product (simulators, lab, VM tier) bring their own fragment
# (tests/sim/*/sim.mk, tests/lab/lab.mk, tests/vm/vm.mk); each appends to SIM_TARGETS
# and DEB_PACKAGES so that this file does not need to know their insides.

VERSION := 0.1.0
.DEFAULT_GOAL := all
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
PLUGIN_DIR := $(LIBDIR)/rocectl
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/rocectl
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
DESTDIR ?=
BUILD ?= build
CC ?= cc

# pkg-config module = Debian package providing it.  Checked at configure time.
PKG_DEB := yaml-0.1=libyaml-dev libnl-3.0=libnl-3-dev libnl-route-3.0=libnl-route-3-dev \
	libssh=libssh-dev libcurl=libcurl4-openssl-dev libcjson=libcjson-dev \
	libibverbs=libibverbs-dev cmocka=libcmocka-dev

# Everything the build, the tests and the simulators need on a fresh Debian 12.
DEB_PACKAGES := build-essential pkg-config clang clang-format clang-tidy libyaml-dev libnl-3-dev \
	libnl-route-3-dev libssh-dev libcurl4-openssl-dev libcjson-dev libibverbs-dev \
	libcmocka-dev iproute2 openssh-client openssh-server libclang-rt-14-dev graphviz \
	python3-jsonschema libyang2-tools python3 python3-jsonpatch dpkg-dev debhelper lintian \
	mandoc groff-base lldpd ethtool

# `make V=1` shows the full commands.
ifeq ($(V),1)
Q :=
else
Q := @
endif

# Build on every CPU (at most 4: nproc counts CPUs a container's quota may not give, and
# each ASan compile takes a few hundred MB) unless a -j was given: `make test` on a fresh
# clone compiles the tree three ways (release, ASan+UBSan, fuzz).
ifeq ($(filter -j%,$(MAKEFLAGS))$(filter j%,$(firstword $(MAKEFLAGS))),)
MAKEFLAGS += -j$(shell n=$$(nproc 2>/dev/null || echo 1); [ "$$n" -le 4 ] || n=4; echo $$n)
endif

SIM_TARGETS :=
-include $(sort $(wildcard tests/sim/*/sim.mk)) $(wildcard tests/lab/lab.mk tests/vm/vm.mk dist/dist.mk)

WARN := -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wno-format-nonliteral \
	-Wstrict-prototypes -Wmissing-prototypes -Wvla
# gcc's format-truncation heuristics flag every bounded snprintf; clang has no such option.
WARN += $(if $(findstring clang,$(shell $(CC) --version 2>/dev/null)),,-Wno-format-truncation)
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -Iinclude $(WARN) -MMD -MP -fPIC \
	-I$(BUILD)/gen -DROCECTL_VERSION='"$(VERSION)"'
REL_CFLAGS := -O2 -g
SAN_CFLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined
SAN_LDFLAGS := -fsanitize=address,undefined

# cli/: the commands; engine/{config,plan,run,report,diag}: the core library; support/: what
# the engine and the drivers share; drivers/; engine/util/: the bottom layer.  The layers and
# the references allowed between them: scripts/check-layers, docs/ARCHITECTURE.md.
SRCS := $(sort $(wildcard engine/*/*.c cli/*.c support/*.c drivers/*/*.c))
LIB_SRCS := $(filter-out cli/main.c,$(SRCS))
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
# The conformance suite: rocectl against vendor artifacts nobody on this project wrote
# (sonic-buildimage, sonic-utilities, Cumulus docs and AVD files with their provenance in
# the kit's README).  cmocka binaries tests/conformance/test_*.c and
# shell tests tests/conformance/tNNNN-*.sh; they need no lab and no root.
CONF_SRCS := $(sort $(wildcard tests/conformance/test_*.c))
CONFORMANCE_DIR ?= $(abspath $(CURDIR)/../shared/conformance)
export CONFORMANCE_DIR

# The network drivers (libssh, libcurl) live in rocectl-net.so, loaded the first time a
# switch or remote host is opened: the agent that runs on every GPU node from a timer
# then never maps libcurl's and libssh's dependency trees (a third of its run time).
NET_SRCS := $(sort $(wildcard drivers/transport/*.c drivers/switch/*.c)) drivers/host/agent_ssh.c
CORE_SRCS := $(filter-out $(NET_SRCS),$(SRCS))

REL_OBJS := $(CORE_SRCS:%.c=$(BUILD)/rel/%.o)
REL_NET_OBJS := $(NET_SRCS:%.c=$(BUILD)/rel/%.o)
SAN_OBJS := $(CORE_SRCS:%.c=$(BUILD)/san/%.o)
SAN_NET_OBJS := $(NET_SRCS:%.c=$(BUILD)/san/%.o)
SAN_LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/san/%.o)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/san/tests/unit/%)
CONF_BINS := $(CONF_SRCS:tests/conformance/%.c=$(BUILD)/san/tests/conformance/%)

# Goals that must work before the libraries are installed.
NOCONF_GOALS := deps clean test demo format format-check help install-deps deb man-check
ifneq ($(filter-out $(NOCONF_GOALS),$(or $(MAKECMDGOALS),all)),)
include $(BUILD)/config.mk
endif

.PHONY: FORCE all deps test check demo install install-agent install-controller man-check deb \
	clean format format-check sims help unit fuzz \
	conformance faults-quick faults tidy check-layers test-fast

$(BUILD)/config.mk: Makefile
	@mkdir -p $(BUILD)
	@missing=; for pair in $(PKG_DEB); do \
		pkg-config --exists "$${pair%%=*}" || missing="$$missing $${pair#*=}"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "rocectl: missing build dependencies; install the Debian packages:$$missing" >&2; \
		echo "rocectl: or run 'make deps'" >&2; exit 1; \
	fi
	@{ echo "PKG_CFLAGS := $$(pkg-config --cflags yaml-0.1 libnl-3.0 libnl-route-3.0 libssh libcurl libcjson libibverbs)"; \
	   echo "PKG_LIBS := $$(pkg-config --libs yaml-0.1 libnl-3.0 libnl-route-3.0 libssh libcurl libcjson libibverbs) -lpthread -lm"; \
	   echo "CORE_LIBS := $$(pkg-config --libs yaml-0.1 libnl-3.0 libcjson) -ldl -lpthread -lm"; \
	   echo "NET_LIBS := $$(pkg-config --libs libssh libcurl libcjson) -lpthread"; \
	   echo "CMOCKA_CFLAGS := $$(pkg-config --cflags cmocka)"; \
	   echo "CMOCKA_LIBS := $$(pkg-config --libs cmocka)"; } > $@.$$$$ && mv $@.$$$$ $@

all: rocectl rocectl-net.so

# -rdynamic: the plugin's drivers call back into the engine (errors, model, registry).
rocectl: $(REL_OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -rdynamic -o $@ $^ $(CORE_LIBS)

rocectl-net.so: $(REL_NET_OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -shared -o $@ $^ $(NET_LIBS)

# Where the plugin is installed, as a generated header rewritten only when it changes, so
# that `make install PREFIX=/usr` rebuilds exactly what depends on it.
GEN_PLUGIN_DIR := $(BUILD)/gen/plugin_dir.h
$(GEN_PLUGIN_DIR): FORCE
	@mkdir -p $(@D)
	@echo '#define ROCECTL_PLUGIN_DIR "$(PLUGIN_DIR)"' > $@.new
	@cmp -s $@.new $@ 2>/dev/null && rm -f $@.new || mv $@.new $@
FORCE:

# The commit `rocectl --version` names; a build outside git (a source package) says unknown
# unless ROCECTL_COMMIT is given.
ROCECTL_COMMIT ?= $(shell git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
GEN_COMMIT := $(BUILD)/gen/commit.h
$(GEN_COMMIT): FORCE
	@mkdir -p $(@D)
	@echo '#define ROCECTL_COMMIT "$(ROCECTL_COMMIT)"' > $@.new
	@cmp -s $@.new $@ 2>/dev/null && rm -f $@.new || mv $@.new $@

$(BUILD)/rel/%.o: %.c $(BUILD)/config.mk | $(GEN_PLUGIN_DIR) $(GEN_COMMIT)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(BASE_CFLAGS) $(REL_CFLAGS) $(PKG_CFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/san/%.o: %.c $(BUILD)/config.mk | $(GEN_PLUGIN_DIR) $(GEN_COMMIT)
	@mkdir -p $(@D)
	@echo "  CC [san] $<"
	$(Q)$(CC) $(BASE_CFLAGS) $(SAN_CFLAGS) $(PKG_CFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/san/rocectl: $(SAN_OBJS) $(BUILD)/san/rocectl-net.so
	@echo "  LD [san] $@"
	$(Q)$(CC) $(SAN_LDFLAGS) -rdynamic -o $@ $(SAN_OBJS) $(CORE_LIBS)

$(BUILD)/san/rocectl-net.so: $(SAN_NET_OBJS)
	@echo "  LD [san] $@"
	$(Q)$(CC) $(SAN_LDFLAGS) -shared -o $@ $^ $(NET_LIBS)

$(BUILD)/san/tests/unit/%: tests/unit/%.c $(SAN_LIB_OBJS) $(BUILD)/config.mk
	@mkdir -p $(@D)
	@echo "  CC [san] $<"
	$(Q)$(CC) $(BASE_CFLAGS) -Wno-missing-prototypes $(SAN_CFLAGS) $(PKG_CFLAGS) $(CMOCKA_CFLAGS) \
		-Itests/unit -o $@ $< $(SAN_LIB_OBJS) $(SAN_LDFLAGS) $(PKG_LIBS) $(CMOCKA_LIBS)

$(BUILD)/san/tests/conformance/%: tests/conformance/%.c $(SAN_LIB_OBJS) $(BUILD)/config.mk
	@mkdir -p $(@D)
	@echo "  CC [san] $<"
	$(Q)$(CC) $(BASE_CFLAGS) -Wno-missing-prototypes $(SAN_CFLAGS) $(PKG_CFLAGS) $(CMOCKA_CFLAGS) \
		-Itests/unit -o $@ $< $(SAN_LIB_OBJS) $(SAN_LDFLAGS) $(PKG_LIBS) $(CMOCKA_LIBS)

# libFuzzer targets (tests/fuzz/fuzz_*.c) against every parser of untrusted input, built
# with clang; tests/fuzz/t0900-fuzz-smoke.sh runs each for a fixed number of inputs.
FUZZ_CC ?= clang
FUZZ_CFLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/fuzz/%.o)

$(BUILD)/fuzz/%.o: %.c $(BUILD)/config.mk | $(GEN_PLUGIN_DIR) $(GEN_COMMIT)
	@mkdir -p $(@D)
	@echo "  CC [fuzz] $<"
	$(Q)$(FUZZ_CC) $(filter-out -Wno-format-truncation,$(BASE_CFLAGS)) $(FUZZ_CFLAGS) $(PKG_CFLAGS) -c -o $@ $<

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_LIB_OBJS)
	@echo "  LD [fuzz] $@"
	$(Q)$(FUZZ_CC) $(filter-out -Wno-format-truncation,$(BASE_CFLAGS)) -Wno-missing-prototypes \
		-fsanitize=fuzzer,address,undefined -g $(PKG_CFLAGS) -o $@ $< $(FUZZ_LIB_OBJS) $(PKG_LIBS)

fuzz: $(FUZZ_BINS)

# keep the objects: they are intermediate to make, but rebuilding them is slow
.SECONDARY: $(FUZZ_LIB_OBJS)

sims: $(SIM_TARGETS)

unit: $(UNIT_BINS)

# The edit-compile loop: unit tests, the conformance suite and a fuzz smoke, no root and no
# lab (a script needing root skips; `make check` counts a skip as a failure).
test-fast: rocectl rocectl-net.so $(BUILD)/san/rocectl $(UNIT_BINS) $(CONF_BINS) $(FUZZ_BINS) \
		$(BUILD)/sim/switch/switchsim-ctl $(BUILD)/sim/switch/switchsim-cli \
		$(BUILD)/sim/switch/switchsim-rest $(NICSIM_OUT)/libnicsim.so $(NICSIM_OUT)/nicsimctl
	@ROCECTL="$(abspath $(BUILD)/san/rocectl)" BUILD_DIR="$(abspath $(BUILD))" \
		SRC_DIR="$(CURDIR)" ROCECTL_TEST_FILTER="tests/conformance/ tests/fuzz/" \
		sh tests/run.sh $(UNIT_BINS) $(CONF_BINS)

# The test entry point: install what is missing, then build and run everything.
test:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory check

check: rocectl rocectl-net.so $(BUILD)/san/rocectl $(UNIT_BINS) $(CONF_BINS) $(SIM_TARGETS) \
		$(FUZZ_BINS)
	@ROCECTL="$(abspath $(BUILD)/san/rocectl)" BUILD_DIR="$(abspath $(BUILD))" ROCECTL_TEST_NO_SKIP=1 \
		SRC_DIR="$(CURDIR)" sh tests/run.sh $(UNIT_BINS) $(CONF_BINS)

# The full fault campaign (tests/faults/README.md): 400 seeded trials over the lab, root only.
# FAULT_SEED=N replays from trial seed N; FAULT_TRIALS=N runs N trials; FAULT_FABRICS=a,b
# picks the fabrics (campaign.py --fabrics; default nvue, sonic, eos and mixed),
# FAULT_KINDS=kill9,... the fault kinds, FAULT_COMMANDS=apply,... the faulted commands
# (default all four: apply, enforce-confirm, confirm, rollback-run).
FAULT_TRIALS ?= 400
FAULT_COMMANDS ?= apply,enforce-confirm,confirm,rollback-run
faults: rocectl rocectl-net.so $(BUILD)/san/rocectl $(SIM_TARGETS)
	@ROCECTL="$(abspath $(BUILD)/san/rocectl)" BUILD_DIR="$(abspath $(BUILD))" SRC_DIR="$(CURDIR)" \
		ROCECTL_LOCK_DIR="$${ROCECTL_LOCK_DIR:-$(abspath $(BUILD))/locks}" \
		ROCECTL_HISTORY="$${ROCECTL_HISTORY:-$(abspath $(BUILD))/history}" \
		ASAN_OPTIONS=detect_leaks=1:verify_asan_link_order=0 \
		python3 tests/faults/campaign.py --trials $(FAULT_TRIALS) $(if $(FAULT_SEED),--seed $(FAULT_SEED)) \
		$(if $(FAULT_FABRICS),--fabrics $(FAULT_FABRICS)) $(if $(FAULT_KINDS),--kinds $(FAULT_KINDS)) \
		$(if $(FAULT_COMMANDS),--commands $(FAULT_COMMANDS))

# The quick form (tests/faults/quick.sh, 21 trials over small fabrics); `make test` runs it
# too (tests/faults/t8300-faults-quick.sh).
faults-quick: rocectl rocectl-net.so $(BUILD)/san/rocectl $(SIM_TARGETS)
	@ROCECTL="$(abspath $(BUILD)/san/rocectl)" BUILD_DIR="$(abspath $(BUILD))" SRC_DIR="$(CURDIR)" \
		ROCECTL_LOCK_DIR="$${ROCECTL_LOCK_DIR:-$(abspath $(BUILD))/locks}" \
		ROCECTL_HISTORY="$${ROCECTL_HISTORY:-$(abspath $(BUILD))/history}" \
		sh tests/faults/quick.sh

# Only the conformance suite (part of `make test` too): no lab, no root.
# test_conf_sonic_patch runs the switch simulator's binaries (no sshd) for factory states;
# t5110-shape also its REST server, in a network namespace of its own (unshare -rn), and
# the simulated NIC under the real ethtool.
conformance: rocectl rocectl-net.so $(BUILD)/san/rocectl $(CONF_BINS) \
		$(BUILD)/sim/switch/switchsim-ctl $(BUILD)/sim/switch/switchsim-cli \
		$(BUILD)/sim/switch/switchsim-rest $(NICSIM_OUT)/libnicsim.so $(NICSIM_OUT)/nicsimctl
	@ROCECTL="$(abspath $(BUILD)/san/rocectl)" BUILD_DIR="$(abspath $(BUILD))" \
		SRC_DIR="$(CURDIR)" ROCECTL_TEST_FILTER=tests/conformance/ sh tests/run.sh $(CONF_BINS)

demo:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory all $(SIM_TARGETS)
	@ROCECTL="$(CURDIR)/rocectl" BUILD_DIR="$(abspath $(BUILD))" sh examples/demo.sh

# Idempotent: quiet and offline when everything is already installed.
deps:
	@missing=; for p in $(sort $(DEB_PACKAGES)); do \
		dpkg-query -W -f='$${Status}\n' "$$p" 2>/dev/null | grep -q '^install ok installed' \
			|| missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		echo "make deps: installing$$missing"; \
		$$sudo apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

# Two halves, so that the Debian packages (debian/) can split them: install-agent is what a
# GPU node needs (the binary, rocectl(8), the forced-command wrapper, the agent's units),
# install-controller the rest.  Whatever dist/ holds is installed by wildcard: systemd
# units to SYSTEMDUNITDIR (rocectl-agent* ones with the agent), any other dist/ directory
# under share/rocectl/.
AGENT_UNITS = $(wildcard dist/systemd/rocectl-agent*)
CONTROLLER_UNITS = $(filter-out $(AGENT_UNITS),$(wildcard dist/systemd/*.service \
	dist/systemd/*.timer dist/systemd/*.path dist/systemd/*.socket))
# directories only: dist/dist.mk is a make file, not data to install
DIST_DATA_DIRS = $(patsubst %/,%,$(filter-out dist/ssh/ dist/completion/ dist/systemd/ \
	dist/sysusers/ dist/tmpfiles/,$(wildcard dist/*/)))
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
TMPFILESDIR ?= $(PREFIX)/lib/tmpfiles.d

install: install-agent install-controller

install-agent: rocectl
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(PLUGIN_DIR)" "$(DESTDIR)$(MANDIR)/man8"
	install -m 0755 rocectl "$(DESTDIR)$(BINDIR)/rocectl"
	sed 's|^ROCECTL_BIN=.*|ROCECTL_BIN=$${ROCECTL_BIN:-$(BINDIR)/rocectl}|' \
		dist/ssh/rocectl-agent-wrapper >"$(DESTDIR)$(PLUGIN_DIR)/rocectl-agent-wrapper"
	chmod 0755 "$(DESTDIR)$(PLUGIN_DIR)/rocectl-agent-wrapper"
	install -m 0644 man/rocectl.8 "$(DESTDIR)$(MANDIR)/man8/rocectl.8"
	$(if $(AGENT_UNITS),install -d "$(DESTDIR)$(SYSTEMDUNITDIR)" && \
		install -m 0644 $(AGENT_UNITS) "$(DESTDIR)$(SYSTEMDUNITDIR)/")

install-controller: rocectl-net.so
	install -d "$(DESTDIR)$(PLUGIN_DIR)" "$(DESTDIR)$(PREFIX)/share/rocectl/policies" \
		"$(DESTDIR)$(MANDIR)/man5" "$(DESTDIR)$(BASHCOMPDIR)" "$(DESTDIR)$(DOCDIR)/examples" \
		"$(DESTDIR)$(DOCDIR)/docs/platforms"
	install -m 0644 rocectl-net.so "$(DESTDIR)$(PLUGIN_DIR)/rocectl-net.so"
	install -m 0644 policies/*.yaml "$(DESTDIR)$(PREFIX)/share/rocectl/policies/"
	install -m 0644 man/rocectl-policy.5 man/rocectl-inventory.5 "$(DESTDIR)$(MANDIR)/man5/"
	install -m 0644 dist/completion/rocectl "$(DESTDIR)$(BASHCOMPDIR)/rocectl"
	install -m 0644 docs/POLICY.md docs/INVENTORY.md docs/DEPLOY.md "$(DESTDIR)$(DOCDIR)/"
	install -m 0644 examples/*.schema.json examples/inventory.yaml "$(DESTDIR)$(DOCDIR)/examples/"
	@# every document the README links, at the same relative path (docs/..., LICENSE)
	install -m 0644 README.md LICENSE "$(DESTDIR)$(DOCDIR)/"
	install -m 0644 docs/*.md "$(DESTDIR)$(DOCDIR)/docs/"
	install -m 0644 docs/platforms/*.md "$(DESTDIR)$(DOCDIR)/docs/platforms/"
	$(if $(CONTROLLER_UNITS),install -d "$(DESTDIR)$(SYSTEMDUNITDIR)" && \
		install -m 0644 $(CONTROLLER_UNITS) "$(DESTDIR)$(SYSTEMDUNITDIR)/")
	@# the service user and its directories (systemd-sysusers and systemd-tmpfiles make them)
	install -d "$(DESTDIR)$(SYSUSERSDIR)" "$(DESTDIR)$(TMPFILESDIR)"
	install -m 0644 dist/sysusers/rocectl.conf "$(DESTDIR)$(SYSUSERSDIR)/rocectl.conf"
	install -m 0644 dist/tmpfiles/rocectl.conf "$(DESTDIR)$(TMPFILESDIR)/rocectl.conf"
	$(foreach d,$(DIST_DATA_DIRS),install -d "$(DESTDIR)$(PREFIX)/share/rocectl/$(notdir $(d))" && \
		install -m 0644 $(wildcard $(d)/*) "$(DESTDIR)$(PREFIX)/share/rocectl/$(notdir $(d))/";)

# Debian packages rocectl and rocectl-agent (debian/), built with dpkg-buildpackage from a
# copy of the tree's files (what git tracks, and new files it does not ignore), so that the
# build writes nothing beside the tree; the .deb files land in DEBDIR.
DEBDIR ?= $(BUILD)/deb
DEB_SRC := $(BUILD)/debsrc/rocectl-$(VERSION)
deb:
	@rm -rf $(BUILD)/debsrc && mkdir -p $(DEB_SRC) $(DEBDIR)
	@{ git ls-files -co --exclude-standard 2>/dev/null || \
	   find . -path ./$(BUILD) -prune -o -type f -print; } | \
		while IFS= read -r f; do [ -f "$$f" ] && printf '%s\n' "$$f"; done | \
		tar -cf - -T - | tar -xf - -C $(DEB_SRC)
	# this make's command-line variables (BUILD=, DEBDIR=) must not reach debian/rules' make:
	# its `make clean` would remove our BUILD, the copy included
	cd $(DEB_SRC) && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES -u BUILD -u DEBDIR \
		-u DESTDIR -u PREFIX -u BINDIR -u LIBDIR -u CFLAGS -u LDFLAGS \
		ROCECTL_COMMIT="$(ROCECTL_COMMIT)" dpkg-buildpackage -us -uc -b
	mv $(BUILD)/debsrc/*.deb $(DEBDIR)/
	@ls $(DEBDIR)/*.deb

# The man pages are checked like code (groff's warnings are errors).
man-check:
	@for m in man/*.[1-8]; do \
		out=$$(groff -ww -z -man "$$m" 2>&1) && [ -z "$$out" ] || { echo "$$m: $$out"; exit 1; }; \
	done; echo "man-check: clean"

FORMAT_SRCS = $(shell find engine cli support drivers include tests/unit tests/conformance tests/sim tests/fuzz \
	-name '*.[ch]' 2>/dev/null)
format:
	clang-format -i $(FORMAT_SRCS)

format-check:
	@clang-format --dry-run --Werror $(FORMAT_SRCS) && echo "format-check: clean"

# Static analysis with the checked-in .clang-tidy (clang-analyzer and a few bugprone
# checks); .ci/run requires it to stay clean.
TIDY ?= clang-tidy
TIDY_SRCS = $(sort $(wildcard engine/*/*.c cli/*.c support/*.c drivers/*/*.c))
tidy: $(BUILD)/config.mk | $(GEN_PLUGIN_DIR) $(GEN_COMMIT)
	@$(TIDY) --quiet $(TIDY_SRCS) -- -std=c11 -D_GNU_SOURCE -Iinclude -I$(BUILD)/gen \
		-DROCECTL_VERSION='"$(VERSION)"' $(PKG_CFLAGS) && echo "tidy: clean"

# Every reference between the product's objects follows the layer order (cli -> engine ->
# support <- drivers -> transport; util below all), read from their symbol tables.
check-layers: rocectl rocectl-net.so
	@scripts/check-layers $(BUILD)/rel $(REL_OBJS) $(REL_NET_OBJS)

clean:
	rm -rf $(BUILD) rocectl rocectl-net.so

help:
	@echo "targets: all (./rocectl) deps test demo install clean format format-check tidy check-layers sims conformance"

# Dependency files of every build (-MMD): touching a header rebuilds what includes it,
# the fuzzers and test binaries included.
-include $(REL_OBJS:.o=.d) $(SAN_OBJS:.o=.d) $(REL_NET_OBJS:.o=.d) $(SAN_NET_OBJS:.o=.d) \
	$(FUZZ_LIB_OBJS:.o=.d) $(FUZZ_BINS:=.d) $(UNIT_BINS:=.d) $(CONF_BINS:=.d)
