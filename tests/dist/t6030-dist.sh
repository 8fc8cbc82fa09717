#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The shipped operations files (dist/), each checked by the tool made for it: the systemd
# units by systemd-analyze verify, the alert rules by promtool check rules and their unit
# tests by promtool test rules; and what the units promise (guardrails on, hardening)
# is what they say.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

DIST="$SRC_DIR/dist"

test_expect_success 'systemd-analyze verify --man=yes: every unit, with the ExecStart binary and man pages of this build' '
	command -v systemd-analyze >/dev/null || { echo "systemd-analyze missing: make deps"; exit 1; } &&
	mkdir "$TMP/units" &&
	for u in "$DIST"/systemd/*.service "$DIST"/systemd/*.timer; do
		sed "s#/usr/bin/rocectl#$ROCECTL#g" "$u" >"$TMP/units/${u##*/}" || exit 1
	done &&
	mkdir -p "$TMP/man/man5" "$TMP/man/man8" &&
	cp "$SRC_DIR"/man/*.8 "$TMP/man/man8/" && cp "$SRC_DIR"/man/*.5 "$TMP/man/man5/" &&
	(cd "$TMP/units" && MANPATH="$TMP/man" SYSTEMD_LOG_LEVEL=notice \
		systemd-analyze verify --man=yes ./*) \
		>"$TMP/verify.out" 2>&1 &&
	test_must_not_contain "$TMP/verify.out" "." 
'

test_expect_success 'every service has a timer and every timer a service' '
	for s in "$DIST"/systemd/*.service; do test -e "${s%.service}.timer" || exit 1; done &&
	for t in "$DIST"/systemd/*.timer; do test -e "${t%.timer}.service" || exit 1; done
'

test_expect_success 'the enforce unit runs with guardrails on and disruptive fields skipped' '
	u="$DIST/systemd/rocectl-enforce.service" &&
	test_must_contain "$u" "^Environment=\"ROCECTL_GUARDRAILS=--max-devices [0-9]+%? --max-changes [0-9]+ --disruptive skip --quarantine-after [0-9]+ --canary [0-9]+\"$" &&
	test_must_contain "$u" "^ExecStart=/usr/bin/rocectl enforce .*\\\\$" &&
	test_must_contain "$u" "\\\$ROCECTL_GUARDRAILS --format prometheus -o " &&
	test_must_contain "$u" "^SuccessExitStatus=2$"
'

test_expect_success 'the recover unit finishes half-done runs with plain rollback, soon after boot and every few minutes' '
	u="$DIST/systemd/rocectl-recover.service" && t="$DIST/systemd/rocectl-recover.timer" &&
	test_must_contain "$u" "^ExecStart=/usr/bin/rocectl rollback -i \\$\\{ROCECTL_INVENTORY\\} --format json$" &&
	test_must_contain "$t" "^OnBootSec=[0-9]+min$" &&
	test_must_contain "$t" "^OnUnitActiveSec=[0-9]+min$" &&
	grep -qx "usr/lib/systemd/system/rocectl-recover.timer" "$SRC_DIR/debian/rocectl.install" &&
	"$ROCECTL" rollback --help | grep -q -- "--format"
'

test_expect_success 'the controller units are hardened: no capability, read-only system but their own paths' '
	for u in "$DIST"/systemd/rocectl-verify.service "$DIST"/systemd/rocectl-enforce.service \
		"$DIST"/systemd/rocectl-recover.service; do
		test_must_contain "$u" "^ProtectSystem=strict$" &&
		test_must_contain "$u" "^CapabilityBoundingSet=$" &&
		test_must_contain "$u" "^NoNewPrivileges=yes$" &&
		test_must_contain "$u" "^ReadWritePaths=.*/var/lib/rocectl" || exit 1
	done
'

test_expect_success 'the agent unit runs agent enforce with CAP_NET_ADMIN only, disruptive fields skipped, metrics to the textfile directory' '
	u="$DIST/systemd/rocectl-agent-enforce.service" &&
	test_must_contain "$u" "^ExecStart=/usr/bin/rocectl agent enforce .*--disruptive skip \\\$ROCECTL_AGENT_METRICS$" &&
	test_must_contain "$u" "^Environment=\"ROCECTL_AGENT_METRICS=--format prometheus -o /var/lib/prometheus/node-exporter/rocectl-agent.prom\"$" &&
	test_must_contain "$u" "^ReadWritePaths=.* -/var/lib/prometheus/node-exporter$" &&
	test_must_contain "$u" "^CapabilityBoundingSet=CAP_NET_ADMIN$" &&
	test_must_contain "$u" "^ProtectSystem=strict$" &&
	test_must_contain "$u" "^NoNewPrivileges=yes$" &&
	test_must_not_contain "$u" "^ProtectKernelTunables=yes" &&
	"$ROCECTL" agent --help | grep -q "enforce"
'

test_expect_success 'systemd-analyze security rates the controller units at an exposure of at most 5.0' '
	for u in "$TMP"/units/rocectl-verify.service "$TMP"/units/rocectl-enforce.service \
		"$TMP"/units/rocectl-recover.service; do
		systemd-analyze security --offline=yes --threshold=50 "$u" >"$TMP/sec.out" 2>&1 ||
			{ cat "$TMP/sec.out"; exit 1; }
	done
'

test_expect_success 'promtool check rules: the alert rules are valid' '
	command -v promtool >/dev/null || { echo "promtool missing: make deps (Debian package prometheus)"; exit 1; } &&
	promtool check rules "$DIST/prometheus/rocectl.rules.yml" >"$TMP/rules.out" 2>&1 &&
	test_must_contain "$TMP/rules.out" "SUCCESS: [0-9]+ rules found"
'

test_expect_success 'promtool test rules: each alert fires on what should raise it and only then' '
	(cd "$DIST/prometheus" && promtool test rules rocectl.rules.test.yml) >"$TMP/test.out" 2>&1 &&
	test_must_contain "$TMP/test.out" "SUCCESS"
'

test_expect_success 'every alert fires in at least one rule test and has a row in the README' '
	sed -n "s/^ *- alert: *//p" "$DIST/prometheus/rocectl.rules.yml" >"$TMP/alerts" &&
	test -s "$TMP/alerts" &&
	while read -r a; do
		awk -v a="$a" "\$0 ~ \"alertname: \" a \"\$\" { getline; if (\$0 ~ /exp_alerts: *\$/) f = 1 }
			END { exit !f }" "$DIST/prometheus/rocectl.rules.test.yml" ||
			{ echo "$a: never fires in a rule test"; exit 1; }
		grep -q "^|.*\`$a\`.*|" "$SRC_DIR/README.md" ||
			{ echo "$a: no row in the README alert table"; exit 1; }
	done <"$TMP/alerts"
'

test_expect_success 'every alert has a runbook_url to its own section of docs/ALERTS.md' '
	sed -n "s/^ *- alert: *//p" "$DIST/prometheus/rocectl.rules.yml" >"$TMP/alerts" &&
	while read -r a; do
		lc=$(echo "$a" | tr "[:upper:]" "[:lower:]") &&
		grep -q "^ *runbook_url: \"file:///usr/share/doc/rocectl/docs/ALERTS.md#$lc\"$" \
			"$DIST/prometheus/rocectl.rules.yml" ||
			{ echo "$a: no runbook_url"; exit 1; }
		grep -q "^## $a\$" "$SRC_DIR/docs/ALERTS.md" ||
			{ echo "$a: no section in docs/ALERTS.md"; exit 1; }
	done <"$TMP/alerts" &&
	test "$(grep -c "runbook_url:" "$DIST/prometheus/rocectl.rules.yml")" -eq "$(wc -l <"$TMP/alerts")"
'

test_expect_success 'the rules only use metrics rocectl writes' '
	grep -oE "rocectl_[a-z_]+" "$DIST/prometheus/rocectl.rules.yml" | sort -u >"$TMP/used" &&
	grep -rhoE "\"rocectl_[a-z_]+" "$SRC_DIR/engine" | tr -d "\"" | sort -u >"$TMP/written" &&
	comm -23 "$TMP/used" "$TMP/written" >"$TMP/unknown" &&
	test ! -s "$TMP/unknown" || { cat "$TMP/unknown"; exit 1; }
'

test_done
