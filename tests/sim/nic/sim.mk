# SPDX-License-Identifier: Apache-2.0
# Simulated NIC (tests/sim/nic): an LD_PRELOAD library answering DCB netlink, SIOCETHTOOL and
# fake sysfs writes for simulated mlx5 interfaces, and nicsimctl, which creates the simulated
# hosts.  An independent witness: it builds from its own sources only (no engine/, drivers/,
# include/rocectl/), against libc and the kernel UAPI headers.
NICSIM_SRC := tests/sim/nic
NICSIM_OUT := $(BUILD)/sim/nic
NICSIM_CFLAGS := -std=c11 -D_GNU_SOURCE -O2 -g -fPIC -fvisibility=hidden -MMD -MP \
	-Wall -Wextra -Werror -Wshadow -Wformat=2 -Wno-format-nonliteral -Wstrict-prototypes \
	-Wmissing-prototypes -Wvla
NICSIM_CORE := buf counters state mlx5 dcbnl tree cong ethtool rates
NICSIM_LIB_OBJS := $(patsubst %,$(NICSIM_OUT)/%.o,$(NICSIM_CORE) preload preload_nl preload_fs)
NICSIM_CTL_OBJS := $(patsubst %,$(NICSIM_OUT)/%.o,$(NICSIM_CORE) ctl)

$(NICSIM_OUT)/%.o: $(NICSIM_SRC)/%.c
	@mkdir -p $(@D)
	@echo "  CC [nicsim] $<"
	$(Q)$(CC) $(NICSIM_CFLAGS) -c -o $@ $<

$(NICSIM_OUT)/libnicsim.so: $(NICSIM_LIB_OBJS)
	@echo "  LD [nicsim] $@"
	$(Q)$(CC) -shared -Wl,-z,defs -o $@ $^ -ldl -lpthread

$(NICSIM_OUT)/nicsimctl: $(NICSIM_CTL_OBJS)
	@echo "  LD [nicsim] $@"
	$(Q)$(CC) -o $@ $^

# a raw DCB netlink client for t1000 (requests the dcb tool cannot make)
$(NICSIM_OUT)/nlprobe: $(NICSIM_OUT)/nlprobe.o
	@echo "  LD [nicsim] $@"
	$(Q)$(CC) -o $@ $^

# the same, instrumented: proves that ASan programs work under the preload library
$(NICSIM_OUT)/nlprobe-asan: $(NICSIM_SRC)/nlprobe.c
	@mkdir -p $(@D)
	@echo "  CC [nicsim] $@"
	$(Q)$(CC) $(filter-out -fPIC -fvisibility=hidden -MMD -MP,$(NICSIM_CFLAGS)) -O1 \
		-fsanitize=address,undefined -fno-omit-frame-pointer -o $@ $<

SIM_TARGETS += $(NICSIM_OUT)/libnicsim.so $(NICSIM_OUT)/nicsimctl $(NICSIM_OUT)/nlprobe \
	$(NICSIM_OUT)/nlprobe-asan
DEB_PACKAGES += ethtool iproute2

-include $(wildcard $(NICSIM_OUT)/*.d)
