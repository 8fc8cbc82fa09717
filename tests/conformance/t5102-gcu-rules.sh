#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The SONiC simulator's GCU gate decides as GCU's own code does: the kit's real
# field_operation_validators.py and newest rules file, run over jsonpatch's diff of running
# and target as gu_common.py does, against `config apply-patch --dry-run` on the simulator
# (its binaries, no sshd) for every kit HWSKU on 202511.  No lab, no root.
. "$SRC_DIR/tests/lib/testlib.sh"

test_expect_success 'the simulator refuses exactly what GCU'\''s validators refuse' '
	test -n "$CONFORMANCE_DIR" &&
	python3 "$SRC_DIR/tests/conformance/gcu_rules.py" "$CONFORMANCE_DIR" "$BUILD_DIR" \
		>"$TMP/out" 2>&1 ||
		{ sed "s/^/# /" "$TMP/out"; false; } &&
	test_must_contain "$TMP/out" "^# 85 patches, 18 refused by GCU.s code, 0 disagreements$"
'
test_done
