#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# make install: the man pages (groff-clean, and mandoc -Tlint-clean where mandoc exists), the
# completion, the wrapper pointing at the installed binary, the docs and the schemas.
. "$SRC_DIR/tests/lib/testlib.sh"

test_expect_success 'the man pages have no groff warning' '
	for m in "$SRC_DIR"/man/*.[58]; do
		groff -ww -z -man "$m" >"$TMP/groff" 2>&1 && test ! -s "$TMP/groff" ||
			{ echo "$m:"; cat "$TMP/groff"; return 1; }
	done
'

test_expect_success 'the man pages pass mandoc -Tlint (when mandoc is installed)' '
	if command -v mandoc >/dev/null; then
		mandoc -Tlint -Wwarning "$SRC_DIR"/man/*.[58]
	fi
'

test_expect_success 'make install puts every file in place' '
	make -s -C "$SRC_DIR" BUILD="$BUILD_DIR" install DESTDIR="$TMP/root" >"$TMP/log" 2>&1 ||
		{ cat "$TMP/log"; return 1; } &&
	r="$TMP/root/usr/local" &&
	for f in bin/rocectl lib/rocectl/rocectl-net.so lib/rocectl/rocectl-agent-wrapper \
		share/man/man8/rocectl.8 share/man/man5/rocectl-policy.5 \
		share/man/man5/rocectl-inventory.5 share/bash-completion/completions/rocectl \
		share/rocectl/policies/roce-lossless.yaml share/doc/rocectl/DEPLOY.md \
		share/doc/rocectl/examples/report.schema.json; do
		test -s "$r/$f" || { echo "missing $f"; return 1; }
	done &&
	test_must_contain "$r/lib/rocectl/rocectl-agent-wrapper" "^ROCECTL_BIN=\\\$\{ROCECTL_BIN:-/usr/local/bin/rocectl\}$" &&
	test -x "$r/lib/rocectl/rocectl-agent-wrapper"
'

test_expect_success 'every document the README links is installed at the same relative path' '
	r="$TMP/root/usr/local/share/doc/rocectl" &&
	grep -o "](\(docs/[^)#]*\|LICENSE\)" "$SRC_DIR/README.md" | sed "s/^](//" | sort -u >"$TMP/links" &&
	test -s "$TMP/links" &&
	while read -r f; do
		test -s "$r/$f" || { echo "README links $f: not installed"; exit 1; }
	done <"$TMP/links"
'

test_done
