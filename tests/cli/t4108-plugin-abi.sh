#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A network plugin built for another rocectl version is refused (support/registry.c):
# its drivers are not registered, -v --version and the command that needs them say why, with
# both versions.  The plugin is a real shared object registering through RC_DRIVER_REGISTER.
. "$SRC_DIR/tests/lib/testlib.sh"

cat >"$TMP/plugin.c" <<'EOC'
#include "rocectl/driver.h"
static const struct rc_driver nvue_ssh = {.name = "nvue-ssh"};
RC_DRIVER_REGISTER(nvue_ssh)
EOC

test_expect_success 'a plugin of another version is refused, naming both versions' '
	${CC:-cc} -std=c11 -D_GNU_SOURCE -fPIC -shared -I"$SRC_DIR/include" \
		-DROCECTL_VERSION="\"9.9.9\"" -o "$TMP/rocectl-net.so" "$TMP/plugin.c" &&
	ROCECTL_PLUGIN="$TMP/rocectl-net.so" "$ROCECTL" -v --version >"$TMP/ver" &&
	test_must_contain "$TMP/ver" "^plugin: $TMP/rocectl-net.so refused \(driver .nvue-ssh. was built for rocectl 9\.9\.9, this is rocectl [0-9.]+: " &&
	cat >"$TMP/inv.yaml" <<-EOI &&
	apiVersion: rocectl/v1
	kind: Inventory
	switches:
	  - {name: leaf01, address: 127.0.0.1, platform: nvue, ports: [swp1]}
	EOI
	test_expect_code 1 env ROCECTL_PLUGIN="$TMP/rocectl-net.so" "$ROCECTL" verify \
		-p "$SRC_DIR/policies/roce-lossless.yaml" -i "$TMP/inv.yaml" >"$TMP/out" 2>&1 &&
	test_must_contain "$TMP/out" "built for rocectl 9\.9\.9"
'

test_expect_success 'the same plugin built for this version loads' '
	v=$("$ROCECTL" --version | sed -n "s/^rocectl //p") && mkdir -p "$TMP/ok" &&
	${CC:-cc} -std=c11 -D_GNU_SOURCE -fPIC -shared -I"$SRC_DIR/include" \
		-DROCECTL_VERSION="\"$v\"" -o "$TMP/ok/rocectl-net.so" "$TMP/plugin.c" &&
	ROCECTL_PLUGIN="$TMP/ok/rocectl-net.so" "$ROCECTL" -v --version >"$TMP/ver2" &&
	test_must_contain "$TMP/ver2" "^plugin: $TMP/ok/rocectl-net.so$"
'

test_done
