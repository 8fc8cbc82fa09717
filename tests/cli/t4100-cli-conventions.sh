#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# One CLI (README.md "Exit status", "Output"): every command refuses a bad option with exit
# 64, takes -j/--json as --format json, and its JSON validates against its schema in
# examples/, carries schema_version, rocectl_version and timestamp, and is UTF-8 whatever
# bytes a file name or a device answer held.  --version names the build and the plugin.
. "$SRC_DIR/tests/lib/testlib.sh"

NICSIM="$SRC_DIR/tests/sim/nic/nicsim"
P="$SRC_DIR/policies/roce-lossless.yaml"
I="$SRC_DIR/examples/inventory.yaml"
check() {
	schema=$1
	shift
	python3 "$SRC_DIR/tests/lib/schema_check.py" "$SRC_DIR/examples/$schema.schema.json" "$@"
}

# -I/--interface is one option on every command that takes it (cli/options.c
# rc_interface_arg): a name the kernel would refuse is a usage error naming the command.
test_expect_success '-I refuses a name that is not an interface name, the same on each command' '
	for c in "agent show" counters nccl-env; do
		test_expect_code 64 "$ROCECTL" $c -I "eth0/../x" 2>"$TMP/err" &&
		test_must_contain "$TMP/err" "^rocectl ${c%% *}: .eth0/\.\./x. is not a network interface name" ||
			{ echo "command: $c" >&2; return 1; }
	done
'

test_expect_success 'every command refuses an unknown option with exit 64' '
	for c in validate plan apply verify trace rollback counters headroom agent nccl-env \
		capture "agent state" "agent write" enforce history show diagnose discover diff export; do
		test_expect_code 64 "$ROCECTL" $c --no-such-option >/dev/null 2>"$TMP/err" &&
		test_must_contain "$TMP/err" "unknown option.*--no-such-option" || return 1
	done
'

test_expect_success 'a bad option value, a missing argument and a stray one exit 64' '
	test_expect_code 64 "$ROCECTL" plan -p "$P" -i "$I" --parallel 0 2>/dev/null &&
	test_expect_code 64 "$ROCECTL" verify -p "$P" -i "$I" --format yaml 2>/dev/null &&
	test_expect_code 64 "$ROCECTL" plan -p "$P" 2>/dev/null &&
	test_expect_code 64 "$ROCECTL" validate -p "$P" stray 2>/dev/null &&
	test_expect_code 64 "$ROCECTL" headroom --speed 400G 2>/dev/null &&
	test_expect_code 64 "$ROCECTL" headroom --speed 3G --cable 3m 2>/dev/null &&
	test_expect_code 64 "$ROCECTL" trace -p "$P" -i "$I" gpu001 2>/dev/null &&
	test_expect_code 64 "$ROCECTL" agent frobnicate 2>/dev/null &&
	test_expect_code 64 "$ROCECTL" rollback a b 2>/dev/null
'

test_expect_success 'no command, an unknown command and an unknown global option exit 64' '
	test_expect_code 64 "$ROCECTL" 2>/dev/null &&
	test_expect_code 64 "$ROCECTL" frobnicate 2>/dev/null &&
	test_expect_code 64 "$ROCECTL" --frobnicate validate 2>/dev/null
'

test_expect_success 'a runtime error is still 1: a policy that does not exist' '
	test_expect_code 1 "$ROCECTL" validate -p "$TMP/none.yaml" 2>/dev/null
'

test_expect_success '-j and --json are --format json, listed in --help' '
	"$ROCECTL" headroom --speed 400G --cable 30m --format json >"$TMP/a" &&
	"$ROCECTL" headroom --speed 400G --cable 30m -j >"$TMP/b" &&
	"$ROCECTL" headroom --speed 400G --cable 30m --json >"$TMP/c" &&
	sed "s/\"timestamp\":\"[^\"]*\"//" "$TMP/a" >"$TMP/a2" &&
	sed "s/\"timestamp\":\"[^\"]*\"//" "$TMP/b" >"$TMP/b2" &&
	sed "s/\"timestamp\":\"[^\"]*\"//" "$TMP/c" >"$TMP/c2" &&
	cmp "$TMP/a2" "$TMP/b2" && cmp "$TMP/a2" "$TMP/c2" &&
	for c in validate plan apply verify trace counters headroom agent nccl-env history show \
		diff diagnose enforce; do
		"$ROCECTL" $c --help >"$TMP/help" &&
		test_must_contain "$TMP/help" "^ +--format FMT" &&
		test_must_contain "$TMP/help" "^ +-j, --json +the same as --format json" || return 1
	done
'

test_expect_success 'validate and headroom JSON validate against their schemas' '
	"$ROCECTL" validate -p "$P" -j >"$TMP/v1.json" &&
	"$ROCECTL" validate -p "$P" -i "$I" -j >"$TMP/v2.json" &&
	"$ROCECTL" validate -i "$I" -j >"$TMP/v3.json" &&
	check validate "$TMP/v1.json" "$TMP/v2.json" "$TMP/v3.json" &&
	"$ROCECTL" headroom --speed 800G --cable 100m --mtu 4200 -j >"$TMP/h.json" &&
	check headroom "$TMP/h.json"
'

test_expect_success 'a JSON document without its header or with a stray key is refused' '
	sed "s/\"schema_version\":1,//" "$TMP/h.json" >"$TMP/h-nohdr.json" &&
	test_expect_code 1 check headroom "$TMP/h-nohdr.json" 2>/dev/null &&
	sed "s/^{/{\"extra\":1,/" "$TMP/h.json" >"$TMP/h-extra.json" &&
	test_expect_code 1 check headroom "$TMP/h-extra.json" 2>/dev/null
'

test_expect_success 'verify and plan JSON with an unreachable switch validate (report schema)' '
	cat >"$TMP/inv.yaml" <<-EOI &&
	apiVersion: rocectl/v1
	kind: Inventory
	switches:
	  - name: leaf01
	    address: 127.0.0.1
	    platform: nvue
	    transport: rest
	    ports: [swp1]
	    credentials: {user: admin, password_env: ROCECTL_T4100_UNSET}
	EOI
	test_expect_code 1 "$ROCECTL" verify -p "$P" -i "$TMP/inv.yaml" -j >"$TMP/r1.json" 2>/dev/null &&
	test_expect_code 1 "$ROCECTL" plan -p "$P" -i "$TMP/inv.yaml" --json >"$TMP/r2.json" 2>/dev/null &&
	check report "$TMP/r1.json" "$TMP/r2.json"
'

"$NICSIM" init "$TMP/h" --nic eth0,rdma=mlx5_0 --nic eth1,rdma=mlx5_1 >/dev/null

test_expect_success 'agent, counters and nccl-env JSON validate' '
	for c in show counters "plan -p $P" "apply -p $P --journal $TMP/j" "verify -p $P"; do
		"$NICSIM" run "$TMP/h" -- "$ROCECTL" agent $c -j >"$TMP/ag.json"
		test $? -le 2 && check agent "$TMP/ag.json" || return 1
	done &&
	"$NICSIM" run "$TMP/h" -- "$ROCECTL" counters -p "$P" -j >"$TMP/ctr.json" &&
	check counters "$TMP/ctr.json" &&
	"$NICSIM" run "$TMP/h" -- "$ROCECTL" nccl-env -p "$P" --json >"$TMP/nccl.json" &&
	check nccl-env "$TMP/nccl.json" &&
	test_must_contain "$TMP/nccl.json" "\"NCCL_IB_HCA\":\"=mlx5_0:1,mlx5_1:1\""
'

test_expect_success 'a device answer that is not UTF-8 comes out as U+FFFD, valid JSON and text' '
	printf "4: ACT\377IVE\300\257 \355\240\200" >"$TMP/h/sys/class/infiniband/mlx5_0/ports/1/state" &&
	"$NICSIM" run "$TMP/h" -- "$ROCECTL" agent show -j >"$TMP/u.json" &&
	check agent "$TMP/u.json" &&
	test_must_contain "$TMP/u.json" "ACT\\\\ufffdIVE" &&
	"$NICSIM" run "$TMP/h" -- "$ROCECTL" agent show >"$TMP/u.txt" &&
	iconv -f UTF-8 -t UTF-8 "$TMP/u.txt" >/dev/null
'

test_expect_success 'a file name that is not UTF-8 comes out valid in JSON' '
	cp "$P" "$TMP/pol-$(printf "\377\376").yaml" &&
	"$ROCECTL" validate -p "$TMP"/pol-*.yaml -j >"$TMP/f.json" &&
	check validate "$TMP/f.json" &&
	test_must_contain "$TMP/f.json" "pol-\\\\ufffd\\\\ufffd.yaml"
'

test_expect_success '-v --version names version, commit, plugin and libraries' '
	"$ROCECTL" --version -v >"$TMP/ver" &&
	test_must_contain "$TMP/ver" "^rocectl [0-9]+\.[0-9]+\.[0-9]+$" &&
	test_must_contain "$TMP/ver" "^commit: [0-9a-z.-]+$" &&
	test_must_contain "$TMP/ver" "^plugin: /.*rocectl-net\.so$" &&
	test_must_contain "$TMP/ver" "^libraries: libyaml [0-9.]+, libnl [0-9.]+, cJSON [0-9.]+, libssh [0-9.]+.*, libcurl [0-9.]+$" &&
	ROCECTL_PLUGIN=/nonexistent/rocectl-net.so "$ROCECTL" -v --version >"$TMP/ver2" &&
	test_must_contain "$TMP/ver2" "^plugin: not loaded \(.*nonexistent" &&
	test_must_not_contain "$TMP/ver2" "libssh"
'

# A plugin whose constructor would kill the process: plain --version must not load it.
cat >"$TMP/boom.c" <<'EOC'
#include <stdlib.h>
__attribute__((constructor)) static void boom(void) { abort(); }
EOC

test_expect_success '--version does not load the network plugin' '
	${CC:-cc} -fPIC -shared -o "$TMP/boom.so" "$TMP/boom.c" &&
	ROCECTL_PLUGIN="$TMP/boom.so" "$ROCECTL" --version >"$TMP/ver3" &&
	test_must_contain "$TMP/ver3" "^rocectl [0-9]+\.[0-9]+\.[0-9]+$" &&
	test_must_contain "$TMP/ver3" "^plugin: not loaded \(-v --version loads it\)$" &&
	test_must_contain "$TMP/ver3" "^libraries: libyaml [0-9.]+, libnl [0-9.]+, cJSON [0-9.]+$" &&
	ROCECTL_PLUGIN=/nonexistent/rocectl-net.so "$ROCECTL" --version >"$TMP/ver4" &&
	test_must_contain "$TMP/ver4" "^plugin: not loaded \(-v --version loads it\)$" &&
	test_expect_code 134 env ROCECTL_PLUGIN="$TMP/boom.so" "$ROCECTL" -v --version >/dev/null 2>&1
'

test_done
