#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The reference documentation is in the repository and reachable (issue "Done when": the
# docs exist and the README links them): README.md links every docs/*.md page; every
# relative link in README.md and docs/ leads to a file that exists; every docs/… path a
# source comment, a script or a document cites exists.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

cd "$SRC_DIR" || exit 1

test_expect_success 'README.md links POLICY, INVENTORY, DEPLOY and every other page of docs/' '
	for d in docs/*.md; do
		grep -q "](\(\./\)\?$d\(#[^)]*\)\?)" README.md || { echo "README.md does not link $d" >&2; return 1; }
	done
'

test_expect_success 'every relative link in README.md and docs/ leads to a file' '
	for f in README.md docs/*.md docs/platforms/*.md; do
		dir=$(dirname "$f")
		grep -o "\](\([^)#:]*\)\(#[^)]*\)\?)" "$f" | sed "s/^](//; s/)$//; s/#.*//" |
			while read -r t; do
				[ -n "$t" ] || continue
				[ -e "$dir/$t" ] || { echo "$f: broken link $t" >&2; exit 1; }
			done || return 1
	done
'

test_expect_success 'every docs/ path cited in sources, tests, dist files and docs exists' '
	{ git ls-files 2>/dev/null || find . -type f ! -path "./build/*" | sed "s|^\./||"; } |
		grep -Ev "^tests/data/|\.(json|yang)$" |
		xargs grep -ohE "docs/[A-Za-z0-9_/.-]+\.md" 2>/dev/null | sort -u >"$TMP/cited" &&
	test -s "$TMP/cited" &&
	while read -r d; do
		[ -e "$d" ] || { echo "cited but missing: $d" >&2; exit 1; }
	done <"$TMP/cited"
'

test_expect_success 'a broken link is found (the check can fail)' '
	mkdir -p "$TMP/d" && printf "see [x](nope.md)\n" >"$TMP/d/a.md" &&
	! { grep -o "\](\([^)#:]*\)\(#[^)]*\)\?)" "$TMP/d/a.md" | sed "s/^](//; s/)$//; s/#.*//" |
		while read -r t; do [ -e "$TMP/d/$t" ] || exit 1; done; }
'

test_done
