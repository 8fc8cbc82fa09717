#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Debian's node_exporter, run as an unprivileged user as its package runs it, scrapes the
# textfiles rocectl writes under the units' UMask=0077: verify --counters, enforce and
# diagnose on a lab, and the host agent's (agent enforce through the simulated NIC), in one
# textfile directory owned by root (as /var/lib/prometheus/node-exporter is).  The scrape
# must report no textfile error, each file's mtime, and rocectl's series from each; a file
# only root can read must make the scrape report the error (so the check can fail).
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"
. "$SRC_DIR/tests/lib/nodeexplib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
NICSIM="$SRC_DIR/tests/sim/nic/nicsim"
LAB="$TMP/lab"
INV="$LAB/inventory.yaml"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
TF="$TMP/textfile"
export BUILD_DIR ROCECTL

test_needs root prometheus-node-exporter curl

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true; [ ! -s "$TMP/ne.pid" ] || kill "$(cat "$TMP/ne.pid")" 2>/dev/null'

rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}


test_expect_success 'rocectl writes its four textfiles with the units umask (077) into a root-owned 0755 directory' '
	mkdir -m 0755 "$TF" && chmod 0711 "$TMP" &&
	"$LAB_CMD" up "$LAB" --hosts 2 --nics 1 --leaves 1 --spines 1 --platforms nvue >"$TMP/up" 2>&1 ||
		{ cat "$TMP/up"; false; } &&
	(
		umask 077 &&
		{ rc verify -p "$POLICY" -i "$INV" --counters --format prometheus \
			-o "$TF/rocectl-verify.prom" >/dev/null 2>&1; test $? = 2; } &&
		{ rc enforce -p "$POLICY" -i "$INV" --format prometheus \
			-o "$TF/rocectl-enforce.prom" >/dev/null 2>&1; test $? -le 2; } &&
		{ rc diagnose -p "$POLICY" -i "$INV" --interval 2s --format prometheus \
			-o "$TF/rocectl-diagnose.prom" >/dev/null 2>&1; test $? -le 2; } &&
		"$NICSIM" init "$TMP/h" --nic eth0,rdma=mlx5_0 >/dev/null &&
		{ "$NICSIM" run "$TMP/h" -- "$ROCECTL" agent enforce -p "$POLICY" --journal "$TMP/j" \
			--disruptive skip --format prometheus -o "$TF/rocectl-agent.prom" >/dev/null 2>&1;
			test $? -le 2; }
	) &&
	ls -l "$TF" &&
	test "$(stat -c %a "$TF"/*.prom | sort -u)" = 644
'

test_expect_success 'node_exporter as nobody scrapes all four with no textfile error' '
	ne_start "$TF" 19100 19101 19102 19103 19104 &&
	test_must_contain "$TMP/metrics" "^node_textfile_scrape_error 0$" &&
	for f in verify enforce diagnose agent; do
		test_must_contain "$TMP/metrics" "^node_textfile_mtime_seconds\{file=\"[^\"]*rocectl-$f.prom\"\}" ||
			return 1
	done &&
	test_must_contain "$TMP/metrics" "^rocectl_last_verify_timestamp_seconds " &&
	test_must_contain "$TMP/metrics" "^rocectl_enforce_exit_code " &&
	test_must_contain "$TMP/metrics" "^rocectl_last_diagnose_timestamp_seconds " &&
	test_must_contain "$TMP/metrics" "^rocectl_build_info\{command=\"agent" &&
	test_must_not_contain "$TMP/ne.log" "permission denied|level=error"
'

test_expect_success 'a textfile only root can read is a scrape error (the check can fail)' '
	cp "$TF/rocectl-verify.prom" "$TF/rocectl-private.prom" && chmod 0600 "$TF/rocectl-private.prom" &&
	ne_scrape && test_must_contain "$TMP/metrics" "^node_textfile_scrape_error 1$" &&
	rm -f "$TF/rocectl-private.prom" &&
	ne_scrape && test_must_contain "$TMP/metrics" "^node_textfile_scrape_error 0$"
'

test_done
