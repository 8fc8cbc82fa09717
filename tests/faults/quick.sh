#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The quick form of the fault campaign (tests/faults/README.md, `make faults-quick`; in
# `make test` through t8300-faults-quick.sh): 21 seeded trials over small
# fabrics of every platform and transport (NVUE over SSH and REST, SONiC, EOS, hosts), a
# fixed first seed so that a failure replays; every trial must hold.  Replay one with
#   python3 tests/faults/campaign.py --fabrics quick-nvue,quick-mixed --trials 1 --seed N
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted and eval'd by testlib
. "$SRC_DIR/tests/lib/testlib.sh"

TRIALS=21
LAB_CMD="$SRC_DIR/tests/lab/lab"
SEED=3300

if [ "$(id -u)" != 0 ]; then
	test_expect_success 'the campaign needs root (namespaces, sshd): not run' 'false'
	test_done
	exit
fi

# the campaign takes its labs down itself; these are for a campaign that was killed
test_at_exit '"$LAB_CMD" down "$TMP/faults/quick-nvue" >/dev/null 2>&1 || true'
test_at_exit '"$LAB_CMD" down "$TMP/faults/quick-mixed" >/dev/null 2>&1 || true'

test_expect_success "$TRIALS trials from seed $SEED: every one held" '
	ASAN_OPTIONS=detect_leaks=1:verify_asan_link_order=0 \
		python3 "$SRC_DIR/tests/faults/campaign.py" --fabrics quick-nvue,quick-mixed \
		--trials $TRIALS --seed $SEED --lab-root "$TMP/faults" >"$TMP/campaign.out" 2>&1;
	st=$?;
	grep -E "^not ok|trials," "$TMP/campaign.out";
	test "$st" = 0 &&
	test_must_contain "$TMP/campaign.out" "^$TRIALS trials, $TRIALS held, 0 failed$"
'

test_done
