#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Shape conformance: the switch simulator's answers against the kit's real ones.

usage: shape.py CONFORMANCE_DIR BUILD_DIR ROCECTL SRC_DIR PENDING_FILE WORKDIR

1. Which requests rocectl sends is not written down here: it is asked.  For each platform and
   transport, `rocectl verify --counters -v --snapshot DIR` runs against an empty snapshot;
   every request it logs (`DEV snapshot: REQUEST`, and the eAPI bodies) that has no file yet
   is answered by the simulator's binaries (switchsim-cli, no sshd) into DIR, and verify runs
   again, until it asks nothing new: every read, counters and LLDP request of the drivers.
2. Each request, with interface names and numbers made wildcards (see norm_key), must be in
   TABLE: either the kit file holding a real answer to it, or why it has none ("unverified").
   A request the table does not list fails: a driver sends something nobody checked.
3. For each request with a real answer, the simulator's answer and the real one are reduced
   to shapes and compared: JSON key paths with value types (values ignored), text tables'
   headers in column order, the eAPI revision asked against the one the real answer has.
   Real answers that are trimmed mocks (ANTA's) only require the simulator to have every
   real path; configurations (CONFIG_DB) only the same types where both have a path, and
   every key form (`<if>|<n>-<n>`) of the tables the driver reads.
   REST devices' requests are answered by the simulator's REST server as rocectl sent them
   (eAPI revision included); it runs in the network namespace this script re-executes
   itself in (unshare -rn).  The NVUE REST apply path (POST/PATCH/GET of a revision) writes,
   so no snapshot answers it: the REST server does (apply_probe).
   The simulated NIC's `ethtool -S` names (the real ethtool under nicsim) against a real
   mlx5's (check_nic).
4. PENDING_FILE lists requests whose mismatch is known and being fixed in the simulator; they
   are reported but do not fail, and one that matches fails until it is removed from the file.

Prints `# shape: N commands checked, M unverified: ...`; exit 1 on any failure.
"""
import json
import os
import re
import subprocess
import sys

K, BUILD, ROCECTL, SRC, PENDING, WORK = sys.argv[1:7]
SIM = os.path.join(BUILD, "sim", "switch")
POLICY = os.path.join(SRC, "policies", "roce-lossless.yaml")

# Wildcard rule for object keys and requests: interface names (Ethernet1, Ethernet1/1,
# Ethernet3/1/1, swp1, swp1s0, eth0, PortChannel01, Port-Channel1) become <if>, then every
# run of digits becomes <n> (traffic classes, queues, priorities, counters' indexes), so a
# real switch with other ports or more queues has the same shape.
IF_RE = re.compile(r"\b(?:Ethernet|swp|eth|PortChannel|Port-Channel|Et)\d+(?:/\d+)*(?:s\d+)?\b")


def norm_key(k):
    return re.sub(r"\d+", "<n>", IF_RE.sub("<if>", k))


def norm_request(r):
    """Requests: interface names, and numbers inside quoted database keys; the SKU directory
    of the SONiC driver's `cat` of pg_profile_lookup.ini."""
    r = re.sub(r"^cat /usr/share/sonic/device/[^/ ]+/[^/ ]+/pg_profile_lookup\.ini$",
               "cat /usr/share/sonic/device/<platform>/<hwsku>/pg_profile_lookup.ini", r)
    return re.sub(r"'[^']*'", lambda m: norm_key(m.group(0)), IF_RE.sub("<if>", r))


# ---- the table: every request rocectl sends, with its real answer or why there is none ----

ANTA = "eos/anta/"
NAPALM = "eos/napalm/"
SON = "sonic/outputs/"
CFGDB = "sonic/config_db/sonic-utilities_filter_fdb_config_db.json"

# key: (platform, normalized request).  real: [kit files], kind, rev (eAPI revision of the
# real answer), mode: "same" (both directions), "real-in-sim" (the real one is a trimmed
# mock: every real path must be in the simulator's), "sim-in-real" (the real one is a whole
# capture and the simulator answers the part of it rocectl reads: every path the simulator
# prints must be in the real answer, with a type the real one has), "common" (configurations: the types of
# the paths both have, and every key form the real tables rocectl reads have).
TABLE = {
    ("sonic", "show runningconfiguration all"): dict(real=[CFGDB], kind="configdb"),
    ("sonic", "cat /etc/sonic/config_db.json"): dict(real=[CFGDB], kind="configdb"),
    ("sonic", "show pfc counters"): dict(real=[SON + "show_pfc_counters.txt"], kind="table"),
    ("sonic", "show lldp table"): dict(real=[SON + "show_lldp_table.2macs.txt"], kind="table"),
    # the SKU's own file in the kit ({hwsku}: the one in the request)
    ("sonic", "cat /usr/share/sonic/device/<platform>/<hwsku>/pg_profile_lookup.ini"):
        dict(real=["sonic/skus/{hwsku}/pg_profile_lookup.ini"], kind="ini"),
    ("sonic", "sonic-db-cli APPL_DB HGETALL 'BUFFER_PROFILE_TABLE:pg_lossless_<n>_<n>m_profile'"):
        dict(unverified="no APPL_DB answer in the kit (only COUNTERS_DB mock tables)"),
    ("sonic", "sonic-db-cli APPL_DB HGETALL 'BUFFER_PG_TABLE:<if>:<n>-<n>'"):
        dict(unverified="no APPL_DB answer in the kit (only COUNTERS_DB mock tables)"),
    ("eos", "show priority-flow-control counters"):
        dict(real=[ANTA + "show_priority-flow-control_counters.rev3.json"], kind="json",
             rev=3, mode="real-in-sim"),
    ("eos", "show qos interfaces ecn counters queue"):
        dict(real=[ANTA + "show_qos_interfaces_ecn_counters_queue.rev1.json"], kind="json",
             rev=1, mode="real-in-sim"),
    # real answers to requests the drivers are about to send (counters of ECN marks and
    # drops): held to them as soon as they are sent, not missed before
    ("sonic", "show queue counters"): dict(real=[SON + "show_queue_counters.txt"],
                                           kind="table", soon=True),
    ("sonic", "show queue wredcounters"): dict(real=[SON + "show_queue_wredcounters.txt"],
                                               kind="table", soon=True),
    ("sonic", "show priority-group drop counters"):
        dict(real=[SON + "show_priority-group_drop_counters.txt"], kind="table", soon=True),
    ("eos", "show interfaces counters queue detail"):
        dict(real=[ANTA + "show_interfaces_counters_queue_detail.rev1.json"], kind="json",
             rev=1, mode="real-in-sim", soon=True),
    ("eos", "show interfaces counters queue drops"):
        dict(real=[ANTA + "show_interfaces_counters_queue_drops.rev1.json"], kind="json",
             rev=1, mode="real-in-sim", soon=True),
    ("eos", "show interfaces counters discards"):
        dict(real=[ANTA + "show_interfaces_counters_discards.rev1.json"], kind="json",
             rev=1, mode="real-in-sim", soon=True),
    ("eos", "show lldp neighbors detail"):
        dict(real=[NAPALM + "show_lldp_neighbors_detail.normal.json",
                   NAPALM + "show_lldp_neighbors_detail.issue1153.json",
                   NAPALM + "show_lldp_neighbors_detail.issue903.json"], kind="json",
             rev=1, mode="sim-in-real"),
    ("eos", "show running-config"):
        dict(unverified="no EOS running-config answer (AVD's intended configs are inputs)"),
    ("eos", "show startup-config"): dict(unverified="no EOS startup-config answer"),
    ("eos", "show priority-flow-control"): dict(unverified="no answer in the kit"),
    ("eos", "show qos interfaces trust"): dict(unverified="no answer in the kit"),
    ("eos", "show qos maps"): dict(unverified="not found (kit README)"),
    ("eos", "show qos interfaces ecn"): dict(unverified="no answer in the kit"),
    ("nvue", "nv show qos -o json"): dict(unverified="no nv show qos -o json sample"),
    ("nvue", "nv show qos --applied -o json"): dict(unverified="no nv show qos -o json sample"),
    ("nvue", "nv show qos --rev=startup -o json"):
        dict(unverified="no nv show qos -o json sample"),
    ("nvue", "nv show interface <if> qos -o json"):
        dict(unverified="only text tables of nv show interface ... qos ... in the kit"),
    ("nvue", "nv show interface <if> counters qos -o json"):
        dict(unverified="only the docs' text tables and NVIDIA's test code's nesting "
             "(nvue/FACTS.md), no -o json answer"),
    ("nvue", "nv show interface lldp"):
        dict(unverified="the kit has nv show interface <if> lldp [neighbor], not this table"),
    ("nvue", "GET /qos"): dict(unverified="no QoS REST body in the kit (kit README)"),
    ("nvue", "GET /qos?rev=applied"): dict(unverified="no QoS REST body in the kit"),
    ("nvue", "GET /qos?rev=startup"): dict(unverified="no QoS REST body in the kit"),
    ("nvue", "GET /interface/<if>/qos"): dict(unverified="no QoS REST body in the kit"),
}

# Requests of the NVUE REST apply path (drivers/switch/nvue.c: rest_new_revision, the apply
# PATCH, the poll of the revision's state), which a snapshot cannot stand in for (they
# write): the simulator's REST server answers them (apply_probe), and each must still be a
# literal of the driver (APPLY_LITERALS).
APPLY = {
    "nvue rest: POST /revision": dict(real=["nvue/api/01_POST_revision.txt"], kind="api"),
    "nvue rest: PATCH /revision/<n>": dict(real=["nvue/api/03_PATCH_revision_apply.txt"],
                                          kind="api"),
    "nvue rest: GET /revision/<n>": dict(real=["nvue/api/04_GET_revision_applied.txt"],
                                        kind="api"),
}
APPLY_LITERALS = ('"POST", "/revision"', '"/revision/%s"')

# Requests only other commands send (capture's version probe, the host agent), with the test
# that holds them to a real answer where one exists.
OTHERS = [
    "eos: show version (capture only): no answer in the kit",
    "sonic: show version (capture only): no answer in the kit",
    "nvue: nv show system -o json (capture only): no answer in the kit",
    "host: lldpcli -f json0 show neighbors: real lldpd, tests/host/t1150-lldpd-real.sh",
    "host: rocectl agent state: rocectl's own answer (the agent), no device's",
]

# ---- asking rocectl what it sends ----------------------------------------------------------

PLATFORMS = [
    # name, platform, transport, sim model, ports, lldp fault
    ("nv", "nvue", "ssh", None, ["swp1", "swp2"], "swp1=leaf02:Ethernet0"),
    ("nvrest", "nvue", "rest", None, ["swp1", "swp2"], "swp1=leaf02:Ethernet0"),
    ("so", "sonic", "ssh", None, ["Ethernet0", "Ethernet4"], "Ethernet0=leaf01:swp1"),
    # a Mellanox SKU runs SONiC's dynamic buffer model: the driver also reads APPL_DB
    ("somlx", "sonic", "ssh", "Mellanox-SN5600-O128", ["Ethernet0", "Ethernet8"],
     "Ethernet0=leaf01:swp2"),
    ("eo", "eos", "rest", None, ["Ethernet1", "Ethernet2"], "Ethernet1=leaf01:swp1"),
    ("eossh", "eos", "ssh", None, ["Ethernet1", "Ethernet2"], "Ethernet1=leaf01:swp1"),
]

RUN = os.path.join(WORK, "run")
SNAP = os.path.join(WORK, "snap")


def sh(argv, check=True):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and p.returncode:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(argv), p.returncode,
                                                p.stderr.decode(errors="replace")[:300]))
    return p.stdout.decode(errors="replace")


def sim_cli(dev, cmd):
    return sh([os.path.join(SIM, "switchsim-cli"), "--run-dir", RUN, "--switch", dev, "-c", cmd],
              check=False)


def snap_name(request):
    return re.sub(r"[^A-Za-z0-9]+", "-", request).strip("-")


def setup():
    os.makedirs(os.path.join(RUN, "switches"), exist_ok=True)
    os.makedirs(os.path.join(RUN, "by-addr"), exist_ok=True)
    os.makedirs(SNAP, exist_ok=True)
    inv = ["apiVersion: rocectl/v1", "kind: Inventory", "switches:"]
    for i, (name, plat, tr, model, ports, lldp) in enumerate(PLATFORMS):
        args = [os.path.join(SIM, "switchsim-ctl"), "--run-dir", RUN, "add", name,
                "127.0.0.%d" % (i + 1), plat] + ([model] if model else [])
        sh(args)
        sh([os.path.join(SIM, "switchsim-ctl"), "--run-dir", RUN, "fault", name, "lldp", lldp])
        os.makedirs(os.path.join(SNAP, name), exist_ok=True)
        inv.append("  - {name: %s, address: 192.0.2.%d, platform: %s, transport: %s, "
                   "ports: [%s]}" % (name, i + 1, plat, tr, ", ".join(ports)))
    path = os.path.join(WORK, "inventory.yaml")
    with open(path, "w") as f:
        f.write("\n".join(inv) + "\n")
    return path


class RestSim:
    """The simulator's HTTPS server (switchsim-rest) for every switch of RUN, inside the
    network namespace main() runs in (unshare -rn: nothing outside can reach it), with a
    throwaway certificate and password."""

    def __init__(self):
        import base64
        import ssl
        key, cert = os.path.join(WORK, "key.pem"), os.path.join(WORK, "cert.pem")
        sh(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out",
            cert, "-days", "1", "-subj", "/CN=127.0.0.1"])
        os.makedirs(os.path.join(RUN, "secrets"), exist_ok=True)
        with open(os.path.join(RUN, "secrets", "password"), "w") as f:
            f.write("shape-probe\n")
        self.srv = subprocess.Popen([os.path.join(SIM, "switchsim-rest"), "--run-dir", RUN,
                                     "--port", "8765", "--cert", cert, "--key", key, "--user",
                                     "admin"], stderr=subprocess.DEVNULL)
        self.ctx = ssl._create_unverified_context()  # our own throwaway certificate
        self.auth = "Basic " + base64.b64encode(b"admin:shape-probe").decode()

    def request(self, addr, method, path, body=None):
        import http.client
        import time
        for _ in range(50):
            try:
                c = http.client.HTTPSConnection(addr, 8765, context=self.ctx, timeout=10)
                c.request(method, path, body=body, headers={
                    "Authorization": self.auth, "Content-Type": "application/json"})
                return c.getresponse().read().decode()
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the simulator's REST server does not answer on %s" % addr)

    def stop(self):
        self.srv.terminate()
        self.srv.wait()


REST = None
ADDR = {name: "127.0.0.%d" % (i + 1) for i, (name, *_) in enumerate(PLATFORMS)}


def answer(dev, req, info):
    """The simulator's answer to one request of `dev`, as its snapshot file holds it: over
    the simulator's REST API for a REST device (NVUE GET; eAPI runCmds with the command as
    rocectl sent it, revision included), its CLI for the others."""
    if req.startswith("GET "):
        return REST.request(ADDR[dev], "GET", "/nvue_v1" + req[4:])
    if info.get("eapi"):
        body = {"jsonrpc": "2.0", "method": "runCmds", "id": "shape",
                "params": {"version": 1, "cmds": ["enable", info["eapi"]],
                           "format": "text" if info["text"] else "json"}}
        j = json.loads(REST.request(ADDR[dev], "POST", "/command-api", json.dumps(body)))
        if "result" not in j:
            return json.dumps(j)  # the error, for the parser to refuse
        r = j["result"][1]
        return r.get("output", "") if info["text"] else json.dumps(r)
    return sim_cli(dev, req)


def discover(inv):
    """{dev: {request: {"rev": asked revision or None}}} as rocectl sent them."""
    seen = {name: {} for name, *_ in PLATFORMS}
    for _ in range(60):
        p = subprocess.run([ROCECTL, "verify", "-v", "-p", POLICY, "-i", inv, "--snapshot", SNAP,
                            "--counters", "--format", "json"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        new = 0
        for line in p.stderr.decode(errors="replace").splitlines():
            m = re.match(r"^(\S+) snapshot( body)?: (.*)$", line)
            if not m or m.group(1) not in seen:
                continue
            dev, body, req = m.group(1), m.group(2), m.group(3)
            reqs = []
            if body:
                j = json.loads(req)
                fmt = j["params"].get("format", "json")
                for c in j["params"]["cmds"]:
                    cmd = c if isinstance(c, str) else c.get("cmd")
                    rev = (c.get("revision") if isinstance(c, dict) else None) or \
                        j["params"].get("version")
                    if cmd != "enable":
                        reqs.append((cmd, rev, fmt == "text", c))
            elif req.startswith("POST "):
                continue
            else:
                reqs = [(r.strip(), None, False, None) for r in req.split(" && ")]
            for cmd, rev, text, eapi in reqs:
                if cmd in seen[dev]:
                    continue
                seen[dev][cmd] = {"rev": rev, "text": text, "eapi": eapi}
                f = os.path.join(SNAP, dev, snap_name(cmd) + ".txt")
                with open(f, "w") as out:
                    out.write(answer(dev, cmd, seen[dev][cmd]))
                new += 1
        if not new:
            return seen, p.stdout.decode(errors="replace")
    raise RuntimeError("rocectl kept asking new requests after 60 rounds")


def apply_probe():
    """The NVUE switch's revision created, applied as rocectl applies it (ays_yes) and
    polled until applied: the three answers."""
    import time
    addr = ADDR["nv"]
    post = REST.request(addr, "POST", "/nvue_v1/revision")
    rev = next(iter(json.loads(post)))
    patch = REST.request(addr, "PATCH", "/nvue_v1/revision/" + rev,
                         json.dumps({"state": "apply", "auto-prompt": {"ays": "ays_yes"}}))
    for _ in range(50):
        get = REST.request(addr, "GET", "/nvue_v1/revision/" + rev)
        if json.loads(get).get("state", "").startswith("applied"):
            break
        time.sleep(0.1)
    return {"nvue rest: POST /revision": post, "nvue rest: PATCH /revision/<n>": patch,
            "nvue rest: GET /revision/<n>": get}


def check_apply_path(failures, checked, pending, pend_hit):
    src = open(os.path.join(SRC, "drivers", "switch", "nvue.c"), encoding="utf-8").read()
    for lit in APPLY_LITERALS:
        if lit not in src:
            failures.append("drivers/switch/nvue.c no longer has %s: update APPLY" % lit)
    answers = apply_probe()
    for label, spec in APPLY.items():
        bad = compare(spec, "", answers[label], None)
        checked.add(label)
        if label in pending:
            pend_hit.add(label)
            if not bad:
                failures.append("%s: listed in %s as being fixed, but its shape matches now: "
                                "remove it from the file" % (label, PENDING))
            for b in bad:
                print("# pending: %s: %s" % (label, b))
        else:
            failures += ["%s: %s" % (label, b) for b in bad]


# The host driver's requests (drivers/host/agent_ssh.c over SSH, lldpd_local.c here): the
# agent's own subcommands, whose answers are rocectl's, and lldpd's, held to a real lldpd by
# tests/host/t1150-lldpd-real.sh.  A request added there must be added here.
HOST_REQUESTS = {"state", "state --raw", "counters --json", "write"}
HOST_LLDPD = "lldpcli -f json0 show neighbors"


def check_host_requests(failures):
    with open(os.path.join(SRC, "drivers", "host", "agent_ssh.c"), encoding="utf-8") as f:
        src = f.read()
    subs = set(re.findall(r'build_cmd\(s, cmd, sizeof\(cmd\), (?:s->raw \? )?"([^"]+)"', src))
    subs |= set(re.findall(r':\s*"(state[^"]*)"', src))
    subs |= set(re.findall(r'"%s agent ([^"%]+)"', src))
    for sub in sorted(subs - HOST_REQUESTS):
        failures.append("host: rocectl agent %s: the host driver sends it, but the shape table "
                        "does not list it (HOST_REQUESTS)" % sub)
    with open(os.path.join(SRC, "drivers", "host", "lldpd.h"), encoding="utf-8") as f:
        if '"%s"' % HOST_LLDPD not in f.read():
            failures.append("host: the lldpd command changed: update HOST_LLDPD and t1150")


# ---- the NIC: ethtool -S names (ETHTOOL_GSTRINGS), the simulated mlx5 against a real one ----

ETHTOOL_REAL = "host/ethtool/ethtool_-S.mlx5_core.fw14.23.txt"
NIC_LABEL = "host: ethtool -S <if> (mlx5_core statistics names)"


def nic_names():
    """The simulated NIC's `ethtool -S` names, through the real ethtool (nicsim run)."""
    nicsim = os.path.join(SRC, "tests", "sim", "nic", "nicsim")
    host = os.path.join(WORK, "nic")
    env = dict(os.environ, BUILD_DIR=BUILD)
    subprocess.run(["sh", nicsim, "init", host, "--nic", "enp1s0f0np0,speed=100G"], env=env,
                   check=True, stdout=subprocess.DEVNULL)
    out = subprocess.run(["sh", nicsim, "run", host, "--", "ethtool", "-S", "enp1s0f0np0"],
                         env=env, check=True, stdout=subprocess.PIPE).stdout.decode()
    return {line.split(":")[0].strip() for line in out.splitlines()[1:] if ":" in line}


def check_nic(failures, checked):
    """Every name the host driver reads (drivers/host/counters.c ethtool_names) that the
    real mlx5 answer has, the simulator must have; every name the simulator has must be a
    real one or one host/FACTS.md cites from mlx5's documentation (the real sample is a
    ConnectX-4 Lx with PFC off: no rx_prio<p>_pause*).  Digits are <n>, as for keys."""
    with open(os.path.join(K, ETHTOOL_REAL), encoding="utf-8") as f:
        real = {norm_key(l.split(":")[0].strip()) for l in f if ":" in l}
    with open(os.path.join(K, "host", "FACTS.md"), encoding="utf-8") as f:
        documented = {norm_key(n.replace("<p>", "0"))
                      for n in re.findall(r"`([a-z0-9_<>]+)`", f.read())}
    with open(os.path.join(SRC, "drivers", "host", "counters.c"), encoding="utf-8") as f:
        src = f.read()
    table = src[src.index("ethtool_names[]"):src.index("hw_names[]")]
    reads = {norm_key(n.replace("%u", "0")) for n in re.findall(r'\{"([a-z0-9_%]+)", "', table)}
    sim = {norm_key(n) for n in nic_names()}
    checked.add(NIC_LABEL)
    for n in sorted(reads & real - sim):
        failures.append("%s: %s: the real answer has it and rocectl reads it, the simulator "
                        "has none" % (NIC_LABEL, n))
    for n in sorted(sim - real - documented):
        failures.append("%s: %s: the simulator has it, no real answer or mlx5 document does"
                        % (NIC_LABEL, n))


# ---- shapes ----------------------------------------------------------------------------------


def json_shape(doc, path="", out=None):
    """{normalized path: set of types}"""
    out = {} if out is None else out
    t = type(doc).__name__
    t = {"dict": "object", "list": "array", "str": "string", "int": "number",
         "float": "number", "bool": "boolean", "NoneType": "null"}[t]
    out.setdefault(path or "/", set()).add(t)
    if isinstance(doc, dict):
        for k, v in doc.items():
            # a range of classes or queues ("TC0-5": EOS prints one when they share
            # counters) is a key of the same kind as one class ("TC3")
            json_shape(v, path + "/" + norm_key(k).replace("<n>-<n>", "<n>"), out)
    elif isinstance(doc, list):
        for v in doc:
            json_shape(v, path + "[]", out)
    return out


def table_headers(text):
    """Every table's header: the line above a line of dashes runs, split into columns by
    the dashes' extents (column order kept)."""
    lines = text.splitlines()
    heads = []
    for i in range(1, len(lines)):
        if re.fullmatch(r"-+(\s+-+)+\s*", lines[i]):
            head = lines[i - 1]
            spans = [(m.start(), m.end()) for m in re.finditer(r"-+", lines[i])]
            cols = []
            for j, (a, b) in enumerate(spans):
                end = spans[j + 1][0] if j + 1 < len(spans) else len(head)
                cols.append(head[a:end].strip())
            heads.append(cols)
    return heads


def distinct(heads):
    out = []
    for h in heads:
        if h not in out:
            out.append(h)
    return out


def ini_shape(text):
    cols = None
    widths = set()
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("#"):
            words = s.lstrip("#").split()
            if "speed" in words and "cable" in words:
                cols = words
        elif s:
            widths.add(len(s.split()))
    return cols, sorted(widths)


def load_real(spec, req):
    docs = []
    m = re.match(r"^cat /usr/share/sonic/device/[^/]+/([^/]+)/", req)
    for rel in spec["real"]:
        rel = rel.replace("{hwsku}", m.group(1) if m else "")
        with open(os.path.join(K, rel), encoding="utf-8") as f:
            text = f.read()
        if spec["kind"] == "api":  # line 1: the doc's prompt and curl command
            docs.append(json.loads(text.split("\n", 1)[1]))
        elif spec["kind"] in ("json", "configdb"):
            j = json.loads(text)
            if rel.startswith(ANTA):
                docs += [a["eos_data_0"] for a in j["answers"].values()]
            else:
                docs.append(j)
        else:
            docs.append(text)
    return docs


def compare_json(real_docs, sim_doc, mode):
    real = {}
    for d in real_docs:
        for p, t in json_shape(d).items():
            real.setdefault(p, set()).update(t)
    sim = json_shape(sim_doc)
    bad = []
    for p in sorted(set(real) | set(sim)):
        r, s = real.get(p), sim.get(p)
        if r and s:
            if not (s <= r) and not (r <= s):
                bad.append("%s: real %s, simulator %s" % (p, "|".join(sorted(r)),
                                                          "|".join(sorted(s))))
        elif r and mode in ("same", "real-in-sim"):
            bad.append("%s: real %s, simulator has none" % (p, "|".join(sorted(r))))
        elif s and mode in ("same", "sim-in-real"):
            bad.append("%s: real has none, simulator %s" % (p, "|".join(sorted(s))))
    return bad


# the CONFIG_DB tables the SONiC driver reads (drivers/switch/sonic_parse.c)
READ_TABLES = ["PORT", "PORT_QOS_MAP", "DSCP_TO_TC_MAP", "TC_TO_PRIORITY_GROUP_MAP",
               "TC_TO_QUEUE_MAP", "QUEUE", "BUFFER_PG", "WRED_PROFILE", "PFC_WD",
               "CABLE_LENGTH", "SCHEDULER"]


def compare_configdb(real_docs, sim_doc):
    bad = compare_json(real_docs, sim_doc, "common")
    for t in READ_TABLES:
        rk = {norm_key(k) for d in real_docs for k in d.get(t, {})}
        sk = {norm_key(k) for k in sim_doc.get(t, {})}
        for k in sorted(rk - sk):
            bad.append("/%s: real key form %s, simulator has none (it has %s)"
                       % (t, k, ", ".join(sorted(sk)) or "no table"))
    return bad


def compare(spec, req, sim_text, asked_rev):
    real = load_real(spec, req)
    kind = spec["kind"]
    bad = []
    if spec.get("rev") and asked_rev is not None and asked_rev != spec["rev"]:
        bad.append("(revision): real answer is revision %d, rocectl asks %s"
                   % (spec["rev"], asked_rev))
    if kind == "api":
        return bad + compare_json(real, json.loads(sim_text), "same")
    if kind in ("json", "configdb"):
        try:
            sim = json.loads(sim_text)
        except ValueError as e:
            return bad + ["(document): simulator's answer is not JSON: %s" % e]
        if kind == "configdb":
            return bad + compare_configdb(real, sim)
        return bad + compare_json(real, sim, spec.get("mode", "same"))
    if kind == "table":
        # a table per port or per queue set repeats its header: the distinct headers, in
        # the order they first appear, are the shape (a switch with more ports prints more)
        r, s = distinct(table_headers(real[0])), distinct(table_headers(sim_text))
        if r != s:
            bad.append("(headers): real %s, simulator %s" % (r, s))
        return bad
    r, s = ini_shape(real[0]), ini_shape(sim_text)
    if r != s:
        bad.append("(columns): real %s, simulator %s" % (r, s))
    return bad


def main():
    global REST
    os.makedirs(WORK, exist_ok=True)
    sh(["ip", "link", "set", "lo", "up"])
    inv = setup()
    REST = RestSim()
    try:
        return checks(inv)
    finally:
        REST.stop()


def checks(inv):
    seen, report = discover(inv)
    pending = set()
    with open(PENDING, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                pending.add(line)
    failures, checked, unverified, pend_hit = [], set(), set(), set()
    # every device read to the end (read, counters, LLDP): else requests went unseen
    for d in json.loads(report)["devices"]:
        if d.get("error"):
            failures.append("%s: the snapshot of the simulator's answers did not read: %s"
                            % (d["device"], d["error"]))
    listed = set()
    plat_of = {name: plat for name, plat, *_ in PLATFORMS}
    tr_of = {name: tr for name, _, tr, *_ in PLATFORMS}
    for dev in sorted(seen):
        plat = plat_of[dev]
        for req, info in sorted(seen[dev].items()):
            # the EOS CLI's JSON form: `CMD | json`, or `CMD | json revision N` asking for a
            # revision of the model as eAPI's command objects do
            m = re.match(r"^(.*) \| json(?: revision (\d+))?$", req)
            base = m.group(1) if m else req
            cli_rev = int(m.group(2)) if m and m.group(2) else None
            key = (plat, norm_request(base))
            spec = TABLE.get(key)
            listed.add(key)
            label = "%s %s: %s" % (plat, tr_of[dev], norm_request(req))
            if spec is None:
                failures.append("%s: rocectl sends it, but the shape table does not list it "
                                "(tests/conformance/shape.py TABLE: a real answer or why none)"
                                % label)
                continue
            if "unverified" in spec:
                unverified.add("%s: %s" % (plat, norm_request(base)))
                continue
            with open(os.path.join(SNAP, dev, snap_name(req) + ".txt"), encoding="utf-8") as f:
                sim_text = f.read()
            bad = compare(spec, req, sim_text,
                          info["rev"] if tr_of[dev] == "rest" else cli_rev if m else None)
            checked.add(label)
            if label in pending:
                pend_hit.add(label)
                if not bad:
                    failures.append("%s: listed in %s as being fixed, but its shape matches "
                                    "now: remove it from the file" % (label, PENDING))
                for b in bad:
                    print("# pending: %s: %s" % (label, b))
            for b in [] if label in pending else bad:
                failures.append("%s: %s" % (label, b))
    check_apply_path(failures, checked, pending, pend_hit)
    check_nic(failures, checked)
    check_host_requests(failures)
    for key in sorted(k for k in set(TABLE) - listed if not TABLE[k].get("soon")):
        failures.append("%s: %s: in the shape table, but rocectl does not send it (any more): "
                        "remove it" % key)
    for p in sorted(pending - pend_hit):
        failures.append("%s: listed in %s but not a request rocectl sends with a real answer"
                        % (p, PENDING))
    for f in failures:
        print("FAIL: " + f)
    print("# checked: " + "; ".join(sorted(checked)))
    for o in OTHERS:
        print("# other request: " + o)
    print("# shape: %d commands checked, %d unverified: %s"
          % (len(checked), len(unverified), "; ".join(sorted(unverified))))
    return 1 if failures else 0


if __name__ == "__main__":
    if os.environ.get("SHAPE_NETNS") != "1":
        # a network namespace of our own: the simulator's REST server listens on every
        # address of it, and nothing outside can reach it
        os.environ["SHAPE_NETNS"] = "1"
        os.execvp("unshare", ["unshare", "-rn", sys.executable, os.path.abspath(__file__)] +
                  sys.argv[1:])
    sys.exit(main())
