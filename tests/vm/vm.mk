# SPDX-License-Identifier: Apache-2.0
# Real-kernel test tier (tests/vm/README.md): Debian 12's kernel under QEMU with rxe0.
#
# The guest image is not in SIM_TARGETS: the first `tests/vm/vm run` (t7000 under
# `make check`) builds it on demand and caches it in $(BUILD)/vm; later runs reuse it.
# `make vm-image` builds it ahead of time, `make vm-refresh` picks up a newer kernel.

DEB_PACKAGES += qemu-system-x86 busybox-static rdma-core ibverbs-utils ibverbs-providers \
	iproute2 ethtool kmod cpio xz-utils dash apt

.PHONY: vm-image vm-refresh
vm-image:
	@BUILD_DIR="$(abspath $(BUILD))" bash tests/vm/vm build

vm-refresh:
	@BUILD_DIR="$(abspath $(BUILD))" bash tests/vm/vm build --refresh
