#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every source file of the tree says its license in its first lines (SPDX, the project's
# Apache-2.0 as LICENSE and debian/copyright say): C and headers, shell, Python, make
# files and the extensionless scripts.  Data (YAML, JSON, expected outputs) is left out.
# No lab, no root.
. "$SRC_DIR/tests/lib/testlib.sh"

sources() {
	git -C "$SRC_DIR" ls-files | grep -E '\.(c|h|sh|py|mk)$|^(Makefile|scripts/check-layers|tests/lab/lab|tests/lab/host-shell|tests/vm/vm|tests/vm/init|tests/sim/switch/simctl|tests/sim/nic/nicsim|dist/completion/rocectl|dist/ssh/rocectl-agent-wrapper|debian/rules|\.ci/run)$'
}

test_expect_success 'the tree is a git checkout with its sources listed' '
	sources >"$TMP/files" && test "$(wc -l <"$TMP/files")" -gt 400
'

test_expect_success 'every source file carries SPDX-License-Identifier: Apache-2.0 in its first three lines' '
	while read -r f; do
		[ -e "$SRC_DIR/$f" ] || continue
		head -3 "$SRC_DIR/$f" | grep -q "SPDX-License-Identifier: Apache-2.0" || echo "$f"
	done <"$TMP/files" >"$TMP/missing" &&
	{ test ! -s "$TMP/missing" || { echo "no SPDX line:"; cat "$TMP/missing"; false; }; }
'

test_expect_success 'LICENSE and debian/copyright say the same license' '
	head -3 "$SRC_DIR/LICENSE" | grep -q "Apache License" &&
	grep -q "^License: Apache-2.0$" "$SRC_DIR/debian/copyright"
'

test_done
