#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The fault campaign: seeded trials of `rocectl apply` with one fault each, over lab fabrics
of every platform mix (tests/faults/README.md).

After every trial, device by device, the device's configuration must be EXACTLY its pre-run
state or EXACTLY the state a clean apply from that same pre-run state reaches ("the policy").
Configurations are read through the simulators' own files (switch state files, nicsim host
directories), never through rocectl.  Prints one line per trial and, last,
"N trials, N held, N failed" with the seed of each failure so that it replays:

    campaign.py --lab-root DIR --trials 1 --seed SEED

Root only (the lab needs namespaces and sshd).  Environment: ROCECTL (the binary under test),
BUILD_DIR (simulators), SRC_DIR (the tree).
"""
import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SRC = os.environ.get("SRC_DIR") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
LAB = os.path.join(SRC, "tests", "lab", "lab")
SIMCTL = os.path.join(SRC, "tests", "sim", "switch", "simctl")
NICSIM = os.path.join(SRC, "tests", "sim", "nic", "nicsim")
POLICY = os.path.join(SRC, "policies", "roce-lossless.yaml")
LAB_USER = os.environ.get("SWITCHSIM_USER", "switchsim")
APPLY_TIMEOUT_S = 150  # a trial whose apply runs longer than this has hung: a failure

# The fabrics: every platform and transport, each brought up once per campaign.
FABRICS = {
    # hosts with MLNX_OFED's sysfs ECN files here, upstream mlx5 with debugfs cc_params in
    # "mixed", so that the EPERM faults reach every file kind the agent writes
    "nvue": {"args": ["--hosts", "2", "--leaves", "2", "--spines", "1", "--host-features", "ofed"], "inventories": ["inventory.yaml", "inventory-rest.yaml"]},
    "mixed": {"args": ["--hosts", "2", "--leaves", "3", "--spines", "1", "--platforms", "nvue,sonic,eos", "--host-features", "debugfs"], "inventories": ["inventory.yaml", "inventory-rest.yaml"]},
    # one platform each: SONiC (SSH only: rocectl reaches SONiC over SSH) and EOS (SSH and eAPI)
    "sonic": {"args": ["--hosts", "2", "--leaves", "2", "--spines", "1", "--platforms", "sonic", "--host-features", "debugfs"], "inventories": ["inventory.yaml"]},
    "eos": {"args": ["--hosts", "2", "--leaves", "2", "--spines", "1", "--platforms", "eos", "--host-features", "ofed"], "inventories": ["inventory.yaml", "inventory-rest.yaml"]},
    # the quick form (tests/faults/quick.sh, t8300-faults-quick.sh): every platform and transport on
    # fabrics small enough for `make test`
    "quick-nvue": {"args": ["--hosts", "1", "--nics", "1", "--leaves", "1", "--spines", "0", "--host-features", "ofed"], "inventories": ["inventory.yaml", "inventory-rest.yaml"]},
    "quick-mixed": {"args": ["--hosts", "2", "--nics", "1", "--leaves", "2", "--spines", "0", "--platforms", "sonic,eos", "--host-features", "debugfs"], "inventories": ["inventory.yaml", "inventory-rest.yaml"]},
}
FULL_FABRICS = "nvue,sonic,eos,mixed"

# Per-command deadlines the trials' inventories use, so that a hung device fails in seconds.
TIMEOUTS = "defaults:\n  ssh: {connect_timeout: 5s, command_timeout: 10s}\n  rest: {timeout: 10s}\n"


def log(msg):
    print(msg, flush=True)


def run(cmd, timeout=None, **kw):
    return subprocess.run(cmd, timeout=timeout, capture_output=True, text=True, errors="replace", **kw)


# ---------------------------------------------------------------- device views


def drop_unused_derived(db):
    """Drop the lossless profiles buffermgrd made (pg_lossless_*) that nothing references:
    buffermgrd never deletes one (sonic-swss cfgmgr/buffermgr.cpp, doSpeedUpdateTask), and
    GCU refuses to remove one before the release whose validator rules allow it, so a
    rollback there leaves the run's profile unused (tests/faults/README.md)."""
    profs = db.get("BUFFER_PROFILE")
    if not isinstance(profs, dict):
        return
    used = set()
    for t in ("BUFFER_PG", "BUFFER_QUEUE", "BUFFER_PORT_INGRESS_PROFILE_LIST", "BUFFER_PORT_EGRESS_PROFILE_LIST"):
        for row in (db.get(t) or {}).values():
            if isinstance(row, dict):
                used.add(str(row.get("profile")))
                used.update(str(row.get("profile_list", "")).split(","))
    for name in [n for n in profs if n.startswith("pg_lossless_") and n not in used]:
        del profs[name]


def switch_view(path):
    """The configuration of a simulated switch: its state file without what changes on every
    run (revision and session numbers, counters, faults, the operational view derived from
    the configuration).  What a run leaves behind (a staged revision, an open session) is
    counted, so it differs from the pre-run state."""
    with open(path) as f:
        st = json.load(f)
    for k in ("counters", "faults", "operational"):
        st.pop(k, None)
    nv = st.get("nvue")
    if isinstance(nv, dict):
        revs = nv.pop("revisions", {}) or {}
        # a revision still waiting to be applied; applied, invalid (refused) and failed ones
        # are history, as on the device
        nv["staged_revisions"] = sorted(str(r.get("state")) for r in revs.values() if r.get("state") in ("pending", "confirm", "ready", "applying"))
        for k in ("next-rev", "applied-rev"):
            nv.pop(k, None)
    sn = st.get("sonic")
    if isinstance(sn, dict):
        sn.pop("checkpoints", None)
        for db in (sn.get("config_db"), sn.get("startup")):
            if isinstance(db, dict):
                drop_unused_derived(db)
    eos = st.get("eos")
    if isinstance(eos, dict):
        sess = eos.pop("sessions", {}) or {}
        eos["open_sessions"] = sorted(str(s.get("state")) for s in sess.values() if s.get("state") == "pending")
        eos.pop("next-session", None)
    return st


def host_view(hdir):
    """A simulated host's configuration: its NICs' canonical state files and every file of
    its sysfs/configfs/debugfs tree but counters."""
    view = {}
    for root, dirs, files in os.walk(hdir):
        dirs[:] = sorted(d for d in dirs if "counters" not in d)
        for name in sorted(files):
            rel = os.path.relpath(os.path.join(root, name), hdir)
            if rel in ("lock", "writes.log", "faults") or name.endswith(".counters") or "statistics" in rel or name.startswith("carrier_"):
                continue  # counters, link-flap counts and the simulator's own files
            try:
                with open(os.path.join(root, name), errors="replace") as f:
                    text = f.read()
                # a NIC's canonical state: one "key value" line each
                view[rel] = dict(l.split(" ", 1) for l in text.splitlines() if " " in l and not l.startswith("#")) if rel.endswith(".state") else text
                # mlx5 cannot give back a DSCP's firmware default: deleting an APP entry
                # maps the DSCP to priority 0, not to its default dscp >> 3 (kernel
                # en_dcbnl.c, mlx5e_dcbnl_ieee_delapp, "Restore to default").  No API reaches
                # the pre-run value, so the firmware map is left out (README.md).
                if isinstance(view[rel], dict):
                    view[rel].pop("fw-dscp2prio", None)
            except OSError as e:
                view[rel] = "<unreadable: %s>" % e.strerror
    return view


class Fabric:
    def __init__(self, name, root):
        self.name = name
        self.dir = os.path.join(root, name)
        self.spec = FABRICS[name]
        self.factory = os.path.join(root, name + ".factory")

    def up(self):
        r = run([LAB, "up", self.dir] + self.spec["args"], timeout=300)
        if r.returncode:
            raise RuntimeError("lab up %s failed: %s" % (self.name, r.stderr.strip()))
        with open(os.path.join(self.dir, "topology")) as f:
            self.topology = f.read()
        self.switches = sorted(n[:-5] for n in os.listdir(self.switch_dir()) if n.endswith(".json"))
        self.hosts = sorted(os.listdir(os.path.join(self.dir, "hosts")))
        self.save(self.factory)

    def down(self):
        run([LAB, "down", self.dir], timeout=120)

    def switch_dir(self):
        return os.path.realpath(os.path.join(self.dir, "switchsim", "switches"))

    def host_dir(self, h):
        return os.path.realpath(os.path.join(self.dir, "hosts", h))

    def host_journal(self, h):
        env = open(os.path.join(self.dir, "lab.env")).read().split("\n")
        run_dir = [l.split("=", 1)[1] for l in env if l.startswith("RUN=")][0]
        return os.path.join(run_dir, "journal", h)

    # raw snapshots of every device (switch state files, host directories, agents' journals)
    def save(self, dest):
        shutil.rmtree(dest, ignore_errors=True)
        os.makedirs(os.path.join(dest, "switches"))
        for s in self.switches:
            shutil.copy2(os.path.join(self.switch_dir(), s + ".json"), os.path.join(dest, "switches"))
        for h in self.hosts:
            shutil.copytree(self.host_dir(h), os.path.join(dest, "hosts", h), symlinks=True)
            j = self.host_journal(h)
            if os.path.isdir(j):
                shutil.copytree(j, os.path.join(dest, "journals", h), symlinks=True)

    def restore(self, src):
        for s in self.switches:
            tmp = os.path.join(self.switch_dir(), "." + s + ".restore")
            shutil.copy2(os.path.join(src, "switches", s + ".json"), tmp)
            shutil.chown(tmp, LAB_USER, LAB_USER)
            os.rename(tmp, os.path.join(self.switch_dir(), s + ".json"))
        for h in self.hosts:
            d = self.host_dir(h)
            shutil.rmtree(d)
            shutil.copytree(os.path.join(src, "hosts", h), d, symlinks=True)
            j = self.host_journal(h)
            shutil.rmtree(j, ignore_errors=True)
            if os.path.isdir(os.path.join(src, "journals", h)):
                shutil.copytree(os.path.join(src, "journals", h), j, symlinks=True)
            else:
                os.makedirs(j, exist_ok=True)
            run(["chown", "-R", "%s:%s" % (LAB_USER, LAB_USER), d, j])

    def views(self):
        v = {}
        for s in self.switches:
            v[s] = switch_view(os.path.join(self.switch_dir(), s + ".json"))
        for h in self.hosts:
            v[h] = host_view(self.host_dir(h))
        return v

    def quiesce(self, limit_s=30):
        """Wait until no simulated device is still serving a command (a killed controller's
        remote commands run on to their end, as on a real switch)."""
        # only this lab's: other labs on the machine (other trees' tests) serve commands
        # too, and their command lines name their own run directories
        runs = [self.env("lab.env", "RUN"), self.env(os.path.join("switchsim", "lab.env"), "RUN")]
        pattern = "(switchsim-cli|host-shell|nicsim run).*(%s)" % "|".join(re.escape(r) for r in runs if r)
        deadline = time.time() + limit_s
        while time.time() < deadline:
            r = run(["pgrep", "-f", pattern])
            if r.returncode != 0:
                return True
            time.sleep(0.2)
        return False

    def own_rocectl(self, work):
        """This trial's rocectl processes still running: the controller (its journal is under
        WORK) and the hosts' agents (RUN/bin/rocectl).  Other trees' tests run the same
        binary beside the campaign: their processes are not this trial's."""
        left = []
        agent = os.path.join(self.env("lab.env", "RUN"), "bin", "rocectl")
        controller = os.path.realpath(os.environ["ROCECTL"])
        for pid in run(["pgrep", "rocectl"]).stdout.split():
            try:
                exe = os.readlink("/proc/%s/exe" % pid).replace(" (deleted)", "")
                with open("/proc/%s/cmdline" % pid, "rb") as f:
                    cmd = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
                with open("/proc/%s/environ" % pid, "rb") as f:
                    env = f.read().split(b"\0")
            except OSError:
                continue  # gone meanwhile
            mine = exe == agent or (exe == controller and any(e.startswith(b"ROCECTL_JOURNAL=" + work.encode()) for e in env))
            if mine:
                left.append("%s %s" % (pid, cmd[:120]))
        return left

    def env(self, name, key):
        """KEY's value in one of the lab's env files (lab.env, switchsim/lab.env)."""
        try:
            with open(os.path.join(self.dir, name)) as f:
                for line in f:
                    if line.startswith(key + "="):
                        return line.split("=", 1)[1].strip().strip("'")
        except OSError:
            pass
        return ""

    def rocectl(self, args, journal, timeout=APPLY_TIMEOUT_S, background=False, extra_env=None):
        cmd = [LAB, "exec", self.dir, "--", os.environ["ROCECTL"]] + args
        # the device locks are this campaign's: other labs on the machine have devices of the
        # same names (gpu001, leaf01), and their runs must not hold ours
        env = dict(os.environ, ROCECTL_JOURNAL=journal, ROCECTL_LOCK_DIR=os.path.join(os.path.dirname(self.dir), "locks"))
        env.pop("ROCECTL_CRASH_AT", None)
        env.update(extra_env or {})
        if background:
            return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace", start_new_session=True)
        return subprocess.run(cmd, env=env, timeout=timeout, capture_output=True, text=True, errors="replace")

    def clear_faults(self):
        clear_overrides(self)
        for s in self.switches:
            run([SIMCTL, "fault", os.path.join(self.dir, "switchsim"), s, "clear"])
        for h in self.hosts:
            self.nicsim_fault(h, ["clear"])

    def nicsim_fault(self, h, args):
        return run(["runuser", "-u", LAB_USER, "--", NICSIM, "fault", self.host_dir(h)] + args)


# ---------------------------------------------------------------- faults

# The files the agent writes, by NIC stack (configfs always; MLNX_OFED sysfs; upstream
# mlx5 debugfs cc_params, drivers/host/mlx5_cc.c); only those the host has are drawn.
HOST_EPERM = [
    "sys/kernel/config/rdma_cm/{rdma}/ports/1/default_roce_tos",
    "sys/class/net/{nic}/ecn/roce_np/enable/3",
    "sys/class/net/{nic}/ecn/roce_rp/enable/3",
    "sys/class/net/{nic}/ecn/roce_np/cnp_dscp",
    "sys/kernel/debug/mlx5/{pci}/cc_params/np_cnp_dscp",
    "sys/kernel/debug/mlx5/{pci}/cc_params/np_cnp_prio",
]

# A host's rocectl from its Nth call on (0: the first read): missing, silent, garbage, 1 GB
# of output, or answering garbage after the real command took effect (tests/lab/host-shell
# puts RUN/override/HOST first on PATH).
AGENT_MODES = {
    "missing": 'echo "sh: 1: rocectl: not found" >&2; exit 127',
    "empty": "exit 0",
    "garbage": "head -c 3000 /dev/urandom; echo; exit 0",
    "crash": "echo Segmentation fault >&2; exit 139",
    "huge": "head -c 1073741824 /dev/zero | tr '\\000' x; exit 0",
    "garbage-after": '"$real" "$@" >/dev/null 2>&1; echo "{\\"interfaces\\": [tru"; exit 0',
}


ONLY_KINDS = set()  # --kinds: draw only these (a focused run); empty: every kind
COMMANDS = ["apply"]  # --commands: the faulted command of a trial, drawn per seed
ALL_COMMANDS = ("apply", "enforce-confirm", "confirm", "rollback-run")


def faulted_command(seed, inv, work):
    """The command a trial faults: `apply`, or `enforce --confirm` (README.md "Commit-confirm"
    in docs/ENFORCE.md), which repairs the same drift and keeps it only when every device
    verifies after it, else rolls every repaired device back, or `confirm RUN` of a run
    applied with --confirm, or `rollback RUN` of a run that finished (both set up unfaulted
    first: their command line is completed once the run exists).  Drawn from its own stream
    so that adding a command leaves each seed's fault the same."""
    which = random.Random(seed * 7919 + 1).choice(COMMANDS)
    if which == "apply":
        return which, ["apply", "-p", POLICY, "-i", inv]
    if which in ("confirm", "rollback-run"):
        return which, None
    # every field repaired (PFC too) and no quarantine carried from trial to trial
    return which, ["enforce", "-p", POLICY, "-i", inv, "--disruptive", "allow", "--quarantine-after", "0",
                   "--state", os.path.join(work, "enforce-state.json"), "--confirm", "30s"]


# The named steps of the run transaction (include/rocectl/txn.h) a "crashat" fault stops
# the faulted command at (ROCECTL_CRASH_AT: an _exit(137) there, as kill -9 leaves it);
# tests/faults/crashpoints.py goes through every one of them in order.
CRASH_POINTS = {
    "apply": ["dev.snapped", "dev.write.sent", "dev.verified", "dev.done", "apply.devices.done"],
    "confirm": ["confirm.locked", "confirm.device", "confirm.recorded"],
    "rollback-run": ["rollback.claimed", "rollback.device", "rollback.restored"],
    # rollback RUN of a finished run claims no confirm record: its steps are the devices'
    "rollback-finished": ["rollback.device", "rollback.restored"],
    "enforce-confirm": ["txn.record.applying", "txn.timer.armed", "dev.snapped", "dev.write.sent", "dev.verified", "dev.done",
                          "apply.devices.done", "txn.checked", "txn.record.pending", "confirm.locked", "confirm.device", "confirm.recorded"],
}


def crash_fault(seed, cmd_name):
    """About one trial in eight (drawn from a stream of its own, so that the other seeds keep
    their faults) crashes at a named step instead; every one with --kinds crashat."""
    rng = random.Random(seed * 104729 + 3)
    if ONLY_KINDS and "crashat" not in ONLY_KINDS:
        return None
    if ONLY_KINDS == {"crashat"} or rng.random() < 0.125:
        return "crashat", "rocectl", rng.choice(CRASH_POINTS[cmd_name])
    return None


def proc_alive(pid, start):
    """The process of a run record's owner or timer: its pid and start time (field 22 of
    /proc/PID/stat, include/rocectl/txn.h), and not a zombie."""
    try:
        with open("/proc/%d/stat" % int(pid)) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return fields[0] not in ("Z", "X") and int(fields[19]) == int(start)
    except (OSError, ValueError, IndexError, TypeError):
        return False


def settle_runs(confirm_dir, limit_s=90, near_s=60):
    """Until no run record in CONFIRM_DIR is being worked on: its owner alive, or its timer
    alive with something to do soon (the run applying, or pending with its deadline less
    than near_s away).  The timer runs as /proc/self/exe ("exe"): pgrep does not name it."""
    end = time.time() + limit_s
    while time.time() < end:
        busy = False
        try:
            names = [n for n in os.listdir(confirm_dir) if n.endswith(".json")]
        except OSError:
            return True
        for n in names:
            try:
                with open(os.path.join(confirm_dir, n)) as f:
                    r = json.load(f)
            except (OSError, ValueError):
                continue
            if r.get("state") in ("confirmed", "rolled back", "rollback failed"):
                continue
            timer = proc_alive(r.get("timer_pid", 0), r.get("timer_start", 0))
            owner = proc_alive(r.get("owner_pid", 0), r.get("owner_start", 0))
            if r.get("state") == "pending":
                busy |= timer and r.get("deadline", 0) - time.time() < near_s
            else:
                busy |= owner or (timer and r.get("state") == "applying")
        if not busy:
            return True
        time.sleep(0.5)
    return False


def switch_platform(fab, sw):
    for line in fab.topology.splitlines():
        f = line.split()
        if len(f) >= 5 and f[0] == "switch" and f[1] == sw:
            return f[4]
    return ""


def pick_fault(rng, fab, inv):
    """One fault, chosen by the trial's seed: (kind, target, detail)."""
    rest = "rest" in inv
    kinds = ["drop", "hang", "reject", "kill9", "kill9", "netlink", "eperm", "agent", "journal-ro", "journal-full"]
    # REST answers 5xx: the switches the REST inventory reaches over HTTPS (SONiC stays SSH)
    rest_sw = [s for s in fab.switches if switch_platform(fab, s) in ("nvue", "eos")] if rest else []
    if rest_sw:
        kinds.append("http5xx")
    if ONLY_KINDS:
        kinds = [k for k in kinds if k in ONLY_KINDS] or ["kill9"]
    kind = rng.choice(kinds)
    if kind == "http5xx":
        status = rng.choice(["500", "502", "503", "504"])
        return kind, rng.choice(rest_sw), "%d %s%s" % (rng.randint(0, 10), status, " after" if rng.random() < 0.5 else "")
    if kind == "agent":
        return kind, rng.choice(fab.hosts), "%s %d" % (rng.choice(sorted(AGENT_MODES)), rng.randint(0, 3))
    if kind in ("drop", "hang", "reject"):
        sw = rng.choice(fab.switches)
        if kind == "drop":
            return kind, sw, str(rng.randint(0, 12))
        if kind == "reject":
            return kind, sw, "1"
        return kind, sw, "always" if rng.random() < 0.3 else ""
    if kind == "netlink":
        return kind, rng.choice(fab.hosts), str(rng.randint(1, 8))
    if kind == "eperm":
        h = rng.choice(fab.hosts)
        paths = [p for p in HOST_EPERM if os.path.exists(os.path.join(fab.host_dir(h), eperm_path(fab, h, p)))]
        return kind, h, rng.choice(paths or HOST_EPERM)
    if kind == "kill9":
        return kind, "rocectl", "%.2f" % rng.uniform(0.05, 4.0 if not rest else 3.0)
    return kind, "journal", ""


def host_nics(fab, h):
    nics = sorted(n[:-6] for n in os.listdir(os.path.join(fab.host_dir(h), "nics")) if n.endswith(".state"))
    return nics


def eperm_path(fab, h, pattern):
    """PATTERN for the host's first NIC: {nic}, {rdma}, {pci} (its PCI function)."""
    nic = host_nics(fab, h)[0]
    idx = int(nic[3:5]) - 12 if nic.startswith("enp") else 0
    pci = ""
    try:
        pci = os.path.basename(os.readlink(os.path.join(fab.host_dir(h), "sys/class/net", nic, "device")))
    except OSError:
        pass
    return pattern.format(nic=nic, rdma="mlx5_%d" % idx, pci=pci)


def agent_override(fab, h, mode, after):
    """RUN/override/HOST/rocectl: the real rocectl for the first AFTER calls, then MODE."""
    run_dir = fab.env("lab.env", "RUN")
    d = os.path.join(run_dir, "override", h)
    os.makedirs(d, exist_ok=True)
    os.chmod(os.path.dirname(d), 0o755)
    with open(os.path.join(d, "rocectl"), "w") as f:
        f.write("#!/bin/sh\n# the fault campaign: %s from call %d on\n" % (mode, after))
        f.write('real=%s\nd=$(dirname "$0")\n' % os.path.join(run_dir, "bin", "rocectl"))
        f.write('n=$(cat "$d/calls" 2>/dev/null || echo 0)\necho $((n + 1)) >"$d/calls"\n')
        f.write('[ "$n" -ge %d ] || exec "$real" "$@"\n%s\n' % (after, AGENT_MODES[mode]))
    os.chmod(os.path.join(d, "rocectl"), 0o755)
    run(["chown", "-R", "%s:%s" % (LAB_USER, LAB_USER), d])


def clear_overrides(fab):
    run_dir = fab.env("lab.env", "RUN")
    if run_dir:
        shutil.rmtree(os.path.join(run_dir, "override"), ignore_errors=True)


def inject(fab, fault):
    kind, target, detail = fault
    sd = os.path.join(fab.dir, "switchsim")
    if kind == "drop":
        return run([SIMCTL, "fault", sd, target, "drop-after", detail])
    if kind == "reject":
        return run([SIMCTL, "fault", sd, target, "reject-next", detail])
    if kind == "hang":
        return run([SIMCTL, "fault", sd, target, "hang"] + ([detail] if detail else []))
    if kind == "netlink":
        return fab.nicsim_fault(target, ["fail-set", detail])
    if kind == "eperm":
        return fab.nicsim_fault(target, ["eperm", eperm_path(fab, target, detail)])
    if kind == "http5xx":
        return run([SIMCTL, "fault", sd, target, "http-error"] + detail.split())
    if kind == "agent":
        mode, after = detail.split()
        return agent_override(fab, target, mode, int(after))
    return None


# ---------------------------------------------------------------- one trial


class Journal:
    """The controller's journal directory for a trial: a plain one, or a read-only or full
    filesystem (tmpfs) for the journal faults."""

    def __init__(self, base, kind):
        self.path = tempfile.mkdtemp(prefix="journal.", dir=base)
        self.mounted = False
        if kind in ("journal-ro", "journal-full"):
            size = "64k" if kind == "journal-full" else "1m"
            run(["mount", "-t", "tmpfs", "-o", "size=%s,mode=0700" % size, "rocectl-faults", self.path])
            self.mounted = True
            if kind == "journal-full":
                with open(os.path.join(self.path, "filler"), "wb") as f:
                    try:
                        f.write(b"\0" * (1 << 20))
                    except OSError:
                        pass
            else:
                run(["mount", "-o", "remount,ro", self.path])

    def writable(self):
        """The same journal, made usable for the rollback that follows a fault."""
        if self.mounted:
            run(["mount", "-o", "remount,rw", self.path])
            try:
                os.unlink(os.path.join(self.path, "filler"))
            except OSError:
                pass

    def close(self):
        if self.mounted:
            run(["umount", "-l", self.path])
        shutil.rmtree(self.path, ignore_errors=True)


def differences(a, b, limit=3):
    out = []
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                sub = differences(a.get(k), b.get(k), limit)
                out += [("%s%s%s" % (k, "" if s.startswith(":") else ".", s)) for s in sub] or [k]
                if len(out) >= limit:
                    break
        return out[:limit]
    if a == b:
        return []
    return [": %s -> %s" % (json.dumps(a)[:60], json.dumps(b)[:60])]


def second_step_fault(fault):
    """A fault for `confirm RUN` or `rollback RUN`: their run is set up first with a usable
    journal (a journal fault becomes a kill), and they take a second or two, so a kill comes
    sooner."""
    if fault[0].startswith("journal"):
        return ("kill9", "rocectl", "0.50")
    if fault[0] == "kill9":
        return ("kill9", "rocectl", "%.2f" % (float(fault[2]) * 0.4))
    return fault


def pending_run(seed, cmd_name):
    """Whether the run a trial works on is pending its confirm (always for `confirm RUN`,
    half the time for `rollback RUN`, from a stream of its own) or finished."""
    return cmd_name == "confirm" or random.Random(seed * 31 + 7).random() < 0.5


def set_up_run(fab, cmd_name, inv, journal, pending):
    """The run a `confirm RUN` or `rollback RUN` trial works on: applied with --confirm (a
    deadline far enough that its timer stays out of the trial), or applied and finished.
    Returns (run id, None) or (None, why)."""
    args = ["apply", "-p", POLICY, "-i", inv]
    if pending:
        args += ["--confirm", "150s"]
    r = fab.rocectl(args, journal.path)
    if r.returncode != 0:
        return None, "the apply that sets the run up failed (exit %d): %s" % (r.returncode, (r.stdout + r.stderr).strip()[-300:])
    for line in r.stdout.splitlines():
        f = line.split()
        if pending and line.startswith("confirm with: rocectl confirm ") and len(f) > 4:
            return f[4], None
        if not pending and len(f) == 2 and f[0] == "run":
            return f[1], None
    return None, "no run id in the output of the apply that sets the run up"


def finish_run(fab, cmd_name, run_id, inv, journal, notes):
    """What an operator does after a confirm or a rollback RUN was interrupted: the same
    command again, which must finish it (both are resumable); a confirm refused (its
    deadline passed, a device that cannot take it) leaves the run to `rollback RUN`.
    Returns None or what went wrong."""
    if cmd_name == "confirm":
        r = fab.rocectl(["confirm", run_id], journal.path)
        notes.append("confirm again exit %d" % r.returncode)
        if r.returncode == 0:
            notes.append("outcome confirmed")
            return None
    r = fab.rocectl(["rollback", run_id, "-i", inv], journal.path)
    notes.append("rollback RUN again exit %d" % r.returncode)
    if r.returncode != 0:
        return "rollback %s again failed (exit %d): %s" % (run_id, r.returncode, (r.stdout + r.stderr).strip()[-300:])
    notes.append("outcome rolled-back")
    return None


def run_outcome(notes):
    for n in reversed(notes):
        if n.startswith("outcome "):
            return n.split()[1]
    return None


def trial(fab, inv_name, seed, work, drift_pre):
    rng = random.Random(seed)
    inv = os.path.join(work, "inv-%s-%s" % (fab.name, inv_name))
    if not os.path.exists(inv):
        with open(os.path.join(fab.dir, inv_name)) as f:
            text = f.read()
        with open(inv, "w") as f:
            f.write(text.replace("kind: Inventory\n", "kind: Inventory\n" + TIMEOUTS, 1))
    pre_raw = os.path.join(work, "pre")
    fab.restore(fab.factory)
    if drift_pre:
        r = run([LAB, "drift", fab.dir, str(seed % 100000), str(rng.randint(1, 3))], timeout=120)
        if r.returncode:
            return False, "lab drift failed: " + r.stderr.strip()[-300:]
    fab.save(pre_raw)
    pre = fab.views()

    # the policy's state from this same pre-run state: a clean apply
    golden_j = tempfile.mkdtemp(prefix="golden.", dir=work)
    r = fab.rocectl(["apply", "-p", POLICY, "-i", inv], golden_j)
    shutil.rmtree(golden_j, ignore_errors=True)
    if r.returncode != 0:
        errs = [l for l in (r.stdout + r.stderr).splitlines() if "error" in l or "failed" in l] or (r.stdout + r.stderr).splitlines()[-4:]
        return False, "the clean apply failed (exit %d): %s" % (r.returncode, " | ".join(errs)[-600:])
    fab.quiesce()
    golden = fab.views()
    fab.restore(pre_raw)

    fault = pick_fault(rng, fab, inv_name)
    cmd_name, cmd = faulted_command(seed, inv, work)
    if cmd is None:
        fault = second_step_fault(fault)
    # the crash point first: the journal is made for the fault the trial really injects (a
    # crash over a full journal's filler file would be two faults, and the filler a foreign
    # file rocectl rightly refuses to restore from)
    fault = crash_fault(seed, cmd_name if cmd_name != "rollback-run" or pending_run(seed, cmd_name) else "rollback-finished") or fault
    journal = Journal(work, fault[0])
    what = "%s: %s %s %s" % ((cmd_name,) + fault)
    notes = []
    run_id = None
    try:
        if cmd is None:
            pending = pending_run(seed, cmd_name)
            run_id, err = set_up_run(fab, cmd_name, inv, journal, pending)
            if err:
                return False, "%s: %s" % (what, err)
            cmd = ["confirm", run_id] if cmd_name == "confirm" else ["rollback", run_id, "-i", inv]
            notes.append("%s run %s" % ("pending" if pending else "finished", run_id))
        inject(fab, fault)
        if fault[0] == "kill9":
            p = fab.rocectl(cmd, journal.path, background=True)
            time.sleep(float(fault[2]))
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()
            # a --confirm run killed after its timer was armed is the timer's: it rolls the
            # run back at the deadline (or at once, if killed before pending); wait for it as
            # for a crash, then recover
            if not settle_runs(os.path.join(os.path.dirname(journal.path), "confirm")):
                return False, "%s: a run's owner or timer was still at work 90 s after the kill" % what
            fab.quiesce()
            if run_id:
                fab.clear_faults()
                err = finish_run(fab, cmd_name, run_id, inv, journal, notes)
                if err:
                    return False, "%s: %s [%s]" % (what, err, "; ".join(notes))
            r = fab.rocectl(["rollback", "-i", inv, "--journal", journal.path], journal.path)
            notes.append("rollback exit %d" % r.returncode)
            if r.returncode not in (0,):
                notes.append(r.stdout.strip()[-300:])
        elif fault[0] == "crashat":
            r = fab.rocectl(cmd, journal.path, extra_env={"ROCECTL_CRASH_AT": fault[2]})
            notes.append("%s exit %d" % (cmd_name, r.returncode))
            # the confirm timer (it inherits the variable) finishes what it may first
            if not settle_runs(os.path.join(os.path.dirname(journal.path), "confirm")):
                return False, "%s: a run's owner or timer was still at work 90 s after the crash" % what
            fab.quiesce()
            if run_id:
                err = finish_run(fab, cmd_name, run_id, inv, journal, notes)
                if err:
                    return False, "%s: %s [%s]" % (what, err, "; ".join(notes))
            r = fab.rocectl(["rollback", "-i", inv, "--journal", journal.path], journal.path)
            notes.append("rollback exit %d" % r.returncode)
            if r.returncode != 0:
                return False, "%s: the recovery rollback failed: %s" % (what, (r.stdout + r.stderr).strip()[-300:])
        else:
            try:
                r = fab.rocectl(cmd, journal.path)
                notes.append("%s exit %d" % (cmd_name, r.returncode))
            except subprocess.TimeoutExpired:
                return False, "%s: %s hung past %d s" % (what, cmd_name, APPLY_TIMEOUT_S)
            if fault[0].startswith("journal"):
                journal.writable()
            if run_id:
                fab.clear_faults()
                fab.quiesce()
                err = finish_run(fab, cmd_name, run_id, inv, journal, notes)
                if err:
                    return False, "%s: %s [%s]" % (what, err, "; ".join(notes))
        fab.clear_faults()
        if not fab.quiesce():
            return False, "%s: a device command was still running 30 s after rocectl ended" % what
        left = fab.own_rocectl(work)
        if left:
            return False, "%s: rocectl processes left behind: %s" % (what, " | ".join(left))
        post = fab.views()
    finally:
        journal.close()
    bad = []
    # an operator who finished the run by hand gets exactly what was asked: a confirmed run
    # is the policy on every device, a rolled-back run the pre-run state on every device
    want = {"confirmed": golden, "rolled-back": pre}.get(run_outcome(notes))
    for dev in sorted(post):
        if want is not None:
            if post[dev] != want[dev]:
                bad.append("%s is not %s after the run was finished by hand (%s)" % (dev, "the policy" if want is golden else "its pre-run state", ", ".join(differences(want[dev], post[dev]))))
            continue
        if post[dev] == pre[dev] or post[dev] == golden[dev]:
            continue
        bad.append("%s differs from its pre-run state (%s) and from the policy's (%s)" % (dev, ", ".join(differences(pre[dev], post[dev])), ", ".join(differences(golden[dev], post[dev]))))
    if bad:
        return False, "%s: %s [%s]" % (what, "; ".join(bad), "; ".join(notes))
    return True, "%s [%s]" % (what, "; ".join(notes))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--seed", type=int, default=None, help="first trial's seed (default: from the clock)")
    ap.add_argument("--lab-root", default=None)
    ap.add_argument("--fabrics", default=FULL_FABRICS, help="of: " + ", ".join(FABRICS))
    ap.add_argument("--kinds", default="", help="draw only these fault kinds (comma-separated), e.g. kill9")
    ap.add_argument("--commands", default="apply", help="the faulted commands, drawn per trial (comma-separated): " + ", ".join(ALL_COMMANDS))
    a = ap.parse_args()
    COMMANDS[:] = [c for c in a.commands.split(",") if c in ALL_COMMANDS] or ["apply"]
    ONLY_KINDS.update(k for k in a.kinds.split(",") if k)
    if os.geteuid() != 0:
        log("campaign: root only (network namespaces, sshd)")
        return 2
    base = a.seed if a.seed is not None else int(time.time()) % 1000000
    root = a.lab_root or tempfile.mkdtemp(prefix="rocectl-faults.")
    os.makedirs(root, exist_ok=True)
    fabs = [Fabric(n, root) for n in a.fabrics.split(",")]
    held = failed = 0
    failures = []
    try:
        for f in fabs:
            f.up()
        combos = [(f, i) for f in fabs for i in f.spec["inventories"]]
        for k in range(a.trials):
            seed = base + k
            fab, inv = combos[seed % len(combos)]
            work = tempfile.mkdtemp(prefix="trial.", dir=root)
            try:
                ok, msg = trial(fab, inv, seed, work, drift_pre=(seed // len(combos)) % 2 == 1)
            except Exception as e:  # a broken trial is a failure, never a pass
                ok, msg = False, "campaign error: %r" % e
            finally:
                shutil.rmtree(work, ignore_errors=True)
            label = "%s/%s" % (fab.name, inv.replace(".yaml", ""))
            if ok:
                held += 1
                log("ok %d - seed %d %s: %s" % (k + 1, seed, label, msg))
            else:
                failed += 1
                failures.append(seed)
                log("not ok %d - seed %d %s: %s" % (k + 1, seed, label, msg))
    finally:
        for f in fabs:
            f.down()
        if not a.lab_root:
            shutil.rmtree(root, ignore_errors=True)
    log("%d trials, %d held, %d failed%s" % (held + failed, held, failed, (" (seeds: %s)" % " ".join(map(str, failures))) if failures else ""))
    return 0 if failed == 0 and held > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
