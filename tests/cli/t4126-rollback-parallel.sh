#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
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

# two listeners that accept and never speak SSH; each connection's arrival time is logged,
# the witness of whether the two waits overlapped (robust on a loaded machine, unlike the
# wall time of the whole command)
python3 -c '
import select, socket, sys, time
socks = []
for _ in range(2):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    socks.append(s)
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write(" ".join(str(s.getsockname()[1]) for s in socks) + "\n")
import os
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
held = []
with open(sys.argv[2], "a", buffering=1) as log:
    while True:
        r, _, _ = select.select(socks, [], [], 600)
        for s in r:
            c, _ = s.accept()
            held.append(c)
            log.write("%d %.3f\n" % (s.getsockname()[1], time.monotonic()))
' "$TMP/ports" "$TMP/arrivals" &
LPID=$!
i=0
while [ ! -s "$TMP/ports" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
read -r P1 P2 <"$TMP/ports"

{
	printf 'apiVersion: rocectl/v1\nkind: Inventory\n'
	printf 'defaults:\n  ssh: {connect_timeout: %ss, command_timeout: %ss, known_hosts: "%s"}\n' \
		"$TIMEOUT" "$TIMEOUT" "$TMP/known_hosts"
	printf 'switches:\n'
	for n in 1 2; do
		port=$P1 && [ "$n" = 1 ] || port=$P2
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

# timed_rollback ARGS...: rollback ARGS, exit 1 expected (nothing restored); $TMP/gap: the
# seconds between the first connection to each switch
timed_rollback() {
	journal && : >"$TMP/arrivals" || return 1
	ROCECTL_T4126_PW=x "$ROCECTL" rollback -i "$TMP/inv.yaml" --journal "$TMP/j" "$@" \
		>"$TMP/out" 2>"$TMP/err"
	st=$?
	sleep 0.5
	echo "rollback $*: exit $st, connections:" >&2 && cat "$TMP/arrivals" >&2
	test "$st" = 1 &&
	test_must_contain "$TMP/err" "leaf01" && test_must_contain "$TMP/err" "leaf02" &&
	awk -v p1="$P1" -v p2="$P2" "
		\$1 == p1 && !a { a = \$2 } \$1 == p2 && !b { b = \$2 }
		END { if (!a || !b) exit 1; d = a - b; print (d < 0 ? -d : d) }" \
		"$TMP/arrivals" >"$TMP/gap"
}

test_expect_success 'one worker: the second switch is reached only after the first timed out' '
	timed_rollback --parallel 1 &&
	test "$(echo "$(cat "$TMP/gap") >= $TIMEOUT - 0.5" | bc)" = 1
'

test_expect_success 'default workers: both switches are reached before either times out' '
	timed_rollback &&
	test "$(echo "$(cat "$TMP/gap") < $TIMEOUT / 2" | bc)" = 1 &&
	test -e "$TMP/j/$run/leaf01.json" && test -e "$TMP/j/$run/leaf02.json"
'

test_done
