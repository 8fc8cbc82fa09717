#!/bin/sh
# rollback restores devices at once, not one after the other: two switches that accept the
# TCP connection and never answer (a listener that does not speak SSH) each cost rollback
# their connect timeout; with the default workers both waits overlap, with --parallel 1
# they add up.  No lab: the journal entries are written here, the devices never reached.
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

ROCECTL_LOCK_DIR="$TMP/locks"
export ROCECTL_LOCK_DIR
TIMEOUT=4

test_at_exit '[ -z "$LPID" ] || kill "$LPID" 2>/dev/null || true'

# two listening sockets that never accept: the kernel completes the handshake, no banner
python3 -c '
import socket, sys, time
socks = []
for _ in range(2):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    socks.append(s)
with open(sys.argv[1], "w") as f:
    f.write(" ".join(str(s.getsockname()[1]) for s in socks) + "\n")
time.sleep(600)
' "$TMP/ports" &
LPID=$!
i=0
while [ ! -s "$TMP/ports" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
read -r P1 P2 <"$TMP/ports"

{
	printf 'apiVersion: rocectl/v1\nkind: Inventory\n'
	printf 'defaults:\n  ssh: {connect_timeout: %ss, command_timeout: %ss, known_hosts: "%s"}\n' \
		"$TIMEOUT" "$TIMEOUT" "$TMP/known_hosts"
	printf 'switches:\n'
	for n in 1 2; do
		eval "port=\$P$n"
		printf '  - {name: leaf0%s, address: 127.0.0.1, platform: nvue, transport: ssh, ports: [swp1],\n' "$n"
		printf '     ssh: {port: %s}, credentials: {user: admin, password_env: ROCECTL_T4126_PW}}\n' "$port"
	done
} >"$TMP/inv.yaml"
: >"$TMP/known_hosts"

# a journal of a run whose process is gone, one entry per switch
journal() {
	rm -rf "$TMP/j" && run="20250101T000000.000Z-$(sh -c 'echo $$')" &&
	mkdir -p "$TMP/j/$run" && chmod -R 700 "$TMP/j" &&
	for d in leaf01 leaf02; do
		printf '{"version": 1, "run_id": "%s", "device": "%s", "driver": "nvue-ssh", "address": "127.0.0.1", "ports": [{"name": "swp1", "qos": {"known": 0, "unsupported": 0}}]}\n' \
			"$run" "$d" >"$TMP/j/$run/$d.json" || return 1
	done
}

# elapsed SECONDS_VAR ARGS...: rollback ARGS, exit 1 expected (nothing restored), time kept
timed_rollback() {
	journal || return 1
	t0=$(date +%s.%N)
	ROCECTL_T4126_PW=x "$ROCECTL" rollback -i "$TMP/inv.yaml" --journal "$TMP/j" "$@" \
		>"$TMP/out" 2>"$TMP/err"
	st=$?
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc >"$TMP/elapsed"
	echo "rollback $*: exit $st in $(cat "$TMP/elapsed") s" >&2
	test "$st" = 1 &&
	test_must_contain "$TMP/err" "leaf01" && test_must_contain "$TMP/err" "leaf02"
}

test_expect_success 'one worker: the two timeouts add up (the witness that they are slow)' '
	timed_rollback --parallel 1 &&
	cp "$TMP/elapsed" "$TMP/serial" &&
	test "$(echo "$(cat "$TMP/serial") >= 2 * $TIMEOUT - 0.5" | bc)" = 1
'

test_expect_success 'default workers: both switches are waited for at once' '
	timed_rollback &&
	test "$(echo "$(cat "$TMP/elapsed") < 1.5 * $TIMEOUT" | bc)" = 1 &&
	test -e "$TMP/j/$run/leaf01.json" && test -e "$TMP/j/$run/leaf02.json"
'

test_done
