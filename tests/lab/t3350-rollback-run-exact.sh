#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `rollback RUN` of a run that finished puts every device back EXACTLY as the run found it,
# running and saved configuration alike, from the native snapshots the run kept
# (include/rocectl/run_snap.h) -- not from values, which cannot say what did not exist
# (an NVUE profile the run created, an explicit `trust l2`, an EOS line the factory did not
# have).  From factory, and from a brownfield start: NVUE in RoCE mode (`nv set qos roce`),
# an EOS qos map and queue lines written by hand, a SONiC DSCP map changed and saved, a host
# with PFC on priority 4 and a DSCP APP entry set by hand.  Over SSH and over REST (NVUE API, eAPI).
#
# Witness: each switch's own full configuration output, compared byte for byte before the
# run and after the rollback -- NVUE `nv config show -o yaml` and its startup revision, EOS
# `show running-config` and `show startup-config`, SONiC `show runningconfiguration all` and
# /etc/sonic/config_db.json -- and each host's `dcb` output, its simulator state (the
# configfs RoCE ToS with it) and its sysfs/debugfs tree (counters and link-flap counts aside, as the fault campaign
# does, tests/faults/campaign.py host_view; so is mlx5's firmware DSCP map, which no
# interface reads or writes back: kernel en_dcbnl.c, mlx5e_dcbnl_ieee_delapp).
# shellcheck disable=SC2016 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"
# shellcheck source=tests/lib/confirmlib.sh
. "$SRC_DIR/tests/lib/confirmlib.sh"
. "$SRC_DIR/tests/lib/capturelib.sh"

HOSTS="gpu001 gpu002 gpu003"

# the witnesses (tests/lib/capturelib.sh): every device's own full configuration output
capture() {
	lab_capture "$1"
}

same() {
	lab_same "$1" "$2"
}

# every switch configuration changed by the run (else the rollback proves nothing)
all_changed() {
	for f in "$1"/leaf*; do
		cmp -s "$f" "$2/${f##*/}" && { echo "the run did not change ${f##*/}" && return 1; }
	done
	return 0
}

# undo INVENTORY NAME: capture, apply, capture, rollback RUN, capture, compare.
undo() {
	if ! { capture "$TMP/$2.pre" &&
		rc apply -p "$POLICY" -i "$1" >"$TMP/$2.apply" 2>&1 &&
		run=$(sed -n 's/^run //p' "$TMP/$2.apply" | grep .) &&
		capture "$TMP/$2.mid" && all_changed "$TMP/$2.pre" "$TMP/$2.mid" &&
		rc rollback "$run" -i "$1" >"$TMP/$2.rb" 2>&1; }; then
		cat "$TMP/$2.apply" "$TMP/$2.rb" 2>/dev/null | tail -20
		return 1
	fi
	test_must_contain "$TMP/$2.rb" "undoing it from its kept snapshots" &&
		capture "$TMP/$2.post" && same "$TMP/$2.pre" "$TMP/$2.post"
}

# The hosts with OFED's sysfs trust and ECN files and the mlx5 debugfs cc_params, so that
# those are written and compared too.
test_expect_success 'bring-up: NVUE, EOS and SONiC leaves, three hosts' '
	"$LAB_CMD" up "$LAB" --hosts 3 --nics 1 --leaves 3 --spines 0 \
		--platforms nvue,eos,sonic --host-features ofed,debugfs >/dev/null
'

test_expect_success 'from factory, over SSH: running and startup byte-identical after' '
	undo "$INV" factory-ssh
'

test_expect_success 'from factory, over REST: running and startup byte-identical after' '
	undo "$LAB/inventory-rest.yaml" factory-rest
'

test_expect_success 'brownfield: NVUE in RoCE mode, EOS and SONiC maps by hand, saved; a host PFC and APP entry' '
	"$LAB_CMD" ssh "$LAB" leaf01 "nv set qos roce" &&
	"$LAB_CMD" ssh "$LAB" leaf01 "nv config apply -y" >/dev/null &&
	printf "%s\n" "configure session hand" "qos map dscp 10 12 to traffic-class 1" \
		"interface Ethernet1" "qos trust dscp" "tx-queue 1" "bandwidth percent 30" \
		"commit" "copy running-config startup-config" |
		"$LAB_CMD" ssh "$LAB" leaf02 >/dev/null &&
	map=$("$SIMCTL" state "$LAB/switchsim" leaf03 |
		jq -r "[.sonic.config_db.PORT_QOS_MAP[].dscp_to_tc_map // empty][0]") &&
	test -n "$map" &&
	"$SIMCTL" fault "$LAB/switchsim" leaf03 drift "DSCP_TO_TC_MAP.$map.10=2" >/dev/null &&
	"$LAB_CMD" ssh "$LAB" leaf03 "sudo config save -y" >/dev/null &&
	"$LAB_CMD" ssh "$LAB" gpu001 "dcb pfc set dev enp12s0np0 prio-pfc 4:on" &&
	"$LAB_CMD" ssh "$LAB" gpu001 "dcb app add dev enp12s0np0 dscp-prio 10:2" &&
	"$LAB_CMD" ssh "$LAB" leaf01 "nv show qos roce" >"$TMP/roce" &&
	capture "$TMP/brown" &&
	grep -q "roce:" "$TMP/brown/leaf01.startup" &&
	grep -q "^qos map dscp 10 12 to traffic-class 1" "$TMP/brown/leaf02.startup" &&
	jq -e ".DSCP_TO_TC_MAP.\"$map\".\"10\" == \"2\"" "$TMP/brown/leaf03.startup" >/dev/null &&
	grep -q "4:on" "$TMP/brown/gpu001.dcb" && grep -q "AF11:2" "$TMP/brown/gpu001.dcb"
'

test_expect_success 'from brownfield, over SSH: running and startup byte-identical after' '
	undo "$INV" brown-ssh
'

test_expect_success 'from brownfield, over REST: running and startup byte-identical after' '
	undo "$LAB/inventory-rest.yaml" brown-rest
'

# apply --confirm, kept by `confirm`: NVUE's and EOS's own timed commits were kept, the
# snapshots say so; undoing it later must not keep or abort anything of theirs again.
test_expect_success 'rollback RUN of a confirmed run: running and startup byte-identical after' '
	capture "$TMP/c.pre" &&
	rc apply -p "$POLICY" -i "$INV" --confirm 60s >"$TMP/c.apply" 2>&1 &&
	run=$(sed -n "s/^confirm with: rocectl confirm \([^ ]*\) before .*/\1/p" "$TMP/c.apply" |
		grep .) &&
	rc confirm "$run" >"$TMP/c.confirm" 2>&1 &&
	capture "$TMP/c.mid" && all_changed "$TMP/c.pre" "$TMP/c.mid" &&
	rc rollback "$run" -i "$INV" >"$TMP/c.rb" 2>&1 &&
	test_must_contain "$TMP/c.rb" "undoing it from its kept snapshots" &&
	capture "$TMP/c.post" && same "$TMP/c.pre" "$TMP/c.post"
'

# A run killed after every device was written, leaf01 not yet verified: its journal entry
# left (the journal's copy of what the run kept), no history record written.
test_expect_success 'rollback RUN of an interrupted run: every device it wrote back, exactly' '
	capture "$TMP/k.pre" &&
	rc apply -p "$POLICY" -i "$INV" >"$TMP/k.apply" 2>&1 &&
	run=$(sed -n "s/^run //p" "$TMP/k.apply" | grep .) &&
	mkdir -p "$ROCECTL_JOURNAL/$run" &&
	cp "$ROCECTL_HISTORY/runs/$run/leaf01.snap" "$ROCECTL_JOURNAL/$run/leaf01.json" &&
	rm "$ROCECTL_HISTORY/$run.json" &&
	rc rollback "$run" -i "$INV" >"$TMP/k.rb" 2>&1 &&
	cat "$TMP/k.rb" &&
	test_must_contain "$TMP/k.rb" "^run $run: 5 devices it had verified undone too" &&
	test_must_contain "$TMP/k.rb" "restored .leaf01." &&
	capture "$TMP/k.post" && same "$TMP/k.pre" "$TMP/k.post"
'

# split_map SNAPFILE: the kept EOS snapshot says the hand-written map as two lines, which
# EOS shows as one (`qos map dscp 10 12 to traffic-class 1`): a restore of it can never
# read back as the snapshot.
split_map() {
	jq '.native |= (fromjson | .running |= sub("qos map dscp 10 12 to traffic-class 1";
		"qos map dscp 10 to traffic-class 1\nqos map dscp 12 to traffic-class 1") |
		tojson)' "$1" >"$1.new" && chmod 600 "$1.new" && mv "$1.new" "$1" &&
		grep -q "qos map dscp 12 to traffic-class 1" "$1"
}

test_expect_success 'a restore that does not read back as the snapshot: exit 1, the lines' '
	rc apply -p "$POLICY" -i "$INV" --limit leaf02 >"$TMP/v.apply" 2>&1 &&
	run=$(sed -n "s/^run //p" "$TMP/v.apply" | grep .) &&
	split_map "$ROCECTL_HISTORY/runs/$run/leaf02.snap" &&
	test_expect_code 1 rc rollback "$run" -i "$INV" >"$TMP/v.rb" 2>&1 &&
	cat "$TMP/v.rb" &&
	test_must_contain "$TMP/v.rb" "leaf02.*not the snapshot.s configuration: running-config -qos map dscp 10 to traffic-class 1; -qos map dscp 12 to traffic-class 1; \+qos map dscp 10 12 to traffic-class 1"
'

test_done
