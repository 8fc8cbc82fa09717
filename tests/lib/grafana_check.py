#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check a Grafana dashboard against the metrics rocectl really emits.

    grafana_check.py DASHBOARD.json TEXTFILE...

Every query of the dashboard (panel targets and template variables) must parse as PromQL
(promtool check rules, each query a recording rule, Grafana's $variables replaced by values)
and may name only metrics that appear in the textfiles rocectl wrote (samples, or a # TYPE
line).  Prints one line per problem and exits 1; "N queries, M metrics: ok" otherwise.
"""
import json
import re
import subprocess
import sys
import tempfile

METRIC = re.compile(r"\brocectl_[a-z0-9_]+\b")
VARIABLES = {"$__rate_interval": "5m", "$__interval": "1m", "$__range": "1h"}


def emitted(paths):
    names = set()
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith("# TYPE "):
                    names.add(line.split()[2])
                elif line.strip() and not line.startswith("#"):
                    names.add(re.split(r"[{ ]", line, 1)[0])
    return names


def queries(dash):
    """(where, expr) of every query: panel targets (rows' panels too) and variables."""
    out = []

    def walk(panels):
        for p in panels:
            for t in p.get("targets", []):
                if t.get("expr"):
                    out.append(("panel '%s'" % p.get("title", "?"), t["expr"], True))
            walk(p.get("panels", []))

    walk(dash.get("panels", []))
    for v in dash.get("templating", {}).get("list", []):
        q = v.get("query")
        q = q.get("query") if isinstance(q, dict) else q
        if v.get("type") == "query" and q:
            out.append(("variable '%s'" % v.get("name"), q, False))
    return out


def promql(expr):
    for k, v in VARIABLES.items():
        expr = expr.replace(k, v)
    return re.sub(r"\$\{?[A-Za-z_][A-Za-z0-9_]*\}?", ".*", expr)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        dash = json.load(f)
    have = emitted(sys.argv[2:])
    problems, rules, used = [], [], set()
    for where, expr, is_promql in queries(dash):
        for name in METRIC.findall(expr):
            used.add(name)
            if name not in have:
                problems.append("%s: %s is not a metric rocectl emits" % (where, name))
        if is_promql:
            rules.append({"record": "rocectl_dashboard:q%d" % len(rules), "expr": promql(expr)})
    if re.search(r"https?://", json.dumps(dash)):
        problems.append("the dashboard links outside itself (http:// or https://)")
    with tempfile.NamedTemporaryFile("w", suffix=".yml") as f:
        json.dump({"groups": [{"name": "dashboard", "rules": rules}]}, f)
        f.flush()
        r = subprocess.run(["promtool", "check", "rules", f.name], capture_output=True,
                           text=True, check=False)
        if r.returncode != 0:
            problems.append("promtool check rules: " + (r.stdout + r.stderr).strip())
    for p in problems:
        print(p)
    if problems:
        return 1
    print("%d queries, %d metrics: ok" % (len(rules), len(used)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
