/* SPDX-License-Identifier: Apache-2.0 */
/* The NVUE object model for the parts rocectl touches (Cumulus Linux QoS guide and RoCE page), used
 * by the CLI parser, the REST validator and the show renderers alike so that they cannot disagree.
 * JSON keys are the CLI keywords; ids are object keys; list-membership collections are
 * objects of empty objects ({"3": {}}). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "nvue.h"

static const char *const V_ONOFF[] = {"on", "off", NULL};
static const char *const V_ENABLED[] = {"enabled", "disabled", NULL};
static const char *const V_ENDIS[] = {"enable", "disable", NULL};
static const char *const V_ROCE_MODE[] = {"lossless", "lossy", "lossless-single-ipool",
					  "lossy-multi-tc", NULL};
static const char *const V_TRUST[] = {"l2", "l3", "port", "both", NULL};
static const char *const V_SCHED[] = {"dwrr", "strict", NULL};
static const char *const V_POOLS[] = {"default-lossy", "default-lossless", "mc-lossy",
				      "roce-lossy",    "roce-lossless",	   NULL};

#define THRESH_MAX 134217728L /* no published limit; 128 MiB is beyond any Spectrum buffer */

static const struct nv_node roce_kids[] = {
    {.key = "enable",
     .kind = NV_ENUM,
     .vals = V_ONOFF,
     .def = "off",
     .desc = "Turn the feature 'on' or 'off'. The default is 'off'.",
     .flags = NVF_ROCE_EN | NVF_BARE},
    {.key = "state",
     .kind = NV_ENUM,
     .vals = V_ENABLED,
     .def = "disabled",
     .desc = "The state of RoCE",
     .flags = NVF_ROCE_EN | NVF_BARE},
    {.key = "mode", .kind = NV_ENUM, .vals = V_ROCE_MODE, .def = "lossless", .desc = "Roce Mode"},
    {.key = "cable-length",
     .kind = NV_INT,
     .lo = 1,
     .hi = 100000,
     .def = "100",
     .desc = "Cable Length (in meters) for Roce Lossless Config"},
    {0}};

static const struct nv_node sp_kids[] = {{.key = "switch-priority",
					  .kind = NV_INT,
					  .lo = 0,
					  .hi = 7,
					  .desc = "Internal Switch Priority"},
					 {0}};
static const struct nv_node sp_entry = {.kind = NV_OBJ, .sub = sp_kids};

static const struct nv_node mapping_kids[] = {
    {.key = "trust",
     .kind = NV_ENUM,
     .vals = V_TRUST,
     .def = "l2",
     .desc = "Trust Setting on the port for packet classification"},
    {.key = "port-default-sp",
     .kind = NV_INT,
     .lo = 0,
     .hi = 7,
     .def = "0",
     .desc = "Port Default Switch Priority"},
    {.key = "dscp",
     .kind = NV_COLL,
     .sub = &sp_entry,
     .idk = ID_NUM,
     .lo = 0,
     .hi = 63,
     .desc = "DSCP to switch priority mapping"},
    {.key = "pcp",
     .kind = NV_COLL,
     .sub = &sp_entry,
     .idk = ID_NUM,
     .lo = 0,
     .hi = 7,
     .desc = "PCP to switch priority mapping"},
    {0}};
static const struct nv_node mapping_entry = {.kind = NV_OBJ, .sub = mapping_kids};

static const struct nv_node pfc_kids[] = {
    {.key = "switch-priority",
     .kind = NV_SET,
     .idk = ID_NUM,
     .lo = 0,
     .hi = 7,
     .desc = "Collection of switch priorities."},
    {.key = "tx", .kind = NV_ENUM, .vals = V_ENDIS, .def = "enable", .desc = "PFC Tx State"},
    {.key = "rx", .kind = NV_ENUM, .vals = V_ENDIS, .def = "enable", .desc = "PFC Rx State"},
    {.key = "cable-length",
     .kind = NV_INT,
     .lo = 1,
     .hi = 100000,
     .def = "10",
     .desc = "Cable Length (in meters)"},
    {.key = "port-buffer",
     .kind = NV_INT,
     .lo = 0,
     .hi = THRESH_MAX,
     .desc = "Port Buffer (in bytes)",
     .flags = NVF_BYTES},
    {.key = "xoff-threshold",
     .kind = NV_INT,
     .lo = 0,
     .hi = THRESH_MAX,
     .desc = "Xoff Threshold (in bytes)",
     .flags = NVF_BYTES},
    {.key = "xon-threshold",
     .kind = NV_INT,
     .lo = 0,
     .hi = THRESH_MAX,
     .desc = "Xon Threshold (in bytes)",
     .flags = NVF_BYTES},
    {0}};
static const struct nv_node pfc_entry = {.kind = NV_OBJ, .sub = pfc_kids};

static const struct nv_node cc_tc_kids[] = {
    {.key = "ecn",
     .kind = NV_ENUM,
     .vals = V_ENDIS,
     .def = "enable",
     .desc = "Early Congestion Notification State"},
    {.key = "max-threshold",
     .kind = NV_INT,
     .lo = 1,
     .hi = THRESH_MAX,
     .def = "1500000",
     .desc = "Maximum Threshold (in bytes)",
     .flags = NVF_BYTES},
    {.key = "min-threshold",
     .kind = NV_INT,
     .lo = 1,
     .hi = THRESH_MAX,
     .def = "150000",
     .desc = "Minimum Threshold (in bytes)",
     .flags = NVF_BYTES},
    {.key = "probability", .kind = NV_INT, .lo = 1, .hi = 100, .def = "100", .desc = "Probability"},
    {.key = "red",
     .kind = NV_ENUM,
     .vals = V_ENDIS,
     .def = "disable",
     .desc = "Random Early Detection State"},
    {0}};
static const struct nv_node cc_tc_entry = {.kind = NV_OBJ, .sub = cc_tc_kids};
static const struct nv_node cc_kids[] = {{.key = "traffic-class",
					  .kind = NV_COLL,
					  .sub = &cc_tc_entry,
					  .idk = ID_NUM,
					  .lo = 0,
					  .hi = 7,
					  .desc = "Traffic classes"},
					 {0}};
static const struct nv_node cc_entry = {.kind = NV_OBJ, .sub = cc_kids};

static const struct nv_node wd_kids[] = {
    /* ranges: Cumulus Linux 5.6 release notes, new commands (polling-interval 100-5000,
     * robustness 1-1000); Cumulus Linux 5.6 release notes, new commands */
    {.key = "polling-interval",
     .kind = NV_INT,
     .lo = 100,
     .hi = 5000,
     .def = "100",
     .desc = "PFC watchdog polling interval (in milliseconds)"},
    {.key = "robustness",
     .kind = NV_INT,
     .lo = 1,
     .hi = 1000,
     .def = "3",
     .desc = "PFC watchdog robustness"},
    {0}};

static const struct nv_node eqm_sp_kids[] = {
    {.key = "traffic-class", .kind = NV_INT, .lo = 0, .hi = 7, .desc = "Traffic Class"}, {0}};
static const struct nv_node eqm_sp_entry = {.kind = NV_OBJ, .sub = eqm_sp_kids};
static const struct nv_node eqm_kids[] = {{.key = "switch-priority",
					   .kind = NV_COLL,
					   .sub = &eqm_sp_entry,
					   .idk = ID_NUM,
					   .lo = 0,
					   .hi = 7,
					   .desc = "Switch priority to traffic class mapping"},
					  {0}};
static const struct nv_node eqm_entry = {.kind = NV_OBJ, .sub = eqm_kids};

static const struct nv_node sched_tc_kids[] = {
    {.key = "mode", .kind = NV_ENUM, .vals = V_SCHED, .desc = "Scheduler mode"},
    {.key = "bw-percent",
     .kind = NV_INT,
     .lo = 1,
     .hi = 100,
     .desc = "Bandwidth percentage for dwrr"},
    {0}};
static const struct nv_node sched_tc_entry = {.kind = NV_OBJ, .sub = sched_tc_kids};
static const struct nv_node sched_kids[] = {{.key = "traffic-class",
					     .kind = NV_COLL,
					     .sub = &sched_tc_entry,
					     .idk = ID_NUM,
					     .lo = 0,
					     .hi = 7,
					     .desc = "Traffic classes"},
					    {0}};
static const struct nv_node sched_entry = {.kind = NV_OBJ, .sub = sched_kids};

static const struct nv_node pool_kids[] = {{.key = "memory-percent",
					    .kind = NV_INT,
					    .lo = 0,
					    .hi = 100,
					    .desc = "Memory percent of the pool"},
					   {.key = "switch-priority",
					    .kind = NV_SET,
					    .idk = ID_NUM,
					    .lo = 0,
					    .hi = 7,
					    .desc = "Switch priorities in the pool"},
					   {0}};
static const struct nv_node pool_entry = {.kind = NV_OBJ, .sub = pool_kids};

static const struct nv_node qos_kids[] = {
    {.key = "roce", .kind = NV_OBJ, .sub = roce_kids, .desc = "RoCE configuration"},
    {.key = "mapping",
     .kind = NV_COLL,
     .sub = &mapping_entry,
     .idk = ID_NAME,
     .desc = "QoS mapping profiles"},
    {.key = "pfc", .kind = NV_COLL, .sub = &pfc_entry, .idk = ID_NAME, .desc = "PFC profiles"},
    {.key = "congestion-control",
     .kind = NV_COLL,
     .sub = &cc_entry,
     .idk = ID_NAME,
     .desc = "Congestion control profiles"},
    {.key = "pfc-watchdog", .kind = NV_OBJ, .sub = wd_kids, .desc = "PFC watchdog"},
    {.key = "egress-queue-mapping",
     .kind = NV_COLL,
     .sub = &eqm_entry,
     .idk = ID_NAME,
     .desc = "Egress queue mapping profiles"},
    {.key = "egress-scheduler",
     .kind = NV_COLL,
     .sub = &sched_entry,
     .idk = ID_NAME,
     .desc = "Egress scheduler profiles"},
    {.key = "traffic-pool",
     .kind = NV_COLL,
     .sub = &pool_entry,
     .idk = ID_ENUM,
     .vals = V_POOLS,
     .desc = "Traffic pools"},
    {0}};

#define PROFILE_REF(k, d)                                                                          \
	{                                                                                          \
		.key = k, .kind = NV_STR, .desc = d                                                \
	}

static const struct nv_node if_map_kids[] = {PROFILE_REF("profile", "Mapping profile"), {0}};
static const struct nv_node if_pfc_kids[] = {PROFILE_REF("profile", "PFC profile"), {0}};
static const struct nv_node if_cc_kids[] = {PROFILE_REF("profile", "Congestion control profile"),
					    {0}};
static const struct nv_node if_sched_kids[] = {PROFILE_REF("profile", "Egress scheduler profile"),
					       {0}};
static const struct nv_node if_wd_kids[] = {{.key = "state",
					     .kind = NV_ENUM,
					     .vals = V_ENDIS,
					     .def = "disable",
					     .desc = "PFC watchdog state",
					     .flags = NVF_BARE},
					    {0}};
static const struct nv_node if_qos_kids[] = {
    {.key = "mapping", .kind = NV_OBJ, .sub = if_map_kids, .desc = "Mapping binding"},
    {.key = "pfc", .kind = NV_OBJ, .sub = if_pfc_kids, .desc = "PFC binding"},
    {.key = "congestion-control",
     .kind = NV_OBJ,
     .sub = if_cc_kids,
     .desc = "Congestion control binding"},
    {.key = "egress-scheduler",
     .kind = NV_OBJ,
     .sub = if_sched_kids,
     .desc = "Egress scheduler binding"},
    {.key = "pfc-watchdog", .kind = NV_OBJ, .sub = if_wd_kids, .desc = "PFC watchdog"},
    {0}};
static const struct nv_node if_kids[] = {
    {.key = "qos", .kind = NV_OBJ, .sub = if_qos_kids, .desc = "QoS"}, {0}};
static const struct nv_node if_entry = {.kind = NV_OBJ, .sub = if_kids};

/* The credentials of `nv set system aaa ...` and `nv set service snmp-server ...` (Cumulus
 * Linux user guide, "TACACS", "RADIUS AAA", "User Accounts", "SNMP"): rocectl never sets
 * them; the simulator holds them so that a capture (`nv config show`) can be shown to scrub
 * them.  Strings follow this schema's name rule, so hashes are not real ones. */
static const struct nv_node secret_kids[] = {
    {.key = "host", .kind = NV_STR, .desc = "Server address"},
    {.key = "secret", .kind = NV_STR, .desc = "Shared secret"},
    {0}};
static const struct nv_node secret_entry = {.kind = NV_OBJ, .sub = secret_kids};
static const struct nv_node tacacs_kids[] = {
    {.key = "secret", .kind = NV_STR, .desc = "Shared secret"},
    {.key = "server",
     .kind = NV_COLL,
     .sub = &secret_entry,
     .idk = ID_NUM,
     .lo = 1,
     .hi = 8,
     .desc = "TACACS+ servers by priority"},
    {0}};
static const struct nv_node radius_kids[] = {
    {.key = "server", .kind = NV_COLL, .sub = &secret_entry, .idk = ID_NAME, .desc = "RADIUS"},
    {0}};
static const struct nv_node user_kids[] = {
    {.key = "hashed-password", .kind = NV_STR, .desc = "Hashed password"},
    {.key = "password", .kind = NV_STR, .desc = "Password"},
    {0}};
static const struct nv_node user_entry = {.kind = NV_OBJ, .sub = user_kids};
static const struct nv_node aaa_kids[] = {
    {.key = "tacacs", .kind = NV_OBJ, .sub = tacacs_kids, .desc = "TACACS+"},
    {.key = "radius", .kind = NV_OBJ, .sub = radius_kids, .desc = "RADIUS"},
    {.key = "user", .kind = NV_COLL, .sub = &user_entry, .idk = ID_NAME, .desc = "Users"},
    {0}};
static const struct nv_node system_kids[] = {
    {.key = "aaa", .kind = NV_OBJ, .sub = aaa_kids, .desc = "AAA"}, {0}};
static const struct nv_node community_kids[] = {
    {.key = "access", .kind = NV_SET, .idk = ID_NAME, .desc = "Who may use it"}, {0}};
static const struct nv_node community_entry = {.kind = NV_OBJ, .sub = community_kids};
static const struct nv_node snmp_kids[] = {{.key = "readonly-community",
					    .kind = NV_COLL,
					    .sub = &community_entry,
					    .idk = ID_NAME,
					    .desc = "SNMP read-only communities"},
					   {0}};
static const struct nv_node service_kids[] = {
    {.key = "snmp-server", .kind = NV_OBJ, .sub = snmp_kids, .desc = "SNMP server"}, {0}};

static const struct nv_node root_kids[] = {
    {.key = "interface", .kind = NV_COLL, .sub = &if_entry, .idk = ID_IF, .desc = "Interfaces"},
    {.key = "qos", .kind = NV_OBJ, .sub = qos_kids, .desc = "QoS"},
    {.key = "system", .kind = NV_OBJ, .sub = system_kids, .desc = "System"},
    {.key = "service", .kind = NV_OBJ, .sub = service_kids, .desc = "Services"},
    {0}};

const struct nv_node nv_root = {.key = "", .kind = NV_OBJ, .sub = root_kids};

const struct nv_node *nv_kid(const struct nv_node *obj, const char *key)
{
	if (!obj || obj->kind != NV_OBJ)
		return NULL;
	for (const struct nv_node *k = obj->sub; k->key; k++)
		if (strcmp(k->key, key) == 0)
			return k;
	return NULL;
}

/* CL 5.15 renamed "qos roce enable on|off" to "qos roce state enabled|disabled". */
const char *nv_canon_key(const struct nv_sw *sw, const struct nv_node *kid)
{
	if (kid->flags & NVF_ROCE_EN)
		return sw->version >= 515 ? "state" : "enable";
	return kid->key;
}

const struct nv_node *nv_node_at(const char *const *path, int n, bool *member)
{
	const struct nv_node *cur = &nv_root;
	*member = false;
	for (int i = 0; i < n && cur; i++) {
		if (*member)
			return NULL;
		switch (cur->kind) {
		case NV_OBJ:
			cur = nv_kid(cur, path[i]);
			break;
		case NV_COLL:
			cur = cur->sub;
			break;
		case NV_SET:
			*member = true;
			break;
		default:
			return NULL;
		}
	}
	return cur;
}

static bool name_ok(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 63 || !isalnum((unsigned char)s[0]))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_.-", *s))
			return false;
	return true;
}

static bool ifname_ok(const char *s)
{
	return strncmp(s, "swp", 3) == 0 && is_uint(s + 3) && s[3] != '0' && strlen(s) < 12;
}

int nv_check_id(const struct nv_node *coll, const char *id, struct sbuf *err)
{
	switch (coll->idk) {
	case ID_NUM:
		if (!is_uint(id) || strtol(id, NULL, 10) < coll->lo ||
		    strtol(id, NULL, 10) > coll->hi || (strlen(id) > 1 && id[0] == '0')) {
			sb_addf(err, "'%s' is not a valid %s: expected an integer in %ld-%ld", id,
				coll->key, coll->lo, coll->hi);
			return -1;
		}
		return 0;
	case ID_NAME:
		if (!name_ok(id)) {
			sb_addf(err, "'%s' does not match '^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$'", id);
			return -1;
		}
		return 0;
	case ID_IF:
		if (!ifname_ok(id)) {
			sb_addf(err, "'%s' is not a valid interface name", id);
			return -1;
		}
		return 0;
	case ID_ENUM:
		for (const char *const *v = coll->vals; *v; v++)
			if (strcmp(*v, id) == 0)
				return 0;
		sb_addf(err, "'%s' is not one of [", id);
		for (const char *const *v = coll->vals; *v; v++)
			sb_addf(err, "%s'%s'", v == coll->vals ? "" : ", ", *v);
		sb_adds(err, "]");
		return -1;
	default:
		sb_adds(err, "unexpected id");
		return -1;
	}
}

static int push_id(char ***ids, int *n, const char *id)
{
	for (int i = 0; i < *n; i++)
		if (strcmp((*ids)[i], id) == 0)
			return 0;
	if (*n >= NV_MAX_IDS)
		return -1;
	(*ids)[(*n)++] = strdup(id);
	return 0;
}

/* "swp1-4,swp6" or "swp1-swp4" */
static int expand_ifs(const char *word, char ***ids, int *n, struct sbuf *err)
{
	char tmp[512];
	if (strlen(word) >= sizeof(tmp)) {
		sb_adds(err, "interface list too long");
		return -1;
	}
	strcpy(tmp, word);
	char *save = NULL;
	for (char *it = strtok_r(tmp, ",", &save); it; it = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(it, '-');
		if (!dash) {
			if (nv_check_id(&(struct nv_node){.idk = ID_IF}, it, err) < 0 ||
			    push_id(ids, n, it) < 0)
				return -1;
			continue;
		}
		*dash = '\0';
		const char *hi = dash + 1;
		if (strncmp(hi, "swp", 3) == 0)
			hi += 3;
		if (!ifname_ok(it) || !is_uint(hi)) {
			sb_addf(err, "'%s-%s' is not a valid interface range", it, dash + 1);
			return -1;
		}
		long a = strtol(it + 3, NULL, 10), b = strtol(hi, NULL, 10);
		if (b < a || b - a >= NV_MAX_IDS) {
			sb_addf(err, "'%s-%s' is not a valid interface range", it, dash + 1);
			return -1;
		}
		for (long v = a; v <= b; v++) {
			char name[32];
			snprintf(name, sizeof(name), "swp%ld", v);
			if (push_id(ids, n, name) < 0) {
				sb_adds(err, "too many interfaces");
				return -1;
			}
		}
	}
	return 0;
}

int nv_expand_ids(const struct nv_node *coll, const char *word, char ***ids, struct sbuf *err)
{
	int n = 0;
	*ids = calloc(NV_MAX_IDS + 1, sizeof(char *));
	if (!*ids)
		abort();
	if (coll->idk == ID_NUM) {
		long v[64];
		int k = parse_id_list(word, coll->lo, coll->hi, v, 64);
		if (k < 0) {
			sb_addf(err, "'%s' is not a valid %s: expected integers in %ld-%ld", word,
				coll->key, coll->lo, coll->hi);
			goto fail;
		}
		for (int i = 0; i < k; i++) {
			char s[24];
			snprintf(s, sizeof(s), "%ld", v[i]);
			push_id(ids, &n, s);
		}
	} else if (coll->idk == ID_IF) {
		if (expand_ifs(word, ids, &n, err) < 0)
			goto fail;
	} else {
		if (nv_check_id(coll, word, err) < 0)
			goto fail;
		push_id(ids, &n, word);
	}
	return n;
fail:
	for (int i = 0; i < n; i++)
		free((*ids)[i]);
	free(*ids);
	*ids = NULL;
	return -1;
}

static int bool_word(const char *s)
{
	if (!strcmp(s, "on") || !strcmp(s, "enable") || !strcmp(s, "enabled"))
		return 1;
	if (!strcmp(s, "off") || !strcmp(s, "disable") || !strcmp(s, "disabled"))
		return 0;
	return -1;
}

bool nv_is_bool_enum(const struct nv_node *leaf)
{
	return leaf->kind == NV_ENUM && leaf->vals[0] && leaf->vals[1] && !leaf->vals[2] &&
	       bool_word(leaf->vals[0]) == 1 && bool_word(leaf->vals[1]) == 0;
}

/* Releases differ in enable/enabled/on spellings (Cumulus Linux "NVUE API"): accept all of them and
 * store the one this node uses. */
const char *nv_enum_canon(const struct nv_node *leaf, const char *s)
{
	for (const char *const *v = leaf->vals; *v; v++)
		if (strcmp(*v, s) == 0)
			return *v;
	if (nv_is_bool_enum(leaf)) {
		int b = bool_word(s);
		if (b >= 0)
			return leaf->vals[b ? 0 : 1];
	}
	return NULL;
}

static void enum_error(struct sbuf *err, const struct nv_node *leaf, const char *s)
{
	sb_addf(err, "'%s' is not one of [", s);
	for (const char *const *v = leaf->vals; *v; v++)
		sb_addf(err, "%s'%s'", v == leaf->vals ? "" : ", ", *v);
	sb_adds(err, "]");
}

cJSON *nv_parse_value(const struct nv_sw *sw, const struct nv_node *leaf, const char *text,
		      struct sbuf *err)
{
	(void)sw;
	switch (leaf->kind) {
	case NV_INT: {
		if (!is_uint(text) || (strlen(text) > 1 && text[0] == '0')) {
			sb_addf(err, "'%s' is not of type 'integer'", text);
			return NULL;
		}
		long v = strtol(text, NULL, 10);
		if (v < leaf->lo) {
			sb_addf(err, "%ld is less than the minimum of %ld", v, leaf->lo);
			return NULL;
		}
		if (v > leaf->hi) {
			sb_addf(err, "%ld is greater than the maximum of %ld", v, leaf->hi);
			return NULL;
		}
		return cJSON_CreateNumber((double)v);
	}
	case NV_ENUM: {
		const char *c = nv_enum_canon(leaf, text);
		if (!c) {
			enum_error(err, leaf, text);
			return NULL;
		}
		return cJSON_CreateString(c);
	}
	case NV_STR:
		if (!name_ok(text)) {
			sb_addf(err, "'%s' does not match '^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$'",
				text);
			return NULL;
		}
		return cJSON_CreateString(text);
	default:
		sb_adds(err, "not a value");
		return NULL;
	}
}

static void value_repr(struct sbuf *err, const cJSON *v)
{
	char *s = cJSON_PrintUnformatted(v);
	if (cJSON_IsString(v))
		sb_addf(err, "'%s'", v->valuestring);
	else
		sb_adds(err, s ? s : "?");
	cJSON_free(s);
}

static int check_leaf(const struct nv_node *leaf, cJSON **val, struct sbuf *err)
{
	cJSON *v = *val;
	switch (leaf->kind) {
	case NV_INT:
		if (!jis_long(v)) {
			value_repr(err, v);
			sb_adds(err, " is not of type 'integer'");
			return -1;
		}
		if (jlong(v, 0) < leaf->lo) {
			sb_addf(err, "%ld is less than the minimum of %ld", jlong(v, 0), leaf->lo);
			return -1;
		}
		if (jlong(v, 0) > leaf->hi) {
			sb_addf(err, "%ld is greater than the maximum of %ld", jlong(v, 0),
				leaf->hi);
			return -1;
		}
		return 0;
	case NV_ENUM: {
		const char *c = cJSON_IsString(v) ? nv_enum_canon(leaf, v->valuestring) : NULL;
		if (!cJSON_IsString(v)) {
			value_repr(err, v);
			sb_adds(err, " is not of type 'string'");
			return -1;
		}
		if (!c) {
			enum_error(err, leaf, v->valuestring);
			return -1;
		}
		if (strcmp(c, v->valuestring) != 0) {
			cJSON_Delete(v);
			*val = cJSON_CreateString(c);
		}
		return 0;
	}
	case NV_STR:
		if (!cJSON_IsString(v)) {
			value_repr(err, v);
			sb_adds(err, " is not of type 'string'");
			return -1;
		}
		if (!name_ok(v->valuestring)) {
			sb_addf(err, "'%s' does not match '^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$'",
				v->valuestring);
			return -1;
		}
		return 0;
	default:
		return -1;
	}
}

static int check_obj(const struct nv_sw *sw, const struct nv_node *node, cJSON *obj,
		     struct sbuf *err, struct sbuf *where);

static int check_json(const struct nv_sw *sw, const struct nv_node *node, cJSON **val,
		      struct sbuf *err, struct sbuf *where)
{
	if (cJSON_IsNull(*val))
		return 0;
	switch (node->kind) {
	case NV_OBJ:
	case NV_COLL:
	case NV_SET:
		if (!cJSON_IsObject(*val)) {
			value_repr(err, *val);
			sb_adds(err, " is not of type 'object'");
			return -1;
		}
		return check_obj(sw, node, *val, err, where);
	default:
		return check_leaf(node, val, err);
	}
}

int nv_check_json(const struct nv_sw *sw, const struct nv_node *node, cJSON **val, struct sbuf *err,
		  struct sbuf *where)
{
	struct sbuf scratch;
	sb_init(&scratch);
	int rc = check_json(sw, node, val, err, where ? where : &scratch);
	sb_free(&scratch);
	return rc;
}

/* Checks every child and rebuilds the object, so that values and keys (enable/state) can
 * be replaced by their canonical spelling. */
static int check_obj(const struct nv_sw *sw, const struct nv_node *node, cJSON *obj,
		     struct sbuf *err, struct sbuf *where)
{
	cJSON *out = cJSON_CreateObject();
	const cJSON *it;
	int rc = 0;
	cJSON_ArrayForEach(it, obj)
	{
		const char *key = it->string;
		const struct nv_node *kid = NULL;
		if (node->kind == NV_OBJ) {
			kid = nv_kid(node, key);
			if (!kid) {
				sb_addf(err,
					"Additional properties are not allowed ('%s' was "
					"unexpected)",
					key);
				rc = -1;
				break;
			}
			if (kid->flags & NVF_ROCE_EN) {
				key = nv_canon_key(sw, kid);
				kid = nv_kid(node, key);
			}
		} else {
			if (nv_check_id(node, key, err) < 0) {
				rc = -1;
				break;
			}
			kid = node->kind == NV_COLL ? node->sub : NULL;
		}
		cJSON *v = cJSON_Duplicate(it, true);
		size_t mark = where->len;
		sb_addf(where, "%s%s", where->len ? "." : "", key);
		if (!cJSON_IsNull(v)) {
			if (kid) {
				rc = check_json(sw, kid, &v, err, where);
			} else if (!cJSON_IsObject(v) || v->child) {
				/* a SET member is an empty object */
				sb_addf(err, "{'%s': ...} member of %s must be {}", key, node->key);
				rc = -1;
			}
		}
		if (rc < 0) {
			cJSON_Delete(v);
			break;
		}
		where->len = mark;
		where->buf[mark] = '\0';
		jput(out, key, v);
	}
	if (rc == 0) {
		cJSON *old = obj->child;
		obj->child = out->child;
		out->child = old;
	}
	cJSON_Delete(out);
	return rc;
}

/* ---- CLI words -> targets ---- */

static int match_kid(const struct nv_node *obj, const char *word, const struct nv_node **kid)
{
	const char *keys[32];
	int n = 0;
	for (const struct nv_node *k = obj->sub; k->key && n < 32; k++)
		keys[n++] = k->key;
	int i = match_word(word, keys, n);
	if (i >= 0)
		*kid = &obj->sub[i];
	return i;
}

static void add_target(struct nv_targets *out, const struct nv_target *t)
{
	struct nv_target *v = realloc(out->v, sizeof(*v) * (size_t)(out->n + 1));
	if (!v)
		abort();
	out->v = v;
	struct nv_target *d = &out->v[out->n++];
	*d = *t;
	for (int i = 0; i < t->n; i++)
		d->path[i] = strdup(t->path[i]);
}

static int walk(const struct nv_node *node, int argc, char **argv, int i, struct nv_target *cur,
		struct nv_targets *out, struct sbuf *err)
{
	if (cur->n >= NV_MAX_DEPTH - 1) {
		sb_adds(err, "path too deep");
		return -1;
	}
	switch (node->kind) {
	case NV_OBJ: {
		const struct nv_node *kid = NULL;
		if (i == argc) {
			cur->node = node;
			out->end = i;
			add_target(out, cur);
			return 0;
		}
		int m = match_kid(node, argv[i], &kid);
		if (m < 0) {
			sb_addf(err, "%s:%d", m == -2 ? "ambiguous" : "unknown", i);
			return -2 - (m == -2);
		}
		cur->path[cur->n++] = (char *)kid->key;
		int rc = walk(kid, argc, argv, i + 1, cur, out, err);
		cur->n--;
		return rc;
	}
	case NV_COLL:
	case NV_SET: {
		char **ids;
		if (i == argc) {
			cur->node = node;
			out->end = i;
			add_target(out, cur);
			return 0;
		}
		int k = nv_expand_ids(node, argv[i], &ids, err);
		if (k < 0)
			return -1;
		int rc = 0;
		for (int j = 0; j < k && rc == 0; j++) {
			cur->path[cur->n++] = ids[j];
			if (node->kind == NV_SET) {
				cur->node = node;
				cur->member = true;
				out->end = i + 1;
				add_target(out, cur);
				cur->member = false;
			} else {
				rc = walk(node->sub, argc, argv, i + 1, cur, out, err);
			}
			cur->n--;
		}
		for (int j = 0; j < k; j++)
			free(ids[j]);
		free(ids);
		return rc;
	}
	default:
		cur->node = node;
		out->end = i;
		add_target(out, cur);
		return 0;
	}
}

/* Returns 0, -1 (err holds a value/id message), -2 unknown keyword, -3 ambiguous keyword;
 * for -2/-3 err holds "unknown:INDEX". */
int nv_parse_words(int argc, char **argv, struct nv_targets *out, struct sbuf *err)
{
	struct nv_target cur = {0};
	out->v = NULL;
	out->n = 0;
	out->end = 0;
	int rc = walk(&nv_root, argc, argv, 0, &cur, out, err);
	if (rc < 0)
		nv_targets_free(out);
	return rc;
}

void nv_targets_free(struct nv_targets *t)
{
	for (int i = 0; i < t->n; i++)
		for (int j = 0; j < t->v[i].n; j++)
			free(t->v[i].path[j]);
	free(t->v);
	t->v = NULL;
	t->n = 0;
}

void nv_path_str(struct sbuf *out, char *const *path, int n, char sep)
{
	for (int i = 0; i < n; i++) {
		if (i)
			sb_addc(out, sep);
		sb_adds(out, path[i]);
	}
}
