#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every real output in the conformance kit is replayed through rocectl offline, fed to the
# driver's parser of the command it answers, or listed with the reason rocectl never reads
# it from a device (tests/conformance/kit-coverage.txt says which): a kit file missing from
# the list, a line naming a file the kit does not have, an unknown kind, a "replayed" or
# "parsed" line whose test does not name the file (or a replay test without --snapshot)
# fail.  Prints the counts.  No lab, no root.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LIST="$SRC_DIR/tests/conformance/kit-coverage.txt"
CONF="$SRC_DIR/tests/conformance"

# check_coverage KIT_DIR LIST: the problems on stdout, one a line; the counts on stderr.
check_coverage() {
	(cd "$1" && find . -type f | sed "s|^\./||" | LC_ALL=C sort) >"$TMP/kit.files" &&
		grep -v "^#" "$2" | grep -v "^$" >"$TMP/list.lines" &&
		awk -F " [|] " "{ print \$1 }" "$TMP/list.lines" | LC_ALL=C sort >"$TMP/list.files" ||
		return 2
	LC_ALL=C comm -23 "$TMP/kit.files" "$TMP/list.files" | sed "s/^/not listed: /"
	LC_ALL=C comm -13 "$TMP/kit.files" "$TMP/list.files" | sed "s/^/not in the kit: /"
	LC_ALL=C uniq -d "$TMP/list.files" | sed "s/^/listed twice: /"
	while IFS= read -r line; do
		path=${line%% | *}
		rest=${line#* | }
		kind=${rest%% | *}
		why=${rest#* | }
		test=${why%% *}
		case "$kind" in
		replayed | parsed)
			if [ ! -f "$CONF/$test" ]; then
				echo "$path: $kind by '$test', not a test in tests/conformance/"
			elif ! grep -qF -- "${path##*/}" "$CONF/$test"; then
				echo "$path: $kind by $test, which does not name it"
			elif [ "$kind" = replayed ] && ! grep -q -- "--snapshot" "$CONF/$test"; then
				echo "$path: replayed by $test, which runs no --snapshot"
			fi
			;;
		not-a-command)
			[ "${#why}" -ge 20 ] || echo "$path: not-a-command without a reason"
			;;
		*) echo "$path: unknown kind '$kind'" ;;
		esac
	done <"$TMP/list.lines"
	awk -F " [|] " '{ n[$2]++ } END {
		printf "%d kit files: %d replayed, %d parsed, %d not a rocectl command\n",
			NR, n["replayed"], n["parsed"], n["not-a-command"] }' "$TMP/list.lines" >&2
}

if [ -n "$CONFORMANCE_DIR" ] && [ -f "$CONFORMANCE_DIR/README.md" ]; then
	check_coverage "$CONFORMANCE_DIR" "$LIST" >"$TMP/problems" 2>"$TMP/counts"
fi
COUNTS=$(cat "$TMP/counts" 2>/dev/null)

test_expect_success "every kit file is replayed, parsed or no rocectl command: ${COUNTS:-no counts}" '
	test -n "$COUNTS" && test -f "$TMP/problems" &&
	{ ! test -s "$TMP/problems" || { sed "s/^/# /" "$TMP/problems"; false; }; }
'

test_expect_success 'the check fails on an unlisted file, a stale line and a false claim' '
	cp -r "$CONFORMANCE_DIR" "$TMP/kit" && chmod -R u+w "$TMP/kit" &&
	echo "{}" >"$TMP/kit/eos/napalm/show_new.json" &&
	rm "$TMP/kit/sonic/outputs/pfcwd_show_stats.txt" &&
	sed "s#^sonic/outputs/show_pfc_priority.txt | not-a-command | .*#sonic/outputs/show_pfc_priority.txt | parsed | test_conf_host.c#" \
		"$LIST" >"$TMP/list" &&
	check_coverage "$TMP/kit" "$TMP/list" >"$TMP/p2" 2>/dev/null &&
	test_must_contain "$TMP/p2" "^not listed: eos/napalm/show_new.json$" &&
	test_must_contain "$TMP/p2" "^not in the kit: sonic/outputs/pfcwd_show_stats.txt$" &&
	test_must_contain "$TMP/p2" \
		"^sonic/outputs/show_pfc_priority.txt: parsed by test_conf_host.c, which does not name it$" &&
	test "$(wc -l <"$TMP/p2")" -eq 3
'
test_done
