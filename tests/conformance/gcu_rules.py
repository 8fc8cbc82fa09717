#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The switch simulator's GCU gate against GCU's own code.

Loads the kit's real field_operation_validators.py (sonic/gcu/, the newest rules, with
gcu_field_operation_validators.conf.json beside it), with stand-ins for what it imports
from a SONiC image (device_info: the ASIC type and build version; the hwsku command; the
package's GenericConfigUpdaterError).  For each patch of a corpus made from a simulated
switch's factory CONFIG_DB, the verdict is computed the way sonic-utilities'
gu_common.py validate_field_operation computes it: the validators named for a table in the
rules file run on every operation of jsonpatch.JsonPatch.from_diff(running, target).  The
simulator's `config apply-patch --dry-run` must agree: refused naming the same table, or not
refused by the validators (a later check such as YANG may still refuse).

usage: gcu_rules.py KIT_DIR BUILD_DIR   (exit 0: every verdict agrees; 1: a disagreement;
2: the environment is missing something)
"""
import copy
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import types

# the kit's HWSKUs, their asic_type, on a 202511 image (the newest rules file's release)
SKUS = [("Arista-7060X6-64PE-B-O128", "broadcom"), ("Arista-7260CX3-D108C8", "broadcom"),
        ("Mellanox-SN3800-D112C8", "mellanox"), ("Mellanox-SN4600C-C64", "mellanox"),
        ("Mellanox-SN5600-O128", "mellanox")]
RELEASE = "202511"
BUILD_VERSION = "SONiC.20251110.01"


def load_validators(kit, hwsku, asic_type):
    """The real module, with the image-side imports stood in for."""
    try:
        import jsonpatch  # noqa: F401  (GCU's own dependency, used for from_diff)
        import jsonpointer  # noqa: F401
    except ImportError as e:
        print(f"gcu_rules: {e} (python3-jsonpatch, python3-jsonpointer)", file=sys.stderr)
        sys.exit(2)
    info = types.SimpleNamespace(
        get_sonic_version_info=lambda: {"asic_type": asic_type, "build_version": BUILD_VERSION},
        is_chassis=lambda: False)
    spc = types.ModuleType("sonic_py_common")
    spc.device_info = info
    sys.modules["sonic_py_common"] = spc
    sys.modules["swsscommon"] = types.ModuleType("swsscommon")
    sys.modules["swsscommon"].swsscommon = None
    pkg = types.ModuleType("generic_config_updater")
    pkg.__path__ = [os.path.join(kit, "sonic", "gcu")]
    sys.modules["generic_config_updater"] = pkg
    common = types.ModuleType("generic_config_updater.gu_common")

    class GenericConfigUpdaterError(Exception):
        pass
    common.GenericConfigUpdaterError = GenericConfigUpdaterError
    sys.modules["generic_config_updater.gu_common"] = common
    name = "generic_config_updater.field_operation_validators"
    spec = importlib.util.spec_from_file_location(
        name, os.path.join(kit, "sonic", "gcu", "field_operation_validators.py"))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)

    class Proc:
        def __init__(self, *a, **k):
            pass

        def communicate(self):
            return hwsku + "\n", None
    mod.subprocess = types.SimpleNamespace(Popen=Proc, PIPE=None)
    return mod


def real_verdict(mod, conf, old, target):
    """None, or the table gu_common's loop would name."""
    import jsonpatch
    for element in jsonpatch.JsonPatch.from_diff(old, target):
        table = element["path"].split("/")[1]
        for fn in conf["tables"].get(table, {}).get("field_operation_validators", []):
            if not getattr(mod, fn.split(".")[-1])("localhost", element):
                return table
    return None


def corpus(db):
    """Patches touching every gated table in the ways rocectl and operators do."""
    # the traditional model keeps lossless profiles (with xoff) in CONFIG_DB; the dynamic one
    # (Mellanox SKUs) only lossy ones there, buffermgrd's lossless ones live in APPL_DB
    prof = next((k for k, v in db["BUFFER_PROFILE"].items() if "xoff" in v), None)
    if prof is None:
        prof = next(k for k, v in db["BUFFER_PROFILE"].items() if "dynamic_th" in v)

    def op(field):
        return "replace" if field in db["BUFFER_PROFILE"][prof] else "add"
    wd = next(k for k in db["PFC_WD"] if k != "GLOBAL")
    new_prof = {"pool": "ingress_lossless_pool", "size": "19456", "xon": "19456",
                "xoff": "231424", "dynamic_th": "0"}
    wred = {"ecn": "ecn_all", "wred_green_enable": "true", "green_min_threshold": "150000",
            "green_max_threshold": "1500000", "green_drop_probability": "5"}
    return [
        [{"op": "replace", "path": f"/PFC_WD/{wd}/detection_time", "value": "400"}],
        [{"op": "replace", "path": f"/PFC_WD/{wd}/action", "value": "forward"}],
        [{"op": "remove", "path": f"/PFC_WD/{wd}"}],
        [{"op": "add", "path": f"/PFC_WD/{wd}",
          "value": {"action": "drop", "detection_time": "300", "restoration_time": "300"}}],
        [{"op": "add", "path": "/PFC_WD/GLOBAL", "value": {"POLL_INTERVAL": "150"}}],
        [{"op": "replace", "path": "/PFC_WD/GLOBAL/POLL_INTERVAL", "value": "150"}],
        [{"op": "add", "path": "/PFC_WD/GLOBAL/BIG_RED_SWITCH", "value": "enable"}],
        # the dynamic model leaves the pools' sizes to buffermgrd: "add" there
        [{"op": "replace" if "size" in db["BUFFER_POOL"]["ingress_lossless_pool"] else "add",
          "path": "/BUFFER_POOL/ingress_lossless_pool/size", "value": "50000000"}],
        [{"op": op("xoff"), "path": f"/BUFFER_PROFILE/{prof}/xoff", "value": "1000"}],
        [{"op": op("dynamic_th"), "path": f"/BUFFER_PROFILE/{prof}/dynamic_th", "value": "1"}],
        [{"op": op("size"), "path": f"/BUFFER_PROFILE/{prof}/size", "value": "300000"}],
        [{"op": "add", "path": "/BUFFER_PROFILE/rocectl_test", "value": new_prof}],
        [{"op": "add", "path": "/WRED_PROFILE/ROCE", "value": wred}],
        [{"op": "replace", "path": "/WRED_PROFILE/AZURE_LOSSLESS/green_min_threshold",
          "value": "150000"}],
        [{"op": "replace", "path": "/PORT_QOS_MAP/Ethernet0/pfc_enable", "value": "3"}],
        [{"op": "replace", "path": "/DSCP_TO_TC_MAP/AZURE/26", "value": "3"}],
        [{"op": "replace", "path": "/CABLE_LENGTH/AZURE/Ethernet0", "value": "40m"}],
    ]


def sim_verdict(build, run, patch):
    """None when the simulator's validators let the patch through, else the table."""
    p = subprocess.run([os.path.join(build, "sim", "switch", "switchsim-cli"), "--run-dir", run,
                        "--switch", "sw", "-c", "sudo config apply-patch --dry-run /dev/stdin"],
                       input=json.dumps(patch), capture_output=True, text=True, check=False)
    mark = "Modification of "
    for line in p.stderr.splitlines():
        if mark in line and " table is illegal" in line:
            return line.split(mark, 1)[1].split(" ", 1)[0]
    return None


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-3], file=sys.stderr)
        return 2
    kit, build = sys.argv[1], sys.argv[2]
    import jsonpatch
    with open(os.path.join(kit, "sonic", "gcu", "gcu_field_operation_validators.conf.json")) as f:
        conf = json.load(f)
    bad = cases = refused = 0
    for hwsku, asic_type in SKUS:
        mod = load_validators(kit, hwsku, asic_type)
        with tempfile.TemporaryDirectory() as run:
            os.makedirs(os.path.join(run, "switches"))
            os.makedirs(os.path.join(run, "by-addr"))
            subprocess.run([os.path.join(build, "sim", "switch", "switchsim-ctl"), "--run-dir",
                            run, "add", "sw", "127.0.0.1", "sonic", f"{hwsku}@{RELEASE}"],
                           check=True)
            out = subprocess.run([os.path.join(build, "sim", "switch", "switchsim-cli"),
                                  "--run-dir", run, "--switch", "sw", "-c",
                                  "show runningconfiguration all"],
                                 capture_output=True, text=True, check=True).stdout
            db = json.loads(out)
            db.pop("bgpraw", None)
            for patch in corpus(db):
                target = jsonpatch.apply_patch(copy.deepcopy(db), patch)
                want = real_verdict(mod, conf, db, target)
                got = sim_verdict(build, run, patch)
                cases += 1
                refused += want is not None
                if want != got:
                    bad += 1
                    print(f"# {hwsku}: {json.dumps(patch)}: GCU's code says "
                          f"{want or 'allowed'}, the simulator {got or 'allowed'}")
    print(f"# {cases} patches, {refused} refused by GCU's code, {bad} disagreements")
    # the corpus must exercise both verdicts, or this test could not fail
    return 1 if bad or not refused or refused == cases else 0


if __name__ == "__main__":
    sys.exit(main())
