#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Brownfield corpus: the lab's devices start from configurations operators really leave
# (`lab up --startup`, tests/lab/startup/): NVUE in RoCE mode lossless and lossy, NVUE with
# hand-made profiles, an EOS leaf in the shape of AVD's designs, SONiC with its image's
# AZURE maps and lossless templates saved, a host set up as mlnx_qos leaves it.  From that
# start (one leaf and a host set up as mlnx_qos leaves it, per start): export writes a policy
# that validates, plan with it runs, apply of the shipped policy verifies in sync, and
# rollback RUN puts each device back byte for byte, running and saved configuration alike
# (witnesses: tests/lib/capturelib.sh).
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"
. "$SRC_DIR/tests/lib/capturelib.sh"

LAB_CMD="$SRC_DIR/tests/lab/lab"
LAB="$TMP/lab"
INV="$LAB/inventory.yaml"
POLICY="$SRC_DIR/policies/roce-lossless.yaml"
S="$SRC_DIR/tests/lab/startup"
export BUILD_DIR ROCECTL

test_needs root
test_at_exit '"$LAB_CMD" down "$LAB" >/dev/null 2>&1 || true'

rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}

# round_trip PLATFORM START: a lab of one leaf of PLATFORM started from START and one host
# set up as mlnx_qos leaves it, its DCBX the NIC firmware's (as an mlx5 boots; the policy
# moves it to the host, `dcb dcbx show` is in the witness); export, validate, plan with the
# export, apply the shipped policy, verify, plan again (nothing left: it converged),
# rollback RUN; every device byte for byte as it started.  With "dir", the lab takes its
# starts as a directory of DEVICE.startup files.
round_trip() {
	d="$TMP/$2" && mkdir -p "$d/start" &&
		cp "$S/$2.startup" "$d/start/leaf01.startup" &&
		if [ "${3:-}" = dir ]; then # the directory form: DIR/DEVICE.startup
			cp "$S/host-mlnx-qos.startup" "$d/start/gpu001.startup" &&
				set -- "$1" "$2" --startup "$d/start"
		else
			set -- "$1" "$2" --startup "leaf01=$S/$2.startup" \
				--startup "gpu001=$S/host-mlnx-qos.startup"
		fi &&
		"$LAB_CMD" up "$LAB" --hosts 1 --nics 1 --leaves 1 --spines 0 --platforms "$1" \
			"$3" "$4" ${5:+"$5" "$6"} >"$d/up" 2>&1 || { cat "$d/up"; return 1; }
	"$LAB_CMD" ssh "$LAB" gpu001 "dcb app show dev enp12s0np0" | grep -Eq "(AF31|26):3" &&
		lab_capture "$d/pre" &&
		rc export -i "$INV" -o "$d/exp.yaml" >"$d/exp.out" 2>"$d/exp.err" &&
		rc validate -p "$d/exp.yaml" -i "$INV" >"$d/val" 2>&1 &&
		{ rc plan -p "$d/exp.yaml" -i "$INV" >"$d/plan" 2>&1; st=$?; } &&
		{ test "$st" = 0 || test "$st" = 2; } &&
		rc apply -p "$POLICY" -i "$INV" >"$d/apply" 2>&1 &&
		run=$(sed -n "s/^run //p" "$d/apply" | grep .) &&
		rc verify -p "$POLICY" -i "$INV" >"$d/verify" 2>&1 &&
		rc plan -p "$POLICY" -i "$INV" >"$d/replan" 2>&1 &&
		lab_capture "$d/mid" &&
		lab_changed "$d/pre" "$d/mid" leaf01 && lab_changed "$d/pre" "$d/mid" gpu001 &&
		grep -q "dcbx firmware -> host" "$d/plan" &&
		rc rollback "$run" -i "$INV" >"$d/rb" 2>&1 &&
		grep -q "undoing it from its kept snapshots" "$d/rb" &&
		lab_capture "$d/post" &&
		lab_same "$d/pre" "$d/post" || {
		for f in up exp.err val plan apply verify replan rb; do
			[ -s "$d/$f" ] && echo "== $f" && tail -n 15 "$d/$f"
		done
		"$LAB_CMD" down "$LAB" >/dev/null 2>&1
		return 1
	}
	"$LAB_CMD" down "$LAB" >/dev/null
}

test_expect_success 'NVUE in RoCE mode, lossless (nvue-roce-lossless): export, apply, verify, exact undo' '
	round_trip nvue nvue-roce-lossless
'
test_expect_success 'NVUE in RoCE mode, lossy (nvue-roce-lossy): export, apply, verify, exact undo' '
	round_trip nvue nvue-roce-lossy
'
test_expect_success 'NVUE with hand-made profiles (nvue-profiles): export, apply, verify, exact undo' '
	round_trip nvue nvue-profiles
'
test_expect_success 'EOS in the shape of AVD (eos-avd): export, apply, verify, exact undo' '
	round_trip eos eos-avd
'
test_expect_success 'SONiC with its AZURE maps and lossless templates (sonic-azure): export, apply, verify, exact undo' '
	round_trip sonic sonic-azure dir
'

test_done
