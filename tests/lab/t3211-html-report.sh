#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# verify --format html on the lab, opened in Debian's headless Chromium: the page's script
# must draw every device of the inventory with the state verify's JSON gives it for the same
# fabric, with no network at all (its own network namespace, a proxy that refuses, names
# that do not resolve) and without asking for anything outside the file (Chromium's net log
# is the witness).  The screenshot is kept in $BUILD_DIR/test-artifacts/ to be looked at.
# chromium is in DEB_PACKAGES (tests/lab/lab.mk): a missing browser fails, it does not skip.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
LAB="$TMP/lab"
INV="$LAB/inventory.yaml"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
ROCECTL_JOURNAL="$TMP/journal"
ROCECTL_LOCK_DIR="$TMP/locks"
ARTIFACTS="$BUILD_DIR/test-artifacts/t3211-html-report"
export BUILD_DIR ROCECTL ROCECTL_JOURNAL ROCECTL_LOCK_DIR

test_needs root

test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}

# Chromium with nothing to reach: no network namespace of its own, a refusing proxy, and
# every name unresolvable; its net log records every request it would have made.
browse() {
	tag=$1
	shift
	timeout 40 unshare -n chromium --headless --no-sandbox --disable-gpu \
		--user-data-dir="$TMP/chrome" --proxy-server=127.0.0.1:9 \
		--host-resolver-rules="MAP * ~NOTFOUND" --no-first-run --disable-extensions \
		--disable-background-networking --disable-component-update --disable-sync \
		--log-net-log="$TMP/net-$tag.json" "$@" 2>>"$TMP/chrome.log"
}

# (device, state) of every device chip the script drew, sorted
drawn() {
	python3 -c '
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.cur = None; s.out = []
    def handle_starttag(s, tag, a):
        a = dict(a)
        if tag == "span" and "dev" in (a.get("class") or "").split() and "data-i" in a:
            s.cur = [a.get("data-state"), ""]
    def handle_data(s, d):
        if s.cur is not None: s.cur[1] += d
    def handle_endtag(s, tag):
        if s.cur is not None and tag == "span":
            s.out.append("%s %s" % (s.cur[1], s.cur[0])); s.cur = None
p = P(); p.feed(open(sys.argv[1]).read())
print("\n".join(sorted(p.out)))' "$1"
}

test_expect_success 'chromium is installed' '
	command -v chromium >/dev/null
'

test_expect_success 'a lab in sync, then one device drifted' '
	"$LAB_CMD" up "$LAB" --hosts 4 --leaves 2 --spines 1 >/dev/null &&
	rc apply -p "$POLICY" -i "$INV" >/dev/null &&
	"$LAB_CMD" drift "$LAB" 7 1 >/dev/null &&
	test "$(jq length "$LAB/drift.json")" = 1
'

test_expect_success 'verify --format html -o FILE and --format json on the same fabric' '
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --format json >"$TMP/v.json" &&
	test_expect_code 2 rc verify -p "$POLICY" -i "$INV" --format html -o "$TMP/report.html" &&
	test -s "$TMP/report.html" &&
	mkdir -p "$ARTIFACTS" && cp "$TMP/report.html" "$ARTIFACTS/"
'

test_expect_success 'the file names nothing outside itself' '
	! grep -Eiq "https?:|//|<link|@import|url\(|src=\"" "$TMP/report.html" &&
	grep -q "default-src '"'"'none'"'"'" "$TMP/report.html"
'

test_expect_success 'chromium draws every device of the inventory with verify'"'"'s verdict' '
	browse dom --dump-dom "file://$TMP/report.html" >"$TMP/dom.html" &&
	grep -q "data-rendered=\"" "$TMP/dom.html" &&
	drawn "$TMP/dom.html" >"$TMP/drawn" &&
	cp "$TMP/dom.html" "$ARTIFACTS/" &&
	jq -r "(.hosts // []) as \$h | .devices[] | .device as \$d |
		[\$d, (if .status == \"error\" then \"unreachable\"
			elif .status == \"drift\" or any(\$h[]; .host == \$d and .status == \"mismatch\")
			then \"drift\" else \"sync\" end)] | @tsv" "$TMP/v.json" | tr "\t" " " | sort >"$TMP/want" &&
	test "$(wc -l <"$TMP/want")" = "$(awk "\$1 == \"switch\" || \$1 == \"host\"" "$LAB/topology" | wc -l)" &&
	diff -u "$TMP/want" "$TMP/drawn" &&
	d=$(jq -r ".[0].device" "$LAB/drift.json") &&
	grep -qx "$d drift" "$TMP/drawn" &&
	grep -c " sync$" "$TMP/drawn" | grep -qv "^0$"
'

# "A B status" of every leaf-spine link, device names sorted, ok for both sync and drift (a
# link whose ends agree but one of them drifted is drawn as drift)
test_expect_success 'the leaf-spine links are drawn, coloured by verify'"'"'s link checks' '
	grep -o "<line [^>]*>" "$TMP/dom.html" |
		sed -n "s/.*data-a=\"\([^\"]*\)\" data-b=\"\([^\"]*\)\" data-state=\"\([^\"]*\)\".*/\1 \2 \3/p" |
		awk "{ s = \$3 == \"sync\" || \$3 == \"drift\" ? \"ok\" : \$3
			print (\$1 < \$2 ? \$1 \" \" \$2 : \$2 \" \" \$1), s }" | sort >"$TMP/lines.got" &&
	jq -r ".links[] | [(.a | split(\":\")[0]), (.b | split(\":\")[0])] as \$p |
		select(any(\$p[]; test(\"^spine\"))) | (\$p | sort | join(\" \")) + \" \" + .status" \
		"$TMP/v.json" | sort >"$TMP/lines.want" &&
	test "$(wc -l <"$TMP/lines.want")" = 2 &&
	diff -u "$TMP/lines.want" "$TMP/lines.got" &&
	grep -q " mismatch$" "$TMP/lines.got"
'

# The URLs a net log saw requested, but for Chromium's own background calls (its network
# time and component update endpoints, made whatever page is open).
requested() {
	grep -Eo "\"url\": *\"[a-z-]+:[^\"]*\"" "$1" | sed "s/^\"url\": *\"//; s/\"$//" |
		grep -v -e "^file:" -e "^https\{0,1\}://clients2\.google\.com/time/" \
			-e "^https\{0,1\}://update\.googleapis\.com/service/update2/" | sort -u
}

test_expect_success 'no request left the file' '
	test -s "$TMP/net-dom.json" &&
	requested "$TMP/net-dom.json" >"$TMP/requested" &&
	{ ! test -s "$TMP/requested" || { cat "$TMP/requested"; false; }; }
'

test_expect_success 'the net log does see a page that asks for something (the witness works)' '
	printf "<html><body><img src=\"http://canary.invalid/x.png\"></body></html>\n" \
		>"$TMP/control.html" &&
	browse control --dump-dom "file://$TMP/control.html" >/dev/null &&
	requested "$TMP/net-control.json" | grep -q "^http://canary\.invalid/x\.png$"
'

test_expect_success 'the drifted device'"'"'s detail lists its drifted fields, have and want' '
	d=$(jq -r ".[0].device" "$LAB/drift.json") &&
	browse detail --dump-dom "file://$TMP/report.html#dev=$d" >"$TMP/detail.html" &&
	sed -n "s/.*<div id=\"detail\"[^>]*>\(.*\)/\1/p" "$TMP/detail.html" >"$TMP/detail.txt" &&
	grep -q "<h2>$d</h2>" "$TMP/detail.txt" &&
	jq -r --arg d "$d" ".devices[] | select(.device == \$d) | .changes[] |
		select(.kind == \"set\") | \"<td>\" + .port + \"</td><td>\" + .field + \"</td><td>\" +
		.old + \"</td><td>\" + .new + \"</td>\"" \
		"$TMP/v.json" >"$TMP/detail.want" &&
	test -s "$TMP/detail.want" &&
	while read -r cells; do grep -qF "$cells" "$TMP/detail.txt" || exit 1; done <"$TMP/detail.want"
'

test_expect_success 'a screenshot, with the drifted device'"'"'s detail open, kept with the test artifacts' '
	d=$(jq -r ".[0].device" "$LAB/drift.json") &&
	browse shot --hide-scrollbars --window-size=1400,1000 \
		--screenshot="$TMP/report.png" "file://$TMP/report.html#dev=$d" >/dev/null &&
	test -s "$TMP/report.png" &&
	cp "$TMP/report.png" "$ARTIFACTS/report.png"
'

# The page's script at fleet size: the lab's page with its data replaced by 8 spines, 64
# leaves and 2,128 hosts in two pods (half the leaves on half the spines), some drifted or
# unreachable, 4 of the 256 leaf-spine links mismatched (the printer's own size and time at
# that size are tests/unit/test_report_html.c's).
test_expect_success 'chromium draws 2,200 devices in two pods in under two seconds, the bad links only' '
	python3 - "$TMP/report.html" "$TMP/big.html" <<-\EOF &&
	import json, re, sys
	page = open(sys.argv[1]).read()
	S, L, H = 8, 64, 2128
	d = [["spine%02d" % (i + 1), 2, "sync", ""] for i in range(S)]
	d += [["leaf%03d" % (i + 1), 1, "drift" if i % 10 == 0 else "sync", ""] for i in range(L)]
	d += [["gpu%04d" % (i + 1), 0, "unreachable" if i % 97 == 0 else "sync", ""] for i in range(H)]
	links = [[S + l, s, "mismatch" if (s * L + l) % 100 == 0 else "sync", "swp%d" % (49 + s),
		"swp%d" % (l + 1)] for s in range(S) for l in range(L) if (s < S // 2) == (l < L // 2)]
	links += [[S + L + h, S + h % L, "sync", "eth0", "swp%d" % (h // L + 1)] for h in range(H)]
	x = [[S + i, "swp1", "pfc_enabled", "none", "3"] for i in range(0, L, 10)]
	data = {"kind": "verify", "when": 1700000000, "d": d, "x": x, "l": links,
		"f": [["pfc_enabled", len(x), len(x)]]}
	js = json.dumps(data).replace("<", "\\u003c").replace("/", "\\/")
	big = re.sub(r"(<script type=\"application/json\" id=\"data\">).*?(</script>)",
		lambda m: m.group(1) + js + m.group(2), page, count=1, flags=re.S)
	open(sys.argv[2], "w").write(big)
	EOF
	browse big --dump-dom "file://$TMP/big.html" >"$TMP/big-dom.html" &&
	test "$(drawn "$TMP/big-dom.html" | wc -l)" = 2200 &&
	test "$(drawn "$TMP/big-dom.html" | grep -c " unreachable$")" = 22 &&
	test "$(grep -o "<line [^>]*data-state=\"mismatch\"" "$TMP/big-dom.html" | wc -l)" = 4 &&
	test "$(grep -o "<line " "$TMP/big-dom.html" | wc -l)" = 4 &&
	grep -q "252 switch links in a good state are not drawn" "$TMP/big-dom.html" &&
	grep -o "<div class=\"pod\"[^>]*><div class=\"podname\">[^<]*" "$TMP/big-dom.html" |
		sed "s/.*>//" >"$TMP/pods" &&
	printf "%s\n" "pod 1: spine01, spine02, spine03, spine04" \
		"pod 2: spine05, spine06, spine07, spine08" | diff -u - "$TMP/pods" &&
	ms=$(sed -n "s/.*data-ms=\"\([0-9]*\)\".*/\1/p" "$TMP/big-dom.html") &&
	echo "rendered in $ms ms" && test "$ms" -lt 2000 &&
	browse bigshot --hide-scrollbars --window-size=1400,1000 \
		--screenshot="$ARTIFACTS/fleet-2200.png" "file://$TMP/big.html" >/dev/null
'

# diagnose on a quiet lab: every device on a path is clean (the worst role of its hops in the
# JSON of another window), and the page draws the same.
test_expect_success 'diagnose --format html: every device drawn with its worst role on a path' '
	rc diagnose -p "$POLICY" -i "$INV" --interval 200ms --format json >"$TMP/d.json";
	rc diagnose -p "$POLICY" -i "$INV" --interval 200ms --format html >"$TMP/diag.html";
	test -s "$TMP/diag.html" &&
	cp "$TMP/diag.html" "$ARTIFACTS/" &&
	! grep -Eiq "https?:|//" "$TMP/diag.html" &&
	browse diag --dump-dom "file://$TMP/diag.html" >"$TMP/diag-dom.html" &&
	drawn "$TMP/diag-dom.html" >"$TMP/diag.drawn" &&
	jq -r "[.paths[].hops[] | [.device, .role]] | group_by(.[0])[] |
		[.[0][0], (map(.[1]) | if index(\"root\") then \"root\" elif index(\"storm\") then \"storm\"
			elif index(\"relay\") then \"relay\" elif index(\"unknown\") then \"unknown\"
			else \"clean\" end)] | join(\" \")" "$TMP/d.json" | sort >"$TMP/diag.want" &&
	test -s "$TMP/diag.want" &&
	grep -v " idle$" "$TMP/diag.drawn" | diff -u "$TMP/diag.want" - &&
	test "$(wc -l <"$TMP/diag.drawn")" = "$(awk "\$1 == \"switch\" || \$1 == \"host\"" "$LAB/topology" | wc -l)"
'

test_done
