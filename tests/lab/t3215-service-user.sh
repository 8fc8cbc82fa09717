#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The packaged controller's service user, made by the real systemd-sysusers and
# systemd-tmpfiles from dist/sysusers/rocectl.conf and dist/tmpfiles/rocectl.conf (their
# paths moved under this test's directory, their user renamed): an operator's apply as root
# becomes that user (cli/state_owner.c), so the run's record, journal and lock are its own
# and the recovery timer, running as it, can finish the run; the verify unit's textfile in
# the user's metrics directory reaches Debian's node_exporter (as nobody) through the link
# tmpfiles made in its root-owned textfile directory.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"
. "$SRC_DIR/tests/lib/nodeexplib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
LAB="$TMP/lab"
SVC=rocectl-t3215
S="$TMP/var/lib/rocectl" # the state directory
TF="$TMP/var/lib/prometheus/node-exporter"
BIN="$TMP/bin/rocectl"
export BUILD_DIR ROCECTL

test_needs root systemd-sysusers systemd-tmpfiles setpriv prometheus-node-exporter curl jq

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true; [ ! -s "$TMP/ne.pid" ] || kill "$(cat "$TMP/ne.pid")" 2>/dev/null; for p in $(cat "$S"/runs/*/record.json 2>/dev/null | sed -n "s/.*\"timer_pid\":[^0-9]*\([0-9]*\).*/\1/p"); do [ "$p" -gt 1 ] && kill "$p" 2>/dev/null; done; userdel "$SVC" 2>/dev/null; groupdel "$SVC" 2>/dev/null; true'

# rocectl in the lab's namespace: as root (what `sudo rocectl` is) ...
as_root() {
	"$LAB_CMD" exec "$LAB" -- env -u SUDO_USER ROCECTL_STATE_DIR="$S" \
		ROCECTL_HISTORY="$S/history" ROCECTL_JOURNAL="$S/journal" \
		ROCECTL_LOCK_DIR="$TMP/run/lock/rocectl" "$BIN" "$@"
}

# ... and as the service user, the way the units run it (User=, umask 077)
as_service() {
	"$LAB_CMD" exec "$LAB" -- setpriv --reuid="$SVC" --regid="$SVC" --init-groups -- \
		sh -c 'umask 077 && exec "$@"' sh env ROCECTL_STATE_DIR="$S" \
		ROCECTL_HISTORY="$S/history" ROCECTL_JOURNAL="$S/journal" \
		ROCECTL_LOCK_DIR="$TMP/run/lock/rocectl" "$BIN" "$@"
}


test_expect_success 'systemd-sysusers and systemd-tmpfiles make the user and its directories from the shipped files' '
	chmod 0711 "$TMP" &&
	sed "s|^u rocectl |u $SVC |; s|/var/lib/rocectl|$S|g" "$SRC_DIR/dist/sysusers/rocectl.conf" \
		>"$TMP/sysusers.conf" &&
	sed "s|rocectl rocectl|$SVC $SVC|g; s| /var/lib/| $TMP/var/lib/|g; s| /run/lock/| $TMP/run/lock/|g" \
		"$SRC_DIR/dist/tmpfiles/rocectl.conf" >"$TMP/tmpfiles.conf" &&
	test_must_contain "$TMP/tmpfiles.conf" "^L $TF/rocectl-verify.prom " &&
	mkdir -p "$TF" "$TMP/run/lock" && chmod 0755 "$TMP/var" "$TMP/var/lib" "$TF" &&
	chmod 1777 "$TMP/run/lock" && chmod 0755 "$TMP/run" &&
	mkdir -p -m 0700 "$S/older" && echo "{}" >"$S/older/run.json" &&
	chmod 0600 "$S/older/run.json" &&
	systemd-sysusers "$TMP/sysusers.conf" && id "$SVC" &&
	test "$(getent passwd "$SVC" | cut -d: -f6,7)" = "$S:/usr/sbin/nologin" &&
	systemd-tmpfiles --create "$TMP/tmpfiles.conf" &&
	test "$(stat -c "%U %a" "$S")" = "$SVC 711" &&
	test "$(stat -c "%U %a" "$S/.ssh")" = "$SVC 700" &&
	test "$(stat -c "%U %a" "$S/older/run.json")" = "$SVC 600" &&
	test "$(stat -c "%U %a %s" "$S/metrics/rocectl-verify.prom")" = "$SVC 644 0" &&
	test "$(readlink "$TF/rocectl-verify.prom")" = "$S/metrics/rocectl-verify.prom" &&
	test "$(stat -c "%U %a" "$TMP/run/lock/rocectl")" = "$SVC 700"
'

test_expect_success 'a lab, and what the service user reads: rocectl, the policy, its SSH key' '
	"$LAB_CMD" up "$LAB" --hosts 2 --nics 1 --leaves 1 --spines 0 --platforms nvue >"$TMP/up" 2>&1 ||
		{ cat "$TMP/up"; false; } &&
	mkdir -p "$TMP/bin" "$TMP/etc" && chmod 0755 "$TMP/bin" "$TMP/etc" &&
	cp "$ROCECTL" "$BIN" && cp "$(dirname "$ROCECTL")/rocectl-net.so" "$TMP/bin/" &&
	cp "$SRC_DIR/policies/roce-lossless.yaml" "$TMP/etc/policy.yaml" &&
	install -o "$SVC" -g "$SVC" -m 0600 "$LAB/id_ed25519" "$S/.ssh/id_ed25519" &&
	install -o "$SVC" -g "$SVC" -m 0600 "$LAB/known_hosts" "$S/.ssh/known_hosts" &&
	sed "s|$LAB/id_ed25519|$S/.ssh/id_ed25519|g; s|$LAB/known_hosts|$S/.ssh/known_hosts|g" \
		"$LAB/inventory.yaml" >"$TMP/etc/inventory.yaml" &&
	chmod 0644 "$TMP/etc/"*.yaml
'

test_expect_success 'apply --confirm as root runs as the service user: the run is entirely its own' '
	as_root apply -p "$TMP/etc/policy.yaml" -i "$TMP/etc/inventory.yaml" --confirm 10m \
		>"$TMP/apply.out" 2>&1 || { cat "$TMP/apply.out"; false; } &&
	run=$(sed -n "s/^run \([^ ]*\).*/\1/p" "$TMP/apply.out" | head -n 1) && test -n "$run" &&
	echo "$run" >"$TMP/runid" &&
	test -f "$S/runs/$run/record.json" &&
	find "$S" "$TMP/run/lock/rocectl" ! -user "$SVC" >"$TMP/not-ours" &&
	{ test ! -s "$TMP/not-ours" || { cat "$TMP/not-ours"; false; }; } &&
	pid=$(jq -r .timer_pid "$S/runs/$run/record.json") &&
	test "$(ps -o user= -p "$pid")" = "$SVC" &&
	as_root history --json >"$TMP/h.json" &&
	jq -e --arg u "$SVC" --arg r "$run" \
		"[.runs[] | select(.run_id == \$r)][0] | .user == \$u and .sudo_user == \"root\"" "$TMP/h.json"
'

test_expect_success 'the recovery timer, as the service user, rolls the pending run back' '
	run=$(cat "$TMP/runid") &&
	as_service rollback "$run" -i "$TMP/etc/inventory.yaml" >"$TMP/rb.out" 2>&1 ||
		{ cat "$TMP/rb.out"; false; } &&
	jq -e ".state == \"rolled back\"" "$S/runs/$run/record.json" &&
	{ as_root verify -p "$TMP/etc/policy.yaml" -i "$TMP/etc/inventory.yaml" >/dev/null 2>&1;
		test $? = 2; }
'

test_expect_success 'the verify unit writes its textfile; node_exporter as nobody reads it through the link' '
	{ as_service verify -p "$TMP/etc/policy.yaml" -i "$TMP/etc/inventory.yaml" --format prometheus \
		-o "$S/metrics/rocectl-verify.prom" >/dev/null 2>&1; test $? = 2; } &&
	test "$(stat -c "%U %a" "$S/metrics/rocectl-verify.prom")" = "$SVC 644" &&
	test -L "$TF/rocectl-verify.prom" &&
	ne_start "$TF" 19110 19111 19112 19113 19114 &&
	test_must_contain "$TMP/metrics" "^node_textfile_scrape_error 0$" &&
	test_must_contain "$TMP/metrics" "^rocectl_last_verify_timestamp_seconds " &&
	test_must_contain "$TMP/metrics" "^node_textfile_mtime_seconds\{file=\"[^\"]*rocectl-enforce.prom\"\}"
'

test_expect_success 'a state directory owned by a uid no user has: root refuses, changes nothing' '
	mkdir -m 0700 "$TMP/orphan" && chown 54321:54321 "$TMP/orphan" &&
	test_expect_code 1 env ROCECTL_STATE_DIR="$TMP/orphan" "$BIN" history >"$TMP/o.out" 2>&1 &&
	test_must_contain "$TMP/o.out" "owned by uid 54321, which no user has" &&
	test -z "$(ls -A "$TMP/orphan")"
'

test_done
