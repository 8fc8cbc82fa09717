/* SPDX-License-Identifier: Apache-2.0 */
/* The simulated SONiC switches are real HWSKUs, with facts taken from their files in
 * $CONFORMANCE_DIR/sonic/skus/<HWSKU>/ (sonic-buildimage@086b03bd70f9,
 * device/<vendor>/<platform>/<HWSKU>/, Apache-2.0; see
 * that kit's README for provenance).  Numbers are data, copied from the files named beside
 * them; no template code is reproduced.
 *
 * - lookup rows: pg_profile_lookup.ini (speed cable size xon xoff threshold [xon_offset]),
 *   the only (speed, cable) pairs buffermgrd gives a lossless profile
 *   (_swss/buffermgr.cpp.missing-lookup-row.excerpt);
 * - shared headroom pool: buffers_defaults_t1.j2's ingress_lossless_pool_xoff, set on the
 *   SN3800-D112C8 and SN4600C-C64 (buffer_headroom_mellanox.lua then gives a lossless
 *   profile size = xon, the xoff being reserved in the pool);
 * - ports: the SKU name's letters (O = 400G, C = 100G, D = 50G) and, where the kit has
 *   them, buffer_ports*.j2's port lists;
 * - GCU ASIC family: gcu/gcu_field_operation_validators.conf.json helper_data, which lists
 *   each of these HWSKU names.
 * The platform strings follow SONiC's x86_64-<vendor>_<box>-r0 naming; the kit has no
 *   platform directory, so they are unverified (nothing reads them but `show version`). */
#include "sonic.h"

/* Arista-7060X6-64PE-B-O128/pg_profile_lookup.ini (xon_offset 3556 on every row) */
static const struct sn_row rows_arista_7060x6_64pe_b_o128[] = {
    {400000, 5, 18796, 0, 445770}, {400000, 30, 8636, 0, 445770},   {400000, 40, 18796, 0, 445770},
    {400000, 60, 8636, 0, 475136}, {400000, 150, 18796, 0, 611328}, {400000, 500, 8636, 0, 1136396},
    {100000, 5, 18796, 0, 445770}, {100000, 30, 8636, 0, 445770},   {100000, 40, 18796, 0, 445770},
    {100000, 60, 8636, 0, 475136}, {100000, 150, 18796, 0, 611328}, {100000, 500, 8636, 0, 1136396},
};

/* Arista-7260CX3-D108C8/pg_profile_lookup.ini (xon_offset 2496 on every row) */
static const struct sn_row rows_arista_7260cx3_d108c8[] = {
    {100000, 5, 1248, 1248, 54080},    {100000, 40, 1248, 1248, 59696},
    {100000, 300, 1248, 1248, 101088}, {50000, 5, 1248, 1248, 54080},
    {50000, 40, 1248, 1248, 59696},    {50000, 300, 1248, 1248, 101088},
    {40000, 5, 1248, 1248, 29536},     {40000, 40, 1248, 1248, 31616},
    {40000, 300, 1248, 1248, 48256},
};

/* Mellanox-SN3800-D112C8/pg_profile_lookup.ini */
static const struct sn_row rows_mellanox_sn3800_d112c8[] = {
    {10000, 5, 19456, 19456, 25600},	 {25000, 5, 19456, 19456, 28672},
    {40000, 5, 19456, 19456, 30720},	 {50000, 5, 19456, 19456, 32768},
    {100000, 5, 19456, 19456, 40960},	 {10000, 40, 19456, 19456, 26624},
    {25000, 40, 19456, 19456, 30720},	 {40000, 40, 19456, 19456, 33792},
    {50000, 40, 19456, 19456, 36864},	 {100000, 40, 19456, 19456, 48128},
    {10000, 300, 19456, 19456, 31744},	 {25000, 300, 19456, 19456, 44032},
    {40000, 300, 19456, 19456, 55296},	 {50000, 300, 19456, 19456, 63488},
    {100000, 300, 19456, 19456, 102400}, {10000, 2000, 19456, 19456, 33792},
    {25000, 2000, 19456, 19456, 65536},	 {40000, 2000, 19456, 19456, 97280},
    {50000, 2000, 19456, 19456, 118784}, {100000, 2000, 19456, 19456, 225280},
};

/* Mellanox-SN4600C-C64/pg_profile_lookup.ini */
static const struct sn_row rows_mellanox_sn4600c_c64[] = {
    {10000, 5, 19456, 19456, 24576},	 {25000, 5, 19456, 19456, 26624},
    {40000, 5, 19456, 19456, 30720},	 {50000, 5, 19456, 19456, 33792},
    {100000, 5, 19456, 19456, 59392},	 {10000, 40, 19456, 19456, 25600},
    {25000, 40, 19456, 19456, 28672},	 {40000, 40, 19456, 19456, 33792},
    {50000, 40, 19456, 19456, 36864},	 {100000, 40, 19456, 19456, 66560},
    {10000, 300, 19456, 19456, 30720},	 {25000, 300, 19456, 19456, 41984},
    {40000, 300, 19456, 19456, 54272},	 {50000, 300, 19456, 19456, 63488},
    {100000, 300, 19456, 19456, 120832}, {10000, 2000, 19456, 19456, 32768},
    {25000, 2000, 19456, 19456, 64512},	 {40000, 2000, 19456, 19456, 97280},
    {50000, 2000, 19456, 19456, 119808}, {100000, 2000, 19456, 19456, 234496},
};

/* Mellanox-SN5600-O128/pg_profile_lookup.ini */
static const struct sn_row rows_mellanox_sn5600_o128[] = {
    {10000, 5, 64512, 19456, 45056},	  {25000, 5, 67584, 19456, 48128},
    {40000, 5, 75776, 19456, 57344},	  {50000, 5, 82944, 19456, 63488},
    {100000, 5, 133120, 19456, 113664},	  {200000, 5, 150528, 19456, 131072},
    {400000, 5, 250880, 19456, 231424},	  {800000, 5, 304128, 38912, 257024},
    {10000, 40, 65536, 19456, 46080},	  {25000, 40, 71680, 19456, 52224},
    {40000, 40, 81920, 19456, 62464},	  {50000, 40, 89088, 19456, 69632},
    {100000, 40, 146432, 19456, 126976},  {200000, 40, 177152, 19456, 157696},
    {400000, 40, 303104, 19456, 283648},  {800000, 40, 410624, 38912, 362496},
    {10000, 300, 75776, 19456, 56320},	  {25000, 300, 96256, 19456, 76800},
    {40000, 300, 120832, 19456, 101376},  {50000, 300, 138240, 19456, 118784},
    {100000, 300, 244736, 19456, 225280}, {200000, 300, 374784, 19456, 355328},
    {400000, 300, 697344, 19456, 677888}, {800000, 300, 1198080, 38912, 1150976},
};

const struct sn_model sn_models[] = {
    /* ports: buffer_ports.j2: Ethernet0..Ethernet508 step 4; shared headroom pool: off */
    {"Arista-7060X6-64PE-B-O128", "x86_64-arista_7060x6_64pe_b", "broadcom", "th5", SN_LAYOUT_O128,
     0, rows_arista_7060x6_64pe_b_o128,
     sizeof(rows_arista_7060x6_64pe_b_o128) / sizeof(rows_arista_7060x6_64pe_b_o128[0]), 3556},
    /* ports: buffer_ports_t0.j2: 2 x 50G on ports 0-11 and 20-63, 100G on 12-19; shared headroom
       pool: off */
    {"Arista-7260CX3-D108C8", "x86_64-arista_7260cx3_64", "broadcom", "th2", SN_LAYOUT_D_C8, 0,
     rows_arista_7260cx3_d108c8,
     sizeof(rows_arista_7260cx3_d108c8) / sizeof(rows_arista_7260cx3_d108c8[0]), 2496},
    /* ports: the same 50G/100G split as the D108C8 template; shared headroom pool: xoff 4333568 */
    {"Mellanox-SN3800-D112C8", "x86_64-mlnx_msn3800-r0", "mellanox", "spc2", SN_LAYOUT_D_C8,
     4333568, rows_mellanox_sn3800_d112c8,
     sizeof(rows_mellanox_sn3800_d112c8) / sizeof(rows_mellanox_sn3800_d112c8[0]), 0},
    /* ports: 64 x 100G; shared headroom pool: xoff 8790016 */
    {"Mellanox-SN4600C-C64", "x86_64-mlnx_msn4600c-r0", "mellanox", "spc3", SN_LAYOUT_C64, 8790016,
     rows_mellanox_sn4600c_c64,
     sizeof(rows_mellanox_sn4600c_c64) / sizeof(rows_mellanox_sn4600c_c64[0]), 0},
    /* ports: 128 x 400G; shared headroom pool: off */
    {"Mellanox-SN5600-O128", "x86_64-nvidia_sn5600-r0", "mellanox", "spc4", SN_LAYOUT_O128, 0,
     rows_mellanox_sn5600_o128,
     sizeof(rows_mellanox_sn5600_o128) / sizeof(rows_mellanox_sn5600_o128[0]), 0},
    {NULL, NULL, NULL, NULL, 0, 0, NULL, 0, 0},
};

const char *const sn_model_names[] = {"Arista-7060X6-64PE-B-O128", "Arista-7260CX3-D108C8",
				      "Mellanox-SN3800-D112C8",	   "Mellanox-SN4600C-C64",
				      "Mellanox-SN5600-O128",	   NULL};
