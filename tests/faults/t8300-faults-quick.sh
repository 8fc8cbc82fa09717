#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The quick fault campaign in `make test` (tests/faults/README.md): quick.sh, 21 seeded
# trials over small fabrics of every platform and transport, 100 % held or it fails.
. "$SRC_DIR/tests/faults/quick.sh"
