#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# One shell test script for tests/run.sh, which runs several at once:
#   run-script.sh LOG_DIR -- SCRIPT
# The script gets directories of its own for device locks, run records and the journal
# (under $BUILD_DIR/iso/NAME; a script that names its own keeps them), so that two scripts
# applying to their own "leaf01" at the same time never meet.  Its output goes to
# LOG_DIR/NAME.log, its exit status to LOG_DIR/NAME.rc, its wall time to LOG_DIR/NAME.secs;
# then its TAP lines (and a failure's comments) are printed as one block, under a lock, so
# that the blocks of scripts finishing together do not interleave.
set -u
log_dir=$1
t=$3
name=$(basename "$t" .sh)
iso="$BUILD_DIR/iso/$name"
rm -rf "$iso" && mkdir -p "$iso/locks" "$iso/history" "$iso/journal" || exit 1
start=$(date +%s)
(
	cd "$(dirname "$t")" &&
		ROCECTL_LOCK_DIR="$iso/locks" ROCECTL_HISTORY="$iso/history" \
			ROCECTL_JOURNAL="$iso/journal" exec sh "$t"
) >"$log_dir/$name.log" 2>&1 </dev/null
st=$?
echo "$st" >"$log_dir/$name.rc"
echo $(($(date +%s) - start)) >"$log_dir/$name.secs"
{
	grep -E '^(not )?ok ' "$log_dir/$name.log" | sed "s/^/[$name] /"
	grep -q '^not ok ' "$log_dir/$name.log" &&
		grep -E '^#' "$log_dir/$name.log" | head -n 60 | sed 's/^/    /'
} >"$log_dir/$name.show"
flock "$log_dir/.print" cat "$log_dir/$name.show"
# a failed script's state stays for a look
[ "$st" -eq 0 ] && ! grep -q '^not ok ' "$log_dir/$name.log" && rm -rf "$iso"
exit 0
