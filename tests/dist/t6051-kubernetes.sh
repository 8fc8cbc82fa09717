#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# dist/kubernetes/rocectl-agent-daemonset.yaml, by its structure (no Kubernetes API server
# or schema download here: kubectl cannot validate offline): the fields that make the
# agent work and keep it contained — host network, CAP_NET_ADMIN as the only capability,
# the host's /sys under --root, the policy and inventory from the ConfigMap, which
# `rocectl validate` accepts, and a loop whose rocectl options this build knows.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

M="$SRC_DIR/dist/kubernetes/rocectl-agent-daemonset.yaml"
export M

# check.py: the structural checks; prints what is wrong, exits 1 on the first failure
cat >"$TMP/check.py" <<'PY'
import os, re, sys, yaml

docs = [d for d in yaml.safe_load_all(open(os.environ["M"])) if d]
out = os.environ["OUT"]

def fail(why):
    print("FAIL:", why)
    sys.exit(1)

def one(kind):
    found = [d for d in docs if d.get("kind") == kind]
    if len(found) != 1:
        fail("%d objects of kind %s" % (len(found), kind))
    return found[0]

for d in docs:
    for key in ("apiVersion", "kind", "metadata"):
        if key not in d:
            fail("an object without %s" % key)
ds, cm = one("DaemonSet"), one("ConfigMap")
if ds["apiVersion"] != "apps/v1" or cm["apiVersion"] != "v1":
    fail("apiVersion")
if ds["metadata"].get("namespace") != cm["metadata"].get("namespace"):
    fail("the DaemonSet and its ConfigMap are in different namespaces")
ns = [d["metadata"]["name"] for d in docs if d["kind"] == "Namespace"]
if ds["metadata"]["namespace"] not in ns:
    fail("the namespace is not created")

spec, tmpl = ds["spec"], ds["spec"]["template"]
sel = spec["selector"]["matchLabels"]
if not sel or any(tmpl["metadata"]["labels"].get(k) != v for k, v in sel.items()):
    fail("the selector does not match the pod template's labels")
pod = tmpl["spec"]
if pod.get("hostNetwork") is not True:
    fail("hostNetwork: the NICs are in the host's network namespace")
if pod.get("dnsPolicy") != "ClusterFirstWithHostNet":
    fail("dnsPolicy with hostNetwork")
if pod.get("automountServiceAccountToken") is not False:
    fail("the agent needs no API token")
if pod.get("hostPID") or pod.get("hostIPC"):
    fail("hostPID/hostIPC are not needed")
if len(pod["containers"]) != 1 or pod.get("initContainers"):
    fail("one container")
c = pod["containers"][0]
sc = c["securityContext"]
caps = sc.get("capabilities", {})
if caps.get("drop") != ["ALL"] or caps.get("add") != ["NET_ADMIN"]:
    fail("capabilities: drop ALL, add NET_ADMIN only (got %r)" % caps)
if sc.get("privileged") not in (False, None) or sc.get("allowPrivilegeEscalation") is not False:
    fail("not privileged, no privilege escalation")
if sc.get("readOnlyRootFilesystem") is not True:
    fail("readOnlyRootFilesystem")

vols = {v["name"]: v for v in pod["volumes"]}
mounts = {m["mountPath"]: m for m in c["volumeMounts"]}
for m in mounts.values():
    if m["name"] not in vols:
        fail("mount of an undefined volume %s" % m["name"])
    if "subPath" in m:
        fail("subPath mounts of a ConfigMap are not updated when it changes")
pol = mounts.get("/etc/rocectl")
if not pol or not pol.get("readOnly") or vols[pol["name"]].get("configMap", {}).get("name") != cm["metadata"]["name"]:
    fail("/etc/rocectl is the ConfigMap, read-only")
for key in ("policy.yaml", "inventory.yaml"):
    if key not in cm["data"]:
        fail("ConfigMap key %s" % key)
    open(os.path.join(out, key), "w").write(cm["data"][key])
sysm = mounts.get("/host/sys")
if not sysm or sysm.get("readOnly") or vols[sysm["name"]].get("hostPath", {}).get("path") != "/sys":
    fail("the host's /sys, writable, at /host/sys")
for path, host in (("/var/lib/rocectl", "/var/lib/rocectl"), ("/run/lock", "/run/lock"),
                   ("/textfile", "/var/lib/prometheus/node-exporter")):
    m = mounts.get(path)
    if not m or vols[m["name"]].get("hostPath", {}).get("path") != host:
        fail("%s is the host's (journal, locks and metrics shared with the node)" % path)
for v in vols.values():
    hp = v.get("hostPath", {}).get("path")
    if hp is not None and hp not in ("/sys", "/var/lib/rocectl", "/run/lock",
                                     "/var/lib/prometheus/node-exporter"):
        fail("an unexpected hostPath %s" % hp)
if "-o /textfile/rocectl-agent.prom" not in c["args"][0] or \
        "--format prometheus" not in c["args"][0]:
    fail("the agent writes this node's metrics into node_exporter's textfile directory")

env = {e["name"]: e for e in c.get("env", [])}
if env.get("NODE_NAME", {}).get("valueFrom", {}).get("fieldRef", {}).get("fieldPath") != "spec.nodeName":
    fail("NODE_NAME from the downward API")
if c["command"][:2] != ["/bin/sh", "-c"] or len(c["args"]) != 1:
    fail("one shell script")
script = c["args"][0]
open(os.path.join(out, "loop.sh"), "w").write(script)
cmd = re.search(r"/usr/bin/rocectl agent enforce ((?:\\\n|[^\n])*)", script)
if not cmd:
    fail("the loop runs rocectl agent enforce")
args = cmd.group(1).replace("\\\n", " ").split()
need = {"-p": "/etc/rocectl/policy.yaml", "-i": "/etc/rocectl/inventory.yaml",
        "--host": '"$NODE_NAME"', "--root": "/host", "--disruptive": "skip",
        "--journal": "/var/lib/rocectl/journal"}
for opt, val in need.items():
    if opt not in args or args[args.index(opt) + 1] != val:
        fail("rocectl agent enforce %s %s" % (opt, val))
open(os.path.join(out, "options"), "w").write("\n".join(a for a in args if a.startswith("-")) + "\n")
if "while :" not in script or "sleep" not in script:
    fail("a loop with a pause")
print("ok")
PY

test_expect_success 'the DaemonSet has the structure that matters (python3 yaml)' '
	python3 -c "import yaml" || { echo "python3-yaml missing: make deps"; exit 1; } &&
	OUT="$TMP" python3 "$TMP/check.py" >"$TMP/check.out" 2>&1 || { cat "$TMP/check.out"; exit 1; }
'

test_expect_success 'the check can fail: a privileged copy, an extra capability, no hostNetwork' '
	for edit in "s/privileged: false/privileged: true/" \
		"s/add: \\[\"NET_ADMIN\"\\]/add: [\"NET_ADMIN\", \"SYS_ADMIN\"]/" \
		"s/hostNetwork: true/hostNetwork: false/" \
		"s/--root \\/host/--root \\/ /"; do
		sed "$edit" "$M" >"$TMP/bad.yaml" && ! cmp -s "$M" "$TMP/bad.yaml" &&
		! M="$TMP/bad.yaml" OUT="$TMP" python3 "$TMP/check.py" >/dev/null || { echo "passed: $edit"; exit 1; }
	done
'

test_expect_success 'the ConfigMap policy and inventory pass rocectl validate; the policy is the shipped one' '
	"$ROCECTL" validate -p "$TMP/policy.yaml" -i "$TMP/inventory.yaml" >/dev/null &&
	cmp "$TMP/policy.yaml" "$SRC_DIR/policies/roce-lossless.yaml"
'

test_expect_success 'the loop is valid sh and every rocectl option it passes is known to agent' '
	sh -n "$TMP/loop.sh" &&
	"$ROCECTL" agent --help >"$TMP/help" &&
	while read -r opt; do
		grep -Eq -- "(^|[ ,])$opt([ ,=]|$)" "$TMP/help" || { echo "unknown: $opt"; exit 1; }
	done <"$TMP/options"
'

test_done
