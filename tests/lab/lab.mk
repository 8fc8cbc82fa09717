# SPDX-License-Identifier: Apache-2.0
# Fabric lab (tests/lab): shell and awk driving the simulators (tests/sim/switch, tests/sim/nic),
# nothing of its own to build.  What it runs on the machine: jq (drift, tests), sshd and ssh,
# ip netns, setpriv/unshare (util-linux), hostname (host sessions' UTS namespace).
DEB_PACKAGES += jq openssh-server openssh-client iproute2 util-linux hostname mawk
# t3211: verify's HTML report opened in a headless browser (deps installs no recommends: a font)
DEB_PACKAGES += chromium fonts-dejavu-core
