#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every YAML example in docs/POLICY.md and docs/INVENTORY.md is a complete file that
# `rocectl validate` accepts: the reference documentation cannot drift from the parser.
. "$SRC_DIR/tests/lib/testlib.sh"

# extract DOC PREFIX: each ```yaml block of DOC into $TMP/PREFIX<N>.yaml; prints N
extract() {
	awk -v d="$TMP" -v p="$2" '/^```yaml$/ { n++; f = sprintf("%s/%s%d.yaml", d, p, n); next }
		/^```$/ { f = "" } f { print > f } END { print n + 0 }' "$1"
}

test_expect_success 'docs/POLICY.md has the four worked examples, each valid' '
	n=$(extract "$SRC_DIR/docs/POLICY.md" policy) && test "$n" -ge 4 &&
	for name in roce-lossless pfc-only deep-buffer-spine mixed-vendors; do
		grep -l "^name: $name$" "$TMP"/policy*.yaml >/dev/null || return 1
	done &&
	for f in "$TMP"/policy*.yaml; do
		"$ROCECTL" validate -p "$f" >/dev/null 2>"$TMP/err" || { cat "$TMP/err"; return 1; }
	done
'

test_expect_success 'docs/INVENTORY.md examples are valid with the shipped policy' '
	n=$(extract "$SRC_DIR/docs/INVENTORY.md" inv) && test "$n" -ge 2 &&
	for f in "$TMP"/inv*.yaml; do
		"$ROCECTL" validate -p "$SRC_DIR/policies/roce-lossless.yaml" -i "$f" \
			>/dev/null 2>"$TMP/err" || { cat "$TMP/err"; return 1; }
	done
'

test_expect_success 'an example broken on purpose is refused (the test can fail)' '
	sed "s/dscp: 26/dscp: 99/" "$TMP/policy1.yaml" >"$TMP/broken.yaml" &&
	test_expect_code 1 "$ROCECTL" validate -p "$TMP/broken.yaml" 2>/dev/null
'

test_expect_success 'every key the policy parser knows is documented in docs/POLICY.md' '
	for k in apiVersion kind name trust roce cnp pfc ecn headroom ets host tolerance \
		priority_to_tc priorities watchdog detection restoration action enabled \
		traffic_class min_threshold max_threshold probability notification_point \
		reaction_point cable_length mtu size mode bandwidth roce_tos threshold; do
		grep -q "\`[][a-z_.]*$k[][a-z_.]*\`" "$SRC_DIR/docs/POLICY.md" ||
			{ echo "undocumented: $k"; return 1; }
	done
'

test_expect_success 'every key the inventory parser knows is documented in docs/INVENTORY.md' '
	keys=$(sed -n "s/^static const char \*const [a-z_]*_keys\[\] = {\(.*\)/\1/p; s/^[[:space:]]*\(\"[a-z_]*\",.*\)/\1/p" \
		"$SRC_DIR/engine/config/inventory.c" "$SRC_DIR/engine/config/yaml_device.c" |
		tr -c "a-zA-Z_\n" " " | tr " " "\n" | grep -v "^NULL$" | sort -u) &&
	test "$(echo "$keys" | wc -l)" -ge 40 &&
	for k in $keys; do
		grep -q "\`[][a-z_.]*$k[][a-z_.]*\`" "$SRC_DIR/docs/INVENTORY.md" ||
			{ echo "undocumented: $k"; return 1; }
	done
'

test_done
