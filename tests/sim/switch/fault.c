/* SPDX-License-Identifier: Apache-2.0 */
/* Injected faults, kept in the switch's state file ("faults" object) so that every SSH
 * session and the REST server see the same ones:
 *   reject-next [N]  the next N applies fail (default 1)
 *   hang [always]    the next command (or every command) never answers
 *   drop-after N     N more commands are served, then the connection of the next is dropped
 *   slow MS          every command is delayed by MS milliseconds (0 = off)
 *   http-error N [STATUS] [after]
 *                    REST only: N more requests are served, then the next one answers
 *                    STATUS (default 503) -- before it is carried out, or with `after`
 *                    once it has been (a proxy in front of the API whose upstream was slow
 *                    answers 502/504 for a request that still took effect); one-shot
 *   clear            remove every fault */
#include <stdlib.h>
#include <string.h>

#include "sim.h"

static cJSON *faults(cJSON *st)
{
	cJSON *f = jget1(st, "faults");
	if (!cJSON_IsObject(f)) {
		f = cJSON_CreateObject();
		jput(st, "faults", f);
	}
	return f;
}

enum sim_fault_action sim_fault_before(struct sim_ctx *ctx, long *slow_ms)
{
	cJSON *f = faults(ctx->st);
	*slow_ms = jint(f, "slow-ms", 0);

	long hang = jint(f, "hang", 0);
	if (hang != 0) {
		if (hang > 0) {
			cJSON_DeleteItemFromObjectCaseSensitive(f, "hang");
			ctx->dirty = true;
		}
		return FAULT_HANG;
	}
	long drop = jint(f, "drop-after", -1);
	if (drop == 0) {
		cJSON_DeleteItemFromObjectCaseSensitive(f, "drop-after");
		ctx->dirty = true;
		return FAULT_DROP;
	}
	if (drop > 0) {
		jput(f, "drop-after", cJSON_CreateNumber((double)(drop - 1)));
		ctx->dirty = true;
	}
	return FAULT_NONE;
}

int sim_fault_take_http_error(struct sim_ctx *ctx, bool *after)
{
	cJSON *f = faults(ctx->st);
	long n = jint(f, "http-error-after", -1);
	int status = (int)jint(f, "http-error-status", 503);

	*after = jint(f, "http-error-done", 0) != 0;
	if (n < 0)
		return 0;
	ctx->dirty = true;
	if (n > 0) {
		jput(f, "http-error-after", cJSON_CreateNumber((double)(n - 1)));
		return 0;
	}
	cJSON_DeleteItemFromObjectCaseSensitive(f, "http-error-after");
	cJSON_DeleteItemFromObjectCaseSensitive(f, "http-error-status");
	cJSON_DeleteItemFromObjectCaseSensitive(f, "http-error-done");
	return status;
}

bool sim_fault_take_reject(struct sim_ctx *ctx)
{
	cJSON *f = faults(ctx->st);
	long n = jint(f, "reject-next", 0);
	if (n <= 0)
		return false;
	if (n == 1)
		cJSON_DeleteItemFromObjectCaseSensitive(f, "reject-next");
	else
		jput(f, "reject-next", cJSON_CreateNumber((double)(n - 1)));
	ctx->dirty = true;
	return true;
}

static int number_arg(const char *what, const char *s, long max, long *v, char *err, size_t errlen)
{
	if (!is_uint(s) || strtol(s, NULL, 10) > max) {
		snprintf(err, errlen, "%s: '%s' is not a number between 0 and %ld", what,
			 s ? s : "", max);
		return -1;
	}
	*v = strtol(s, NULL, 10);
	return 0;
}

int sim_fault_set(cJSON *st, int argc, char **argv, char *err, size_t errlen)
{
	cJSON *f = faults(st);
	long v = 1;
	if (argc < 1) {
		snprintf(err, errlen, "missing fault name");
		return -1;
	}
	const char *what = argv[0];
	if (strcmp(what, "reject-next") == 0 && argc <= 2) {
		if (argc == 2 && number_arg(what, argv[1], 1000000, &v, err, errlen) < 0)
			return -1;
		jput(f, "reject-next", cJSON_CreateNumber((double)v));
	} else if (strcmp(what, "hang") == 0 && argc <= 2) {
		if (argc == 2 && strcmp(argv[1], "always") != 0) {
			snprintf(err, errlen, "hang: expected 'always', got '%s'", argv[1]);
			return -1;
		}
		jput(f, "hang", cJSON_CreateNumber(argc == 2 ? -1 : 1));
	} else if (strcmp(what, "drop-after") == 0 && argc == 2) {
		if (number_arg(what, argv[1], 1000000, &v, err, errlen) < 0)
			return -1;
		jput(f, "drop-after", cJSON_CreateNumber((double)v));
	} else if (strcmp(what, "slow") == 0 && argc == 2) {
		if (number_arg(what, argv[1], 3600000, &v, err, errlen) < 0)
			return -1;
		if (v == 0)
			cJSON_DeleteItemFromObjectCaseSensitive(f, "slow-ms");
		else
			jput(f, "slow-ms", cJSON_CreateNumber((double)v));
	} else if (strcmp(what, "http-error") == 0 && argc >= 2 && argc <= 4) {
		long status = 503;
		bool after = false;
		if (number_arg(what, argv[1], 1000000, &v, err, errlen) < 0)
			return -1;
		for (int i = 2; i < argc; i++) {
			if (strcmp(argv[i], "after") == 0) {
				after = true;
			} else if (number_arg(what, argv[i], 599, &status, err, errlen) < 0 ||
				   status < 500) {
				snprintf(err, errlen,
					 "http-error: '%s' is not a 5xx status or 'after'",
					 argv[i]);
				return -1;
			}
		}
		jput(f, "http-error-after", cJSON_CreateNumber((double)v));
		jput(f, "http-error-status", cJSON_CreateNumber((double)status));
		jput(f, "http-error-done", cJSON_CreateNumber(after ? 1 : 0));
	} else if (strcmp(what, "confirm-minute") == 0 && argc == 2) {
		/* a test knob, not a fault: how many seconds one minute of NVUE's `nv config
		 * apply --confirm <minutes>` lasts ("5" or "5s"; 60 is real time) */
		char num[16];
		size_t n = strlen(argv[1]);
		if (n > 1 && argv[1][n - 1] == 's')
			n--;
		snprintf(num, sizeof(num), "%.*s", (int)(n < sizeof(num) ? n : sizeof(num) - 1),
			 argv[1]);
		if (number_arg(what, num, 3600, &v, err, errlen) < 0)
			return -1;
		if (v < 1) {
			snprintf(err, errlen, "confirm-minute: at least 1 second");
			return -1;
		}
		jput(f, "confirm-minute", cJSON_CreateNumber((double)v));
	} else if (strcmp(what, "clear") == 0 && argc == 1) {
		jput(st, "faults", cJSON_CreateObject());
	} else {
		snprintf(err, errlen,
			 "unknown fault '%s' (reject-next [N] | hang [always] | drop-after N | "
			 "slow MS | http-error N [STATUS] [after] | confirm-minute SECONDS | "
			 "drift PATH=VALUE | clear)",
			 what);
		return -1;
	}
	return 0;
}
