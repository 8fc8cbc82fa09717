/* SPDX-License-Identifier: Apache-2.0 */
/* The sonic-ssh driver's plan notes (its `check` op): what GCU refuses to change live
 * here, the ports outside the inventory a shared map's edit changes too, and GCU's own
 * verdict on the patch (its --dry-run). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "rocectl/util.h"
#include "sonic_session.h"
#include "switch_common.h"

/* ---- plan: notes ---------------------------------------------------------------------------- */

static void prios(char *buf, size_t len, uint8_t bits)
{
	size_t o = 0;

	snprintf(buf, len, "none");
	for (int p = 0; p < RC_NPRIO && o + 3 < len; p++)
		if (bits & (1u << p))
			o += (size_t)snprintf(buf + o, len - o, "%s%d", o ? "," : "", p);
}

/* Per field of a group GCU refuses here: what would have changed. */
static void gated_notes(const struct rc_session *s, const struct rc_port_write *w,
			struct rc_notes *notes)
{
	const struct port_qos *want = w->want, *have = w->have;
	const char *tail = "not live-changeable on this platform";
	char a[24], b[24];

	if ((s->gated & RC_F_PFC) && (want->known & RC_F_PFC) &&
	    want->pfc_enabled != have->pfc_enabled) {
		prios(a, sizeof(a), have->pfc_enabled);
		prios(b, sizeof(b), want->pfc_enabled);
		rc_switch_note(notes, "%s pfc_enabled %s -> %s: %s (%s)", w->port, a, b, tail,
			       s->reason[sonic_group_bit(RC_F_PFC)]);
	}
	if ((s->gated & RC_F_CABLE) && (want->known & RC_F_CABLE) &&
	    want->cable_length_m != have->cable_length_m)
		rc_switch_note(notes, "%s cable_length_m %u -> %u: %s (%s)", w->port,
			       have->cable_length_m, want->cable_length_m, tail,
			       s->reason[sonic_group_bit(RC_F_CABLE)]);
	if ((s->gated & RC_F_HEADROOM) && (want->known & RC_F_HEADROOM))
		for (int p = 0; p < RC_NPRIO; p++) {
			bool has = have->headroom_mask & (1u << p);

			/* the dynamic model derives it: no floor to fall short of */
			if (!(want->headroom_mask & (1u << p)) ||
			    (have->headroom_dynamic && want->headroom_is_min) ||
			    (has && (want->headroom_is_min
					 ? have->headroom_bytes[p] >= want->headroom_bytes[p]
					 : have->headroom_bytes[p] == want->headroom_bytes[p])))
				continue;
			rc_switch_note(notes, "%s headroom[%d].bytes %s%llu -> %s%llu: %s (%s)",
				       w->port, p, has ? "" : "none",
				       has ? (unsigned long long)have->headroom_bytes[p] : 0ull,
				       want->headroom_is_min ? ">= " : "",
				       (unsigned long long)want->headroom_bytes[p], tail,
				       s->reason[sonic_group_bit(RC_F_HEADROOM)]);
		}
	if ((s->gated & RC_F_WATCHDOG) && (want->known & RC_F_WATCHDOG)) {
		const struct rc_watchdog *ww = &want->watchdog, *hw = &have->watchdog;
		const char *r = s->reason[sonic_group_bit(RC_F_WATCHDOG)];

		if (ww->enabled != hw->enabled)
			rc_switch_note(notes, "%s watchdog.enabled %s -> %s: %s (%s)", w->port,
				       hw->enabled ? "true" : "false",
				       ww->enabled ? "true" : "false", tail, r);
		if (ww->enabled && ww->detection_ms != hw->detection_ms)
			rc_switch_note(notes, "%s watchdog.detection_ms %u -> %u: %s (%s)", w->port,
				       hw->detection_ms, ww->detection_ms, tail, r);
		if (ww->enabled && ww->restoration_ms != hw->restoration_ms)
			rc_switch_note(notes, "%s watchdog.restoration_ms %u -> %u: %s (%s)",
				       w->port, hw->restoration_ms, ww->restoration_ms, tail, r);
		if (ww->enabled && ww->action != hw->action)
			rc_switch_note(notes, "%s watchdog.action %s -> %s: %s (%s)", w->port,
				       hw->action == RC_WD_FORWARD ? "forward" : "drop",
				       ww->action == RC_WD_FORWARD ? "forward" : "drop", tail, r);
	}
}

static bool managed(const struct rc_session *s, const char *port, size_t len)
{
	for (size_t i = 0; i < s->read.n; i++)
		if (strlen(s->read.port[i]) == len && !strncmp(s->read.port[i], port, len))
			return true;
	return false;
}

/* Ports outside the inventory that bind `key` of `table` (a map or WRED profile the ops
 * change): they change too.  The first one found goes in `example`. */
static size_t unmanaged_users(const struct rc_session *s, const char *table, const char *key,
			      char *example, size_t len)
{
	bool wred = !strcmp(table, "WRED_PROFILE");
	const char *field = !strcmp(table, "DSCP_TO_TC_MAP") ? "dscp_to_tc_map" : "tc_to_queue_map";
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(s->cfg, wred ? "QUEUE" : "PORT_QOS_MAP");
	const cJSON *e;
	char last[RC_NAME_MAX] = "";
	size_t n = 0;

	example[0] = '\0';
	if (!cJSON_IsObject(t))
		return 0;
	cJSON_ArrayForEach(e, t)
	{
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(e, wred ? "wred_profile" : field);
		const char *bar = e->string ? strchr(e->string, '|') : NULL;
		size_t plen = bar ? (size_t)(bar - e->string) : e->string ? strlen(e->string) : 0;

		if (!cJSON_IsString(f) || strcmp(f->valuestring, key) || !plen ||
		    plen >= sizeof(last) || !strcmp(e->string, "global") ||
		    managed(s, e->string, plen))
			continue;
		/* QUEUE keys of one port follow each other: count the port once */
		if (!strncmp(last, e->string, plen) && !last[plen])
			continue;
		snprintf(last, sizeof(last), "%.*s", (int)plen, e->string);
		if (!n++)
			snprintf(example, len, "%s", last);
	}
	return n;
}

static void shared_notes(const struct rc_session *s, const struct sonic_ops *ops,
			 struct rc_notes *notes)
{
	for (size_t i = 0; i < ops->n; i++) {
		const struct sonic_op *o = &ops->v[i];
		char example[RC_NAME_MAX];
		bool seen = false;
		size_t k;

		if (strcmp(o->table, "DSCP_TO_TC_MAP") && strcmp(o->table, "TC_TO_QUEUE_MAP") &&
		    strcmp(o->table, "WRED_PROFILE"))
			continue;
		for (size_t j = 0; j < i; j++)
			seen |=
			    !strcmp(ops->v[j].table, o->table) && !strcmp(ops->v[j].key, o->key);
		if (seen || !(k = unmanaged_users(s, o->table, o->key, example, sizeof(example))))
			continue;
		rc_switch_note(
		    notes,
		    "%s|%s is shared with %zu port%s not in the inventory (%s%s): they change too",
		    o->table, o->key, k, k == 1 ? "" : "s", example, k > 1 ? ", ..." : "");
	}
}

int sonic_check(struct rc_session *s, const struct rc_port_write *w, size_t n,
		struct rc_notes *notes, struct rc_err *err)
{
	struct rc_port_write *writes = calloc(n ? n : 1, sizeof(*writes));
	struct sonic_ops ops = {0};
	struct rc_err berr = {0};
	char *patch = NULL, why[400], instead[RC_NOTE_LEN];
	size_t nw = 0;
	int rc = 0, n_ops = 0;

	if (!writes)
		return rc_errf(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		gated_notes(s, &w[i], notes);
		if (w[i].fields)
			writes[nw++] = w[i];
	}
	if (!nw)
		goto out;
	if (sonic_build(s, writes, nw, &ops, &berr)) {
		rc_switch_note(notes, "apply would write nothing and fail: %s", berr.msg);
		notes->apply_fails = true;
		goto out;
	}
	if (!ops.n)
		goto out;
	/* plan without --gcu-dry-run: the read probed nothing and nothing more is sent (a
	 * SONiC switch is read with one command line); GCU's verdict is left to apply */
	if (s->opts.no_platform_dry_runs) {
		shared_notes(s, &ops, notes);
		rc_switch_note(notes,
			       "GCU dry run not asked: 'plan --gcu-dry-run' asks GCU whether it "
			       "would apply the patch (%zu operation%s) and which lossless tables "
			       "it changes live here",
			       ops.n, ops.n == 1 ? "" : "s");
		goto out;
	}
	/* the ports outside the inventory that a shared map's edit changes: only for what is
	 * sent (a map GCU refuses is re-bound per port instead, and a refused patch sends
	 * nothing) */
	if (sonic_settle(s, writes, nw, &ops, &patch, &n_ops, why, sizeof(why), instead,
			 sizeof(instead), &berr)) {
		rc_switch_note(notes, "GCU dry run: the patch (%d operation%s) was refused: %s",
			       n_ops, n_ops == 1 ? "" : "s", why);
		if (instead[0])
			rc_switch_note(notes, "%s", instead);
	} else {
		shared_notes(s, &ops, notes);
		if (instead[0])
			rc_switch_note(notes, "%s", instead);
		rc_switch_note(notes, "GCU dry run: the patch (%d operation%s) would apply", n_ops,
			       n_ops == 1 ? "" : "s");
	}
out:
	free(patch);
	free(writes);
	sonic_ops_free(&ops);
	return rc;
}
