# SPDX-License-Identifier: Apache-2.0
# The operations files (dist/) are checked by their own tools in `make test`
# (tests/dist/t6030-dist.sh, t6051-kubernetes.sh): systemd-analyze (systemd), promtool (prometheus), python3-yaml;
# Debian's node_exporter scrapes the textfiles (tests/lab/t3214-node-exporter.sh).
DEB_PACKAGES += systemd prometheus python3-yaml man-db prometheus-node-exporter curl
