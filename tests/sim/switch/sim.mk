# SPDX-License-Identifier: Apache-2.0
# Simulated switches (tests/sim/switch): switchsim-cli (sshd ForceCommand), switchsim-rest
# (HTTPS, libmicrohttpd + GnuTLS), switchsim-ctl (used by simctl).  Links none of rocectl.
# SWSIM_SAN=1 builds an ASan+UBSan variant into $(BUILD)/sim/switch-san/.

SWSIM_DIR := tests/sim/switch
SWSIM_OUT = $(BUILD)/sim/switch$(if $(SWSIM_SAN),-san)
SWSIM_PROGS := switchsim-cli switchsim-rest switchsim-ctl
SWSIM_LIB_SRCS := $(filter-out %_main.c,$(sort $(wildcard $(SWSIM_DIR)/*.c)))
SWSIM_LIB_OBJS = $(SWSIM_LIB_SRCS:$(SWSIM_DIR)/%.c=$(SWSIM_OUT)/%.o)
SWSIM_CFLAGS = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wvla -Wformat=2 -Wno-format-nonliteral -MMD -MP -g \
	$(if $(SWSIM_SAN),-O1 -fno-omit-frame-pointer -fsanitize=address$(,)undefined \
	-fno-sanitize-recover=undefined,-O2) \
	$(shell pkg-config --cflags libcjson libmicrohttpd 2>/dev/null)
SWSIM_LDFLAGS = $(if $(SWSIM_SAN),-fsanitize=address$(,)undefined)
SWSIM_LIBS = $(shell pkg-config --libs libcjson 2>/dev/null || echo -lcjson) -lm
SWSIM_MHD_LIBS = $(shell pkg-config --libs libmicrohttpd 2>/dev/null || echo -lmicrohttpd) \
	-lpthread
, := ,

$(SWSIM_OUT)/%.o: $(SWSIM_DIR)/%.c
	@mkdir -p $(@D)
	$(CC) $(SWSIM_CFLAGS) -c -o $@ $<

$(SWSIM_OUT)/switchsim-cli: $(SWSIM_OUT)/cli_main.o $(SWSIM_LIB_OBJS)
	$(CC) $(SWSIM_LDFLAGS) -o $@ $^ $(SWSIM_LIBS)

$(SWSIM_OUT)/switchsim-ctl: $(SWSIM_OUT)/ctl_main.o $(SWSIM_LIB_OBJS)
	$(CC) $(SWSIM_LDFLAGS) -o $@ $^ $(SWSIM_LIBS)

$(SWSIM_OUT)/switchsim-rest: $(SWSIM_OUT)/rest_main.o $(SWSIM_LIB_OBJS)
	$(CC) $(SWSIM_LDFLAGS) -o $@ $^ $(SWSIM_MHD_LIBS) $(SWSIM_LIBS)

# The multiplexed lab's server (tests/lab/lab up --mux): every device of a kind in one
# process, over libssh's server API.
$(SWSIM_OUT)/switchsim-mux: $(SWSIM_OUT)/mux_main.o $(SWSIM_LIB_OBJS)
	$(CC) $(SWSIM_LDFLAGS) -o $@ $^ $(shell pkg-config --libs libssh 2>/dev/null || echo -lssh) \
		$(SWSIM_LIBS)

SIM_TARGETS += $(addprefix $(BUILD)/sim/switch/,$(SWSIM_PROGS) switchsim-mux)
DEB_PACKAGES += libmicrohttpd-dev libgnutls28-dev libcjson-dev libssh-dev openssh-server openssh-client \
	openssl curl iproute2 util-linux passwd jq

.PHONY: swsim-san
swsim-san:
	@$(MAKE) --no-print-directory SWSIM_SAN=1 \
		$(addprefix $(BUILD)/sim/switch-san/,$(SWSIM_PROGS))

-include $(wildcard $(BUILD)/sim/switch/*.d $(BUILD)/sim/switch-san/*.d)
