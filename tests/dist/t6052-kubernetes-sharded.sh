#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# dist/kubernetes/rocectl-verify-sharded-job.yaml, by its structure (no API server or schema
# download here; kubeconform is not packaged): YAML that parses, an Indexed Job whose
# completions, parallelism and SHARDS agree, each pod reading shard
# JOB_COMPLETION_INDEX+1 of SHARDS into the shared volume and index 0 merging them, with
# options this rocectl knows; no capability, no host network; a ConfigMap that `rocectl
# validate` accepts.  t3304-shard-merge.sh runs the same script against a lab.
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

M="$SRC_DIR/dist/kubernetes/rocectl-verify-sharded-job.yaml"
export M

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
cj, cm, pvc = one("CronJob"), one("ConfigMap"), one("PersistentVolumeClaim")
if cj["apiVersion"] != "batch/v1" or cm["apiVersion"] != "v1" or pvc["apiVersion"] != "v1":
    fail("apiVersion")
ns = [d["metadata"]["name"] for d in docs if d["kind"] == "Namespace"]
for d in (cj, cm, pvc):
    if d["metadata"].get("namespace") not in ns:
        fail("%s is not in the namespace the file creates" % d["kind"])
if "ReadWriteMany" not in pvc["spec"]["accessModes"]:
    fail("the shards run on several nodes: the volume must be ReadWriteMany")
if cj["spec"].get("concurrencyPolicy") != "Forbid":
    fail("one sharded verify at a time")
job = cj["spec"]["jobTemplate"]["spec"]
if job.get("completionMode") != "Indexed":
    fail("completionMode: Indexed (JOB_COMPLETION_INDEX)")
pod = job["template"]["spec"]
if pod.get("restartPolicy") not in ("Never", "OnFailure"):
    fail("a Job's pods restart Never or OnFailure")
if pod.get("hostNetwork") or pod.get("hostPID") or pod.get("hostIPC"):
    fail("no host namespaces: the pods only reach the switches")
if pod.get("automountServiceAccountToken") is not False:
    fail("no API token needed")
if len(pod["containers"]) != 1:
    fail("one container")
c = pod["containers"][0]
sc = c["securityContext"]
if sc.get("capabilities", {}).get("drop") != ["ALL"] or sc.get("capabilities", {}).get("add"):
    fail("no capability")
if sc.get("allowPrivilegeEscalation") is not False or sc.get("privileged"):
    fail("not privileged, no escalation")
if sc.get("readOnlyRootFilesystem") is not True:
    fail("readOnlyRootFilesystem")
env = {e["name"]: e for e in c.get("env", [])}
shards = int(env["SHARDS"]["value"])
if not (job.get("completions") == job.get("parallelism") == shards):
    fail("completions, parallelism and SHARDS differ: %r %r %r" %
         (job.get("completions"), job.get("parallelism"), shards))
jn = env.get("JOB_NAME", {}).get("valueFrom", {}).get("fieldRef", {}).get("fieldPath", "")
if "job-name" not in jn:
    fail("JOB_NAME from the Job's label: each Job its own directory")
vols = {v["name"]: v for v in pod["volumes"]}
mounts = {m["mountPath"]: m for m in c["volumeMounts"]}
for m in mounts.values():
    if m["name"] not in vols:
        fail("mount of an undefined volume %s" % m["name"])
sh = mounts.get("/shards")
if not sh or vols[sh["name"]].get("persistentVolumeClaim", {}).get("claimName") != pvc["metadata"]["name"]:
    fail("/shards is the claim")
cfg = mounts.get("/etc/rocectl")
if not cfg or not cfg.get("readOnly") or vols[cfg["name"]].get("configMap", {}).get("name") != cm["metadata"]["name"]:
    fail("/etc/rocectl is the ConfigMap, read-only")
for key in ("policy.yaml", "inventory.yaml"):
    open(os.path.join(out, key), "w").write(cm["data"][key])
if c["command"][:2] != ["/bin/sh", "-c"] or len(c["args"]) != 1:
    fail("one shell script")
script = c["args"][0]
open(os.path.join(out, "job.sh"), "w").write(script)
if "k=$((JOB_COMPLETION_INDEX + 1))" not in script or '--shard "$k/$SHARDS"' not in script:
    fail("each pod reads shard JOB_COMPLETION_INDEX+1 of SHARDS")
opts = set()
for m in re.finditer(r"/usr/bin/rocectl verify ((?:\\\n|[^\n])*)", script):
    args = m.group(1).replace("\\\n", " ").split()
    opts |= {a for a in args if a.startswith("-")}
for need in ("--shard", "--merge", "--format", "-o", "-p", "-i"):
    if need not in opts:
        fail("the script never passes %s" % need)
open(os.path.join(out, "options"), "w").write("\n".join(sorted(opts)) + "\n")
print("ok")
PY

test_expect_success 'the Indexed Job has the structure that matters (python3 yaml)' '
	python3 -c "import yaml" || { echo "python3-yaml missing: make deps"; exit 1; } &&
	OUT="$TMP" python3 "$TMP/check.py" >"$TMP/check.out" 2>&1 || { cat "$TMP/check.out"; exit 1; }
'

test_expect_success 'the check can fail: not Indexed, counts that differ, a capability, YAML broken' '
	for edit in "s/completionMode: Indexed/completionMode: NonIndexed/" \
		"s/parallelism: 4/parallelism: 2/" \
		"s/drop: \\[\"ALL\"\\]/drop: [\"ALL\"]\\n                  add: [\"NET_ADMIN\"]/" \
		"s/JOB_COMPLETION_INDEX + 1/JOB_COMPLETION_INDEX/" \
		"s/^  name: rocectl-shards/  name: rocectl-shards\\n - broken/"; do
		sed "$edit" "$M" >"$TMP/bad.yaml" && ! cmp -s "$M" "$TMP/bad.yaml" &&
		! M="$TMP/bad.yaml" OUT="$TMP" python3 "$TMP/check.py" >/dev/null 2>&1 ||
		{ echo "passed: $edit"; exit 1; }
	done
'

test_expect_success 'the ConfigMap passes rocectl validate; the policy is the shipped one' '
	"$ROCECTL" validate -p "$TMP/policy.yaml" -i "$TMP/inventory.yaml" >/dev/null &&
	cmp "$TMP/policy.yaml" "$SRC_DIR/policies/roce-lossless.yaml"
'

test_expect_success 'the script is valid sh; every option it passes is known to verify' '
	sh -n "$TMP/job.sh" &&
	"$ROCECTL" verify --help >"$TMP/help" &&
	while read -r opt; do
		grep -Eq -- "(^|[ ,])$opt([ ,=]|$)" "$TMP/help" || { echo "unknown: $opt"; exit 1; }
	done <"$TMP/options"
'

test_done
