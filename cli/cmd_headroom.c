/* SPDX-License-Identifier: Apache-2.0 */
/* rocectl headroom: the PFC headroom a link needs and how it is made up. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/cli.h"
#include "rocectl/util.h"
#include "rocectl/headroom.h"
#include "rocectl/policy.h"
#include "rocectl/print.h"
#include "rocectl/units.h"

#define DEFAULT_MTU 9216u

enum {
	OPT_SPEED = 256,
	OPT_CABLE,
	OPT_MTU,
	OPT_FORMAT,
};

static const char usage_line[] =
    "rocectl headroom --speed SPEED --cable LENGTH [--mtu MTU] [--format text|json]";

static const struct rc_option options[] = {
    {"speed", 0, "SPEED", "link speed: 10G 25G 40G 50G 100G 200G 400G 800G", OPT_SPEED},
    {"cable", 0, "LENGTH", "cable length, e.g. 3m, 100m, 2km", OPT_CABLE},
    {"mtu", 0, "MTU", "largest frame, 1500..9216 (default 9216)", OPT_MTU},
    {"format", 0, "FMT", "text (default) or json (examples/headroom.schema.json)", OPT_FORMAT},
    {NULL, 0, NULL, NULL, 0},
};

struct args {
	const char *speed;
	const char *cable;
	const char *mtu;
	bool json;
};

static int on_option(int id, const char *arg, void *ctx)
{
	struct args *a = ctx;

	switch (id) {
	case OPT_SPEED:
		a->speed = arg;
		break;
	case OPT_CABLE:
		a->cable = arg;
		break;
	case OPT_MTU:
		a->mtu = arg;
		break;
	case OPT_FORMAT:
		return rc_format_text_json("headroom", arg, &a->json);
	default:
		return -EINVAL;
	}
	return 0;
}

/* A plain decimal integer; the MTU has no unit. */
static int parse_mtu(const char *s, uint32_t *mtu)
{
	uint64_t v;

	if (rc_parse_u64(s, 10, 0, UINT32_MAX, &v))
		return -EINVAL;
	*mtu = (uint32_t)v;
	return 0;
}

/* One printer for text and JSON: each value names its JSON key and its text format. */
static void print_headroom(struct rc_out *o, const struct rc_headroom *h)
{
	rc_out_open_object(o, NULL);
	rc_out_uint(o, "speed_gbps", "headroom for %" PRIu64 "G", h->speed_gbps);
	rc_out_uint(o, "cable_length_m", " on %" PRIu64 "m of cable", h->cable_length_m);
	rc_out_uint(o, "mtu", ", MTU %" PRIu64 "\n", h->mtu);
	rc_out_uint(o, "mtu_rx_bytes",
		    "  mtu_rx      %8" PRIu64 " B  frame the receiver may still be receiving\n",
		    h->mtu_rx_bytes);
	rc_out_uint(o, "mtu_tx_bytes",
		    "  mtu_tx      %8" PRIu64 " B  frame the sender cannot cut short\n",
		    h->mtu_tx_bytes);
	rc_out_uint(o, "pause_frame_bytes",
		    "  pause_frame %8" PRIu64
		    " B  PAUSE frame on the wire (64 B + preamble and gap)\n",
		    h->pause_frame_bytes);
	rc_out_uint(o, "cable_bytes",
		    "  cable       %8" PRIu64 " B  round trip on the cable at ~5 ns/m\n",
		    h->cable_bytes);
	rc_out_uint(o, "response_bytes",
		    "  response    %8" PRIu64 " B  sender's pause reaction: ", h->response_bytes);
	rc_out_uint(o, "response_quanta", "%" PRIu64 " quanta of 512 bits\n", h->response_quanta);
	rc_out_uint(o, "interface_bytes",
		    "  interface   %8" PRIu64 " B  MAC/PHY delay of both ends: 2 x ",
		    h->interface_bytes);
	rc_out_uint(o, "interface_delay_bits", "%" PRIu64 " bit times\n", h->interface_delay_bits);
	rc_out_uint(o, "total_bytes", "  total       %8" PRIu64 " B\n", h->total_bytes);
	rc_out_close_object(o);
	rc_out_end(o);
}

/* Everything headroom refuses is in its command line: a usage error. */
__attribute__((format(printf, 1, 2))) static int fail(const char *fmt, ...)
{
	va_list ap;

	fputs("rocectl headroom: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return RC_EXIT_USAGE;
}

int cmd_headroom(int argc, char **argv, const struct rc_global *g)
{
	struct args a = {0};
	struct rc_headroom h;
	struct rc_err err = {0};
	struct rc_out o;
	uint32_t speed = 0, cable = 0, mtu = DEFAULT_MTU;
	const char *why = NULL;
	int npos = 0, rc;

	(void)g;
	rc = rc_parse_options(argc, argv, usage_line, options, on_option, &a, &npos);
	if (rc > 0)
		return RC_EXIT_OK; /* --help */
	if (rc < 0)
		return RC_EXIT_USAGE;
	if (npos > 0)
		return fail("unexpected argument '%s'", argv[0]);
	if (!a.speed)
		return fail("--speed is required (e.g. --speed 400G)");
	if (!a.cable)
		return fail("--cable is required (e.g. --cable 30m)");
	if (rc_parse_speed(a.speed, &speed, &why) < 0)
		return fail("invalid speed '%s': %s", a.speed, why ? why : "expected e.g. 400G");
	if (rc_parse_length(a.cable, &cable, &why) < 0)
		return fail("invalid cable length '%s': %s", a.cable,
			    why ? why : "expected e.g. 30m");
	if (a.mtu && parse_mtu(a.mtu, &mtu) < 0)
		return fail("invalid mtu '%s': expected an integer, %u..%u", a.mtu,
			    (unsigned)RC_MTU_MIN, (unsigned)RC_MTU_MAX);
	if (rc_headroom_compute(speed, cable, mtu, &h, &err) < 0)
		return fail("%s", err.msg);

	rc_out_init(&o, stdout, a.json ? RC_OUT_JSON : RC_OUT_TEXT);
	print_headroom(&o, &h);
	return RC_EXIT_OK;
}
