#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# What `rocectl capture` writes stays under -o DIR and is private: a device name that is not
# one safe path component is refused when the inventory is loaded (file:line:col, nothing
# written), an existing device directory or a symlink in its place is not followed or
# reused, and the directories and files are 0700 and 0600 whatever the umask.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

NICSIM="$SRC_DIR/tests/sim/nic/nicsim"
"$NICSIM" init "$TMP/nic" --ofed --nic eth0,rdma=mlx5_0 >/dev/null

# inventory NAME: one local host called NAME (as YAML, quoted)
inventory() {
	printf 'apiVersion: rocectl/v1\nkind: Inventory\nhosts:\n  - name: %s\n    transport: local\n    interfaces: [eth0]\n' \
		"$1" >"$TMP/inventory.yaml"
}

capture() {
	"$NICSIM" run "$TMP/nic" -- "$ROCECTL" capture -i "$TMP/inventory.yaml" -o "$1"
}

test_expect_success 'a device name that climbs out of -o DIR is refused at load, nothing written' '
	mkdir -p "$TMP/o" &&
	inventory "\"x/../../../esc\"" &&
	test_expect_code 1 capture "$TMP/o/a/b" >"$TMP/out" 2>&1 &&
	test_must_contain "$TMP/out" "inventory.yaml:4:[0-9]+: .*name: .x/\.\./\.\./\.\./esc. is not a safe name" &&
	test ! -e "$TMP/o/esc" && test ! -e "$TMP/o/a" &&
	inventory "\"x/../../../../tmp/p\"" &&
	test_expect_code 1 "$ROCECTL" validate -i "$TMP/inventory.yaml" >"$TMP/out" 2>&1 &&
	test_must_contain "$TMP/out" "inventory.yaml:4:[0-9]+: .*is not a safe name"
'

test_expect_success 'slashes, "..", a leading dot or dash and control characters are refused' '
	for n in "\"rack1/leaf01\"" "\"a..b\"" "\".hidden\"" "\"-x\"" "\"a\\x01b\"" "\"a b\""; do
		inventory "$n" &&
		test_expect_code 1 "$ROCECTL" validate -i "$TMP/inventory.yaml" >"$TMP/out" 2>&1 &&
		grep -q "inventory.yaml:4:" "$TMP/out" || { echo "accepted: $n"; cat "$TMP/out"; exit 1; }
	done
'

test_expect_success 'names with letters, digits, dots, underscores and dashes still load' '
	inventory "gpu-01.rack_2" &&
	"$ROCECTL" validate -i "$TMP/inventory.yaml" >"$TMP/out" 2>&1
'

test_expect_success 'under umask 022 the directories are 0700 and the files 0600' '
	(umask 022 && capture "$TMP/perm/deep") >"$TMP/out" 2>&1 &&
	test "$(stat -c %a "$TMP/perm")" = 700 &&
	test "$(stat -c %a "$TMP/perm/deep")" = 700 &&
	test "$(stat -c %a "$TMP/perm/deep/gpu-01.rack_2")" = 700 &&
	f=$(ls "$TMP/perm/deep/gpu-01.rack_2/"*.txt) && test -s "$f" &&
	test "$(stat -c %a "$f")" = 600
'

test_expect_success 'an existing output directory keeps its mode' '
	mkdir -m 755 "$TMP/shared" &&
	capture "$TMP/shared" >/dev/null 2>&1 &&
	test "$(stat -c %a "$TMP/shared")" = 755
'

test_expect_success 'a device directory that exists, or a symlink in its place, is not used' '
	test_expect_code 1 capture "$TMP/perm/deep" >"$TMP/out" 2>&1 &&
	test_must_contain "$TMP/out" "exists.*capture into a new directory" &&
	mkdir -p "$TMP/link" "$TMP/elsewhere" &&
	ln -s "$TMP/elsewhere" "$TMP/link/gpu-01.rack_2" &&
	test_expect_code 1 capture "$TMP/link" >"$TMP/out" 2>&1 &&
	test -z "$(ls "$TMP/elsewhere")"
'

test_done
