# The operations files (dist/) are checked by their own tools in `make test`
# (tests/dist/t4030-dist.sh): systemd-analyze (systemd) and promtool (prometheus).
DEB_PACKAGES += systemd prometheus
