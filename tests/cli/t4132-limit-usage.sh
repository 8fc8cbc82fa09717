#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# --limit (README.md "Common options"): a term that matches no device, or a list that leaves
# no device selected, is a usage error (exit 64) naming the term, on every command that
# takes --limit, before any device is opened (the inventory's addresses answer nothing).
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

POLICY="$SRC_DIR/policies/roce-lossless.yaml"
cat >"$TMP/inv.yaml" <<'EOI'
apiVersion: rocectl/v1
kind: Inventory
switches:
  - {name: leaf01, address: 192.0.2.1, platform: nvue, ports: [swp1]}
  - {name: leaf02, address: 192.0.2.2, platform: sonic, ports: [Ethernet0]}
EOI

# The arguments each command needs besides --limit; a command new to --limit fails here
# until it is added.
args_of() {
	case $1 in
	plan | apply | verify | enforce | diagnose) echo "-p $POLICY -i $TMP/inv.yaml" ;;
	counters | discover | export) echo "-i $TMP/inv.yaml" ;;
	capture) echo "-i $TMP/inv.yaml -o $TMP/capture" ;;
	*) return 1 ;;
	esac
}

test_expect_success 'the commands with --limit are known here' '
	"$ROCECTL" --help | awk "/^commands:/ { f = 1; next } f && NF { print \$1 }" \
		| grep -v "^exit$" >"$TMP/all" &&
	while read -r c; do
		"$ROCECTL" $c --help | grep -Eq "^ +--limit NAMES" && echo "$c"
	done <"$TMP/all" >"$TMP/cmds" &&
	test "$(wc -l <"$TMP/cmds")" -ge 8 &&
	while read -r c; do
		args_of "$c" >/dev/null || { echo "no arguments for $c" >&2; return 1; }
	done <"$TMP/cmds"
'

test_expect_success 'a term that matches no device exits 64 naming the term' '
	while read -r c; do
		test_expect_code 64 "$ROCECTL" $c $(args_of "$c") --limit "leaf01,leaf99" \
			>"$TMP/out" 2>"$TMP/err" &&
		test_must_contain "$TMP/err" "^rocectl $c: --limit: .leaf99. is neither a device" &&
		test_must_not_contain "$TMP/err" "192\.0\.2" || { echo "command: $c" >&2; return 1; }
	done <"$TMP/cmds"
'

test_expect_success 'a list that leaves nothing selected exits 64 naming the list' '
	while read -r c; do
		test_expect_code 64 "$ROCECTL" $c $(args_of "$c") --limit "!leaf*" \
			>"$TMP/out" 2>"$TMP/err" &&
		test_must_contain "$TMP/err" "^rocectl $c: --limit .!leaf\*. selects no device" ||
			{ echo "command: $c" >&2; return 1; }
	done <"$TMP/cmds"
'

test_expect_success 'a role with no device left is refused the same way' '
	test_expect_code 64 "$ROCECTL" verify -p "$POLICY" -i "$TMP/inv.yaml" --limit host \
		2>"$TMP/err" &&
	test_must_contain "$TMP/err" "^rocectl verify: --limit .host. selects no device"
'

test_done
