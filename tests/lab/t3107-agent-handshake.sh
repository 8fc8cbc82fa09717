#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The controller refuses a host whose rocectl speaks another agent protocol, or predates
# the handshake, naming both protocols and versions (drivers/host/agent_answer.c), and
# still reports the other hosts.  Through the lab's real sshd.
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
LAB="$TMP/lab"
INV="$LAB/inventory.yaml"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
ROCECTL_JOURNAL="$TMP/journal"
export BUILD_DIR ROCECTL ROCECTL_JOURNAL

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}

# host_rocectl HOST BODY: the host runs this sh script as its rocectl (as in t3050)
host_rocectl() {
	. "$LAB/lab.env"
	mkdir -p "$RUN/override/$1"
	chmod 755 "$RUN/override" "$RUN/override/$1"
	printf '#!/bin/sh\n%s\n' "$2" >"$RUN/override/$1/rocectl"
	chmod 755 "$RUN/override/$1/rocectl"
}

test_expect_success 'lab up: 2 hosts, 1 leaf' '
	"$LAB_CMD" up "$LAB" --hosts 2 --leaves 1 --spines 0 --nics 1 >"$TMP/up.out"
'

test_expect_success 'hosts with the same rocectl pass the handshake' '
	rc verify -p "$POLICY" -i "$INV" --limit host >"$TMP/ok.out" 2>"$TMP/ok.err";
	test $? -le 2 && test_must_not_contain "$TMP/ok.err" "protocol"
'

test_expect_success 'an agent of another protocol is refused with both versions' '
	host_rocectl gpu002 "echo \"{\\\"schema\\\":\\\"rocectl.agent-state/v1\\\",\\\"protocol\\\":2,\\\"rocectl_version\\\":\\\"9.0.0\\\",\\\"interfaces\\\":[]}\"" &&
	test_expect_code 1 rc verify -p "$POLICY" -i "$INV" --limit host --details >"$TMP/v.out" 2>"$TMP/v.err" &&
	test_must_contain "$TMP/v.out" "gpu002.*the agent speaks protocol 2 \(rocectl 9\.0\.0\), this controller protocol 1 \(rocectl [0-9.]+\)" &&
	test_must_contain "$TMP/v.out" "gpu001"
'

test_expect_success 'an agent older than the handshake is refused too' '
	host_rocectl gpu002 "echo \"{\\\"schema\\\":\\\"rocectl.agent-state/v1\\\",\\\"interfaces\\\":[]}\"" &&
	test_expect_code 1 rc plan -p "$POLICY" -i "$INV" --limit host --details >"$TMP/p.out" 2>"$TMP/p.err" &&
	test_must_contain "$TMP/p.out" "gpu002.*protocol none \(rocectl unknown\)"
'

test_expect_success 'agent_command runs the rocectl it names instead of the PATH one' '
	. "$LAB/lab.env" &&
	host_rocectl gpu002 "echo broken >&2; exit 127" &&
	sed "/^  - name: gpu002$/a\\    agent_command: $RUN/bin/rocectl" "$INV" >"$TMP/inv-ac.yaml" &&
	grep -q "agent_command: $RUN/bin/rocectl" "$TMP/inv-ac.yaml" &&
	rc -v verify -p "$POLICY" -i "$TMP/inv-ac.yaml" --limit host >"$TMP/ac.out" 2>"$TMP/ac.err";
	test $? -le 2 &&
	test_must_contain "$TMP/ac.err" "^gpu002 ssh: $RUN/bin/rocectl agent state" &&
	test_must_not_contain "$TMP/ac.out" "error|not installed" &&
	test_expect_code 1 rc verify -p "$POLICY" -i "$INV" --limit gpu002 >"$TMP/path.out" 2>&1 &&
	test_must_contain "$TMP/path.out" "not installed"
'

test_expect_success 'an agent_command with shell syntax is refused by validate' '
	sed "/^  - name: gpu002$/a\\    agent_command: \"rocectl; reboot\"" "$INV" >"$TMP/inv-bad.yaml" &&
	test_expect_code 1 "$ROCECTL" validate -i "$TMP/inv-bad.yaml" 2>"$TMP/bad.err" &&
	test_must_contain "$TMP/bad.err" "agent_command: .rocectl; reboot. is not"
'

test_done
