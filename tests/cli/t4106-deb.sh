#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# make deb: the packages rocectl and rocectl-agent are built with dpkg-buildpackage, lintian
# finds no error, both install into a scratch root with dpkg --root, the installed binary
# answers --version and `agent show` against the simulated NIC, and both purge cleanly.
# (It builds the whole tree once more: a few minutes.)
. "$SRC_DIR/tests/lib/testlib.sh"

NICSIM="$SRC_DIR/tests/sim/nic/nicsim"
D="$TMP/deb"
R="$TMP/root"

test_expect_success 'make deb builds the two packages' '
	make -s -C "$SRC_DIR" deb BUILD="$TMP/build" DEBDIR="$D" >"$TMP/build.log" 2>&1 ||
		{ tail -n 30 "$TMP/build.log"; return 1; } &&
	ls "$D"/rocectl_*.deb "$D"/rocectl-agent_*.deb >/dev/null
'
AGENT=$(ls "$D"/rocectl-agent_*_*.deb 2>/dev/null | grep -v dbgsym | head -n 1)
CTL=$(ls "$D"/rocectl_*_*.deb 2>/dev/null | grep -v dbgsym | head -n 1)

test_expect_success 'the agent package has no libssh or libcurl; the controller needs the agent' '
	dpkg-deb -f "$AGENT" Depends >"$TMP/adeps" &&
	test_must_contain "$TMP/adeps" "libibverbs1" &&
	test_must_contain "$TMP/adeps" "libnl-3" &&
	test_must_not_contain "$TMP/adeps" "libssh|libcurl" &&
	dpkg-deb -c "$AGENT" >"$TMP/alist" &&
	test_must_contain "$TMP/alist" "/usr/bin/rocectl$" &&
	test_must_contain "$TMP/alist" "/usr/lib/rocectl/rocectl-agent-wrapper$" &&
	test_must_not_contain "$TMP/alist" "rocectl-net.so" &&
	dpkg-deb -f "$CTL" Depends >"$TMP/cdeps" &&
	test_must_contain "$TMP/cdeps" "rocectl-agent \(= " &&
	test_must_contain "$TMP/cdeps" "libssh" && test_must_contain "$TMP/cdeps" "libcurl"
'

test_expect_success 'lintian reports no error' '
	test -s "$CTL" && test -s "$AGENT" &&
	{ lintian --allow-root "$CTL" "$AGENT" >"$TMP/lintian" 2>&1 || true; } &&
	test_must_not_contain "$TMP/lintian" "^E: "
'

test_expect_success 'both install into a scratch root with dpkg --root' '
	mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates" "$R/etc" &&
	: >"$R/var/lib/dpkg/status" &&
	echo "root:x:0:0:root:/root:/bin/sh" >"$R/etc/passwd" && echo "root:x:0:" >"$R/etc/group" &&
	echo "root:*:20000::::::" >"$R/etc/shadow" && echo "root:*::" >"$R/etc/gshadow" &&
	dpkg --root="$R" --force-not-root --force-script-chrootless --force-depends \
		-i "$AGENT" "$CTL" >"$TMP/dpkg" 2>&1 || { cat "$TMP/dpkg"; return 1; } &&
	dpkg --root="$R" -l rocectl rocectl-agent >"$TMP/list" &&
	test_must_contain "$TMP/list" "^ii +rocectl " &&
	test_must_contain "$TMP/list" "^ii +rocectl-agent " &&
	test -x "$R/usr/bin/rocectl" && test -s "$R/usr/share/man/man8/rocectl.8.gz" &&
	test -s "$R/usr/share/bash-completion/completions/rocectl"
'

test_expect_success 'the controller package makes its service user and state directory' '
	grep "^rocectl:" "$R/etc/passwd" >"$TMP/pw" &&
	test "$(cut -d: -f6,7 "$TMP/pw")" = "/var/lib/rocectl:/usr/sbin/nologin" &&
	uid=$(cut -d: -f3 "$TMP/pw") && test "$uid" -gt 0 && test "$uid" -lt 1000 &&
	test "$(stat -c "%u %a" "$R/var/lib/rocectl")" = "$uid 711" &&
	test "$(stat -c "%u %a" "$R/var/lib/rocectl/.ssh")" = "$uid 700" &&
	test "$(stat -c "%u %a" "$R/var/lib/rocectl/metrics/rocectl-verify.prom")" = "$uid 644" &&
	test "$(readlink "$R/var/lib/prometheus/node-exporter/rocectl-verify.prom")" = \
		/var/lib/rocectl/metrics/rocectl-verify.prom
'

test_expect_success 'the installed rocectl answers -v --version with its plugin' '
	ROCECTL_PLUGIN="$R/usr/lib/rocectl/rocectl-net.so" "$R/usr/bin/rocectl" -v --version >"$TMP/ver" &&
	test_must_contain "$TMP/ver" "^rocectl 0\.1\.0$" &&
	test_must_contain "$TMP/ver" "^plugin: $R/usr/lib/rocectl/rocectl-net.so$" &&
	test_must_contain "$TMP/ver" "libssh [0-9]"
'

test_expect_success 'the installed rocectl runs agent show against the simulated NIC' '
	"$NICSIM" init "$TMP/h" --nic eth0,rdma=mlx5_0 >/dev/null &&
	"$NICSIM" run "$TMP/h" -- "$R/usr/bin/rocectl" agent show >"$TMP/show" &&
	test_must_contain "$TMP/show" "^eth0: mtu 1500" &&
	test_must_contain "$TMP/show" "rdma: mlx5_0 port 1"
'

test_expect_success 'the installed wrapper runs the installed rocectl' '
	"$NICSIM" run "$TMP/h" -- env SSH_ORIGINAL_COMMAND="rocectl agent state" \
		ROCECTL_BIN="$R/usr/bin/rocectl" sh "$R/usr/lib/rocectl/rocectl-agent-wrapper" >"$TMP/state" &&
	test_must_contain "$TMP/state" "rocectl.agent-state/v1"
'

test_expect_success 'both purge, leaving no file behind' '
	test -x "$R/usr/bin/rocectl" &&
	dpkg --root="$R" --force-not-root --force-script-chrootless --force-depends \
		--purge rocectl rocectl-agent >"$TMP/purge" 2>&1 || { cat "$TMP/purge"; return 1; } &&
	test ! -e "$R/usr/bin/rocectl" && test ! -e "$R/usr/lib/rocectl" &&
	test -z "$(find "$R/usr" -type f 2>/dev/null)"
'

test_done
