#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every named step of the run transaction, crashed at (include/rocectl/txn.h).

For each (command, crash point) pair: the lab back to its factory state, the command run
with ROCECTL_CRASH_AT=POINT (the process, or the confirm timer it started, _exit(137)s
there as a kill -9 would), whatever timer is still alive left to do its work, then the
recovery an operator runs (`rocectl rollback`, or `rocectl confirm RUN` again for an
interrupted confirm), and every device's running and startup configuration, read from the
simulators' own state files (campaign.py's views), must be exactly its pre-run state or
exactly the policy's.  Every crash point `rocectl` lists (ROCECTL_CRASH_LIST=1) must be
reached by at least one step: a new step nobody covers fails the run.

    python3 tests/faults/crashpoints.py --lab-root DIR [--fabric NAME] [--points a,b]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import campaign  # noqa: E402

# One NVUE leaf over SSH, one over REST, SONiC, EOS and a host: every platform and
# transport in one run (the REST leaf is switched over in the inventory below).
FABRICS = {
    "crash-mixed": {"args": ["--hosts", "2", "--nics", "1", "--leaves", "3", "--spines", "1", "--platforms", "nvue,sonic,eos", "--host-features", "debugfs"], "inventories": ["inventory.yaml"]},
    "crash-quick": {"args": ["--hosts", "2", "--nics", "1", "--leaves", "2", "--spines", "0", "--platforms", "nvue,eos", "--host-features", "debugfs"], "inventories": ["inventory.yaml"]},
}
WINDOW = "4s"  # --confirm: short, so that the timer's steps come quickly

# (command, points): the commands of the transaction and the steps each one meets.
APPLY_DEV = ["dev.snapped", "dev.write.sent", "dev.verified", "dev.done", "apply.devices.done"]
ARMED = ["txn.record.applying", "txn.timer.armed"]
STEPS = [
    ("apply", APPLY_DEV),
    ("apply --confirm", ARMED + APPLY_DEV + ["txn.checked", "txn.record.pending"]),
    # the timer inherits the variable: it crashes on its own steps at the deadline
    ("apply --confirm", ["timer.started", "timer.fired", "rollback.device", "rollback.restored"]),
    ("enforce --confirm", ARMED + APPLY_DEV + ["txn.checked", "txn.record.pending", "confirm.locked", "confirm.device", "confirm.recorded"]),
    ("confirm", ["confirm.locked", "confirm.device", "confirm.recorded"]),
    ("rollback RUN", ["rollback.claimed", "rollback.device", "rollback.restored"]),
]


def mixed_inventory(fab, work):
    """inventory.yaml with the first NVUE switch over REST when there are two (its block from inventory-rest.yaml)."""
    def blocks(text):
        head, _, rest = text.partition("switches:\n")
        sw, _, tail = rest.partition("links:\n")
        items = ["  - " + b for b in sw.split("  - ")[1:]]
        return head, items, tail

    with open(os.path.join(fab.dir, "inventory.yaml")) as f:
        head, items, tail = blocks(f.read())
    rest_items = []
    if os.path.exists(os.path.join(fab.dir, "inventory-rest.yaml")):
        with open(os.path.join(fab.dir, "inventory-rest.yaml")) as f:
            rest_items = blocks(f.read())[1]
    nvue = [i for i, b in enumerate(items) if "platform: nvue" in b]
    if len(nvue) > 1 and nvue[0] < len(rest_items):
        items[nvue[0]] = rest_items[nvue[0]]
    text = head.replace("kind: Inventory\n", "kind: Inventory\n" + campaign.TIMEOUTS, 1) + "switches:\n" + "".join(items) + "links:\n" + tail
    path = os.path.join(work, "inventory.yaml")
    with open(path, "w") as f:
        f.write(text)
    return path


class Work:
    """The controller's state directories for one step, fresh each time."""

    def __init__(self, root):
        self.root = root

    def reset(self):
        for d in ("journal", "confirm", "history", "locks"):
            shutil.rmtree(os.path.join(self.root, d), ignore_errors=True)
        for f in ("enforce-state.json",):
            try:
                os.unlink(os.path.join(self.root, f))
            except OSError:
                pass

    @property
    def journal(self):
        return os.path.join(self.root, "journal")

    @property
    def confirm(self):
        return os.path.join(self.root, "confirm")


def rocectl(fab, work, args, crash=None, timeout=campaign.APPLY_TIMEOUT_S):
    cmd = [campaign.LAB, "exec", fab.dir, "--", os.environ["ROCECTL"]] + args
    env = dict(os.environ, ROCECTL_JOURNAL=work.journal, ROCECTL_HISTORY=os.path.join(work.root, "history"), ROCECTL_LOCK_DIR=os.path.join(work.root, "locks"))
    env.pop("ROCECTL_CRASH_AT", None)
    if crash:
        env["ROCECTL_CRASH_AT"] = crash
    return subprocess.run(cmd, env=env, timeout=timeout, capture_output=True, text=True, errors="replace")


def runs(work):
    out = {}
    try:
        names = os.listdir(work.confirm)
    except OSError:
        return out
    for n in names:
        if n.endswith(".json"):
            try:
                with open(os.path.join(work.confirm, n)) as f:
                    out[n[:-5]] = json.load(f)
            except (OSError, ValueError):
                out[n[:-5]] = None
    return out


def settle(work, limit_s=90):
    """campaign.settle_runs: a run pending far from its deadline is left pending (a confirm
    may come); one whose timer acts soon is waited for."""
    return campaign.settle_runs(work.confirm, limit_s, near_s=30)


def crashed(r, work):
    """Where the crash point was reached: the command itself, or its timer (its log)."""
    if r.returncode == 137 and "crash point reached" in r.stderr:
        return "command"
    try:
        for n in os.listdir(work.confirm):
            if n.endswith(".log") and "crash point reached" in open(os.path.join(work.confirm, n)).read():
                return "timer"
    except OSError:
        pass
    return None


def run_id_of(out):
    for line in out.splitlines():
        if line.startswith("confirm with: rocectl confirm "):
            return line.split()[4]
    return None


def step(fab, work, inv, command, point, pre, golden):
    """One crash: True/False and what happened."""
    fab.restore(fab.factory)
    work.reset()
    pol = ["-p", campaign.POLICY, "-i", inv]
    notes = []
    run = None
    if command in ("confirm", "rollback RUN"):
        r = rocectl(fab, work, ["apply"] + pol + ["--confirm", "90s"])
        run = run_id_of(r.stdout)
        if not run:
            return False, None, "the apply --confirm before it failed (exit %d): %s" % (r.returncode, (r.stdout + r.stderr)[-300:])
        args = ["confirm", run] if command == "confirm" else ["rollback", run, "-i", inv]
    elif command == "apply":
        args = ["apply"] + pol
    elif command == "apply --confirm":
        args = ["apply"] + pol + ["--confirm", WINDOW]
    else:
        args = ["enforce"] + pol + ["--disruptive", "allow", "--confirm", WINDOW]
    r = rocectl(fab, work, args, crash=point)
    notes.append("exit %d" % r.returncode)
    run = run or run_id_of(r.stdout)
    if not settle(work):
        return False, None, "a timer or owner was still alive 90 s after the crash"
    where = crashed(r, work)
    if command == "confirm":
        # an interrupted confirm is resumed: the run is kept, every device on the policy
        rr = rocectl(fab, work, ["confirm", run])
        notes.append("confirm again exit %d" % rr.returncode)
        if rr.returncode != 0:
            return False, where, "confirm again failed: %s" % (rr.stdout + rr.stderr).strip()[-300:]
    rr = rocectl(fab, work, ["rollback", "-i", inv])
    notes.append("rollback exit %d" % rr.returncode)
    if rr.returncode != 0:
        return False, where, "rollback failed (exit %d): %s" % (rr.returncode, (rr.stdout + rr.stderr).strip()[-400:])
    left = [k for k, v in runs(work).items() if v and v.get("state") not in ("confirmed", "rolled back")]
    if left:
        return False, where, "runs not finished after the recovery: %s" % left
    fab.quiesce()
    post = fab.views()
    bad = []
    for dev in sorted(post):
        want = golden if command == "confirm" else None
        if want is not None and post[dev] != want[dev]:
            bad.append("%s is not the policy after the confirm (%s)" % (dev, ", ".join(campaign.differences(want[dev], post[dev]))))
        elif post[dev] != pre[dev] and post[dev] != golden[dev]:
            bad.append("%s differs from its pre-run state (%s) and from the policy's (%s)" % (dev, ", ".join(campaign.differences(pre[dev], post[dev])), ", ".join(campaign.differences(golden[dev], post[dev]))))
    if bad:
        return False, where, "; ".join(bad) + " [" + "; ".join(notes) + "]"
    return True, where, "; ".join(notes)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lab-root", required=True)
    ap.add_argument("--fabric", default="crash-mixed", choices=sorted(FABRICS))
    ap.add_argument("--points", default="", help="only these crash points (comma-separated)")
    ap.add_argument("--keep", action="store_true", help="leave the lab up")
    a = ap.parse_args()
    known = [l.split("\t")[0] for l in subprocess.run([os.environ["ROCECTL"]], env=dict(os.environ, ROCECTL_CRASH_LIST="1"), capture_output=True, text=True).stdout.splitlines() if l]
    covered = {p for _, pts in STEPS for p in pts}
    missing = [p for p in known if p not in covered]
    unknown = sorted(covered - set(known))
    if missing or unknown:
        print("not ok: crash points not covered: %s; covered but unknown to rocectl: %s" % (missing, unknown))
        return 1
    only = set(filter(None, a.points.split(",")))
    campaign.FABRICS.update(FABRICS)
    os.makedirs(a.lab_root, exist_ok=True)
    fab = campaign.Fabric(a.fabric, a.lab_root)
    work = Work(os.path.join(a.lab_root, "work"))
    os.makedirs(work.root, exist_ok=True)
    failed = 0
    reached = set()
    t0 = time.time()
    try:
        fab.up()
        inv = mixed_inventory(fab, work.root)
        pre = fab.views()
        work.reset()
        r = rocectl(fab, work, ["apply", "-p", campaign.POLICY, "-i", inv])
        if r.returncode != 0:
            print("not ok: the clean apply failed: %s" % (r.stdout + r.stderr)[-500:])
            return 1
        fab.quiesce()
        golden = fab.views()
        n = 0
        for command, points in STEPS:
            for point in points:
                if only and point not in only:
                    continue
                n += 1
                t = time.time()
                ok, where, what = step(fab, work, inv, command, point, pre, golden)
                if where:
                    reached.add(point)
                elif ok:
                    ok, what = False, "the crash point was never reached [%s]" % what
                failed += not ok
                print("%s %d - %s @ %s (%s, %.0fs): %s" % ("ok" if ok else "not ok", n, command, point, where or "-", time.time() - t, what), flush=True)
        print("crash points covered: %s" % " ".join(p for p in known if p in reached))
        print("%d steps, %d failed, %.0f s" % (n, failed, time.time() - t0))
    finally:
        if not a.keep:
            fab.down()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
