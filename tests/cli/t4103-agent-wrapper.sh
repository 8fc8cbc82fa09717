#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# dist/ssh/rocectl-agent-wrapper, the forced command of the controller's key on a node
# (docs/DEPLOY.md): what the agent-ssh driver sends reaches the real rocectl against a
# simulated NIC; everything else is refused with exit 64 before anything runs.
. "$SRC_DIR/tests/lib/testlib.sh"

NICSIM="$SRC_DIR/tests/sim/nic/nicsim"
W="$SRC_DIR/dist/ssh/rocectl-agent-wrapper"
"$NICSIM" init "$TMP/h" --nic eth0,rdma=mlx5_0 --nic eth1,rdma=mlx5_1 >/dev/null

# as sshd runs it: the request in SSH_ORIGINAL_COMMAND, the wrapper's own rocectl
wrap() {
	"$NICSIM" run "$TMP/h" -- env SSH_ORIGINAL_COMMAND="$1" ROCECTL_BIN="$ROCECTL" sh "$W"
}

# a rocectl that only records that it ran: a refused command must not reach any binary
cat >"$TMP/spy" <<EOS
#!/bin/sh
echo "\$*" >>"$TMP/ran"
EOS
chmod +x "$TMP/spy"
refused() {
	env SSH_ORIGINAL_COMMAND="$1" ROCECTL_BIN="$TMP/spy" sh "$W" </dev/null >"$TMP/out" 2>"$TMP/err"
	st=$?
	test "$st" -eq 64 || { echo "exit $st for: $1" >&2; return 1; }
	test_must_contain "$TMP/err" "^rocectl-agent-wrapper: refused: " && test ! -e "$TMP/ran"
}

test_expect_success 'agent state, with and without interfaces, answers from the NIC' '
	wrap "rocectl agent state" >"$TMP/s1" &&
	test_must_contain "$TMP/s1" "\"schema\":\"rocectl.agent-state/v1\"" &&
	test_must_contain "$TMP/s1" "\"protocol\":1[,}]" &&
	test_must_contain "$TMP/s1" "^\{\"schema_version\":1,\"rocectl_version\":\"[0-9.]+\",\"timestamp\":" &&
	test_must_contain "$TMP/s1" "\"interface\":\"eth0\".*\"interface\":\"eth1\"" &&
	wrap "/usr/bin/rocectl agent state --interface eth1 --only dcb,rdma" >"$TMP/s2" &&
	test_must_not_contain "$TMP/s2" "\"interface\":\"eth0\""
'

test_expect_success 'agent state --raw (rocectl capture) answers with what the read used' '
	wrap "rocectl agent state --raw --interface eth0" >"$TMP/s3" &&
	test_must_contain "$TMP/s3" "\"raw\":\{\"netlink\":\[\{.*\"files\":\[\{\"path\":\"sys/" &&
	refused "rocectl agent write --raw" &&
	refused "rocectl agent counters --raw"
'

test_expect_success 'agent state --counters (verify --counters) answers both in one' '
	wrap "rocectl agent state --counters --interface eth0" >"$TMP/sc" &&
	jq -e ".interfaces[0].qos and .counters.interfaces[0].interface == \"eth0\" and
		(.counters.interfaces[0].counters | length > 0)" "$TMP/sc" >/dev/null &&
	refused "rocectl agent counters --counters" &&
	refused "rocectl agent write --counters"
'

test_expect_success 'agent counters --json answers' '
	wrap "rocectl agent counters --json --interface eth0" >"$TMP/c" &&
	test_must_contain "$TMP/c" "\"command\":\"counters\""
'

test_expect_success 'agent write reads its JSON from stdin' '
	echo "{\"writes\":[]}" | wrap "rocectl agent write" >"$TMP/w" &&
	test_must_contain "$TMP/w" "\"schema\":\"rocectl.agent-write/v1\"" &&
	test_must_contain "$TMP/w" "\"protocol\":1[,}]" &&
	test_must_contain "$TMP/w" "^\{\"schema_version\":1,\"rocectl_version\":\"[0-9.]+\",\"timestamp\":"
'

# a sudo that prints what it would run
mkdir -p "$TMP/bin"
printf '#!/bin/sh\necho sudo "$@"\n' >"$TMP/bin/sudo"
chmod +x "$TMP/bin/sudo"

test_expect_success 'sudo -n is kept when asked for, and only as sudo -n' '
	env SSH_ORIGINAL_COMMAND="sudo -n rocectl agent state" ROCECTL_BIN="$TMP/spy" \
		PATH="$TMP/bin:$PATH" sh "$W" >"$TMP/sudo.out" &&
	test_must_contain "$TMP/sudo.out" "^sudo -n $TMP/spy agent state$" &&
	env SSH_ORIGINAL_COMMAND="rocectl agent counters -j" ROCECTL_BIN="$TMP/spy" \
		PATH="$TMP/bin:$PATH" sh "$W" --sudo >"$TMP/sudo2.out" &&
	test_must_contain "$TMP/sudo2.out" "^sudo -n $TMP/spy agent counters --json$" &&
	test_expect_code 64 env SSH_ORIGINAL_COMMAND="rocectl agent state" sh "$W" --root 2>/dev/null &&
	refused "sudo rocectl agent state" &&
	refused "sudo -u root rocectl agent state"
'

test_expect_success 'other commands, subcommands and options are refused, nothing runs' '
	refused "" &&
	refused "sh" &&
	refused "rocectl plan -p x -i y" &&
	refused "rocectl agent apply -p /etc/rocectl/policy.yaml" &&
	refused "rocectl agent show" &&
	refused "rocectl agent" &&
	refused "rocectl --root /tmp agent state" &&
	refused "rocectl agent state --root /tmp" &&
	refused "rocectl agent write --journal /tmp" &&
	refused "rocectl agent write --interface eth0" &&
	refused "rocectl agent counters --only dcb" &&
	refused "rocectl agent state --json" &&
	refused "rocectl agent state --interface" &&
	refused "rocectl agent state --only dcb,foo" &&
	refused "rocectl agent state --only dcb," &&
	refused "/tmp/evil/rocectlx agent state" &&
	refused "evil agent state"
'

test_expect_success 'shell syntax and hostile names are refused' '
	refused "rocectl agent state; reboot" &&
	refused "rocectl agent state && id" &&
	refused "rocectl agent state | nc x 1" &&
	refused "rocectl agent state --interface \$(id)" &&
	refused "rocectl agent state --interface \`id\`" &&
	refused "rocectl agent state --interface eth0 > /etc/passwd" &&
	refused "rocectl agent state --interface *" &&
	refused "rocectl agent state --interface ../../etc" &&
	refused "rocectl agent state --interface -x" &&
	refused "rocectl agent state --interface abcdefghijklmnop" &&
	refused "rocectl agent state
id" &&
	refused "$(printf "rocectl agent state\tid")" &&
	refused "rocectl agent state $(printf "%01100d" 0)"
'

test_done
