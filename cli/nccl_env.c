/* SPDX-License-Identifier: Apache-2.0 */
/* rocectl nccl-env: the NCCL variables that make a job on this host use the managed RDMA
 * devices the way the policy marks its traffic (NVIDIA NCCL's src/transport/net_ib: NCCL_IB_HCA,
 * NCCL_IB_GID_INDEX, NCCL_IB_TC):
 *
 *   NCCL_IB_HCA        the RDMA device and port behind each managed interface, in interface
 *                      order, as "=mlx5_0:1,mlx5_1:1".  The leading "=" makes NCCL match
 *                      the names exactly: without it every entry is a prefix, and "mlx5_1"
 *                      would also select mlx5_10..mlx5_17 on a large host.
 *   NCCL_IB_GID_INDEX  the IPv4 RoCE v2 GID index, read from each port's GID table (3 on
 *                      mlx5, 1 on rxe: never assumed).  When the ports disagree, or one has
 *                      no such GID, a warning on stderr and no value: one fixed index would
 *                      be wrong for some device.
 *   NCCL_IB_TC         the policy's host.roce_tos (auto = dscp << 2 | ECT(0): 106 for DSCP 26),
 *                      the ToS byte NCCL puts in the GRH of its RoCE QPs.
 *
 * Formats: "env" (`export NAME=VALUE`, for eval) and "nccl.conf" (`NAME=VALUE`, for
 * /etc/nccl.conf or $NCCL_CONF_FILE).  Every value is built from names checked against
 * a strict character set, so the env form is safe to eval.
 * Exit: 0 printed (warnings, if any, on stderr), 1 error (no policy, an interface without
 * an RDMA device, nothing to manage). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../drivers/host/host.h"
#include "rocectl/cli.h"
#include "rocectl/inventory.h"
#include "rocectl/policy.h"
#include "rocectl/print.h"

#define MAX_INTERFACES 64
#define DEFAULT_POLICY "/etc/rocectl/policy.yaml"
/* "=" and per port "name:NNN," (a name is at most RC_NAME_MAX - 1 bytes, a port a u8) */
#define HCA_MAX (MAX_INTERFACES * (RC_NAME_MAX + 5) + 2)

enum nccl_format { F_ENV, F_CONF, F_JSON };

struct nccl_opts {
	const char *policy;
	const char *root;
	enum nccl_format format;
	size_t n_if;
	char ifs[MAX_INTERFACES][RC_NAME_MAX];
};

enum { OPT_FORMAT = 256, OPT_ROOT };

static const struct rc_option options[] = {
    {"policy", 'p', "FILE", "the policy (default $ROCECTL_POLICY or " DEFAULT_POLICY ")", 'p'},
    {"interface", 'I', "IF", "a managed interface (repeatable; default: every RDMA netdev)", 'I'},
    {"format", 0, "FMT",
     "env (default: export lines), nccl.conf or json (examples/nccl-env.schema.json)", OPT_FORMAT},
    {"root", 0, "DIR", "sysfs root prefix (default: the global --root)", OPT_ROOT},
    {NULL, 0, NULL, NULL, 0},
};

#define USAGE                                                                                      \
	"rocectl nccl-env [-p POLICY] [--interface IF]... [--format env|nccl.conf|json] [--root "  \
	"DIR]"

static int on_option(int id, const char *arg, void *ctx)
{
	struct nccl_opts *o = ctx;

	switch (id) {
	case 'p':
		o->policy = arg;
		return 0;
	case 'I':
		return rc_interface_arg("nccl-env", arg, o->ifs, &o->n_if, MAX_INTERFACES);
	case OPT_FORMAT:
		if (!strcmp(arg, "env"))
			o->format = F_ENV;
		else if (!strcmp(arg, "nccl.conf"))
			o->format = F_CONF;
		else if (!strcmp(arg, "json"))
			o->format = F_JSON;
		else {
			fprintf(stderr,
				"rocectl nccl-env: --format: '%s' is not env, nccl.conf or json\n",
				arg);
			return -EINVAL;
		}
		return 0;
	case OPT_ROOT:
		o->root = arg;
		return 0;
	default:
		return -EINVAL;
	}
}

/* What NCCL needs to know of one managed interface. */
struct nccl_port {
	char ifname[RC_NAME_MAX];
	char ibdev[RC_NAME_MAX];
	unsigned port;
	int gid_index; /* -1 = no IPv4 RoCE v2 GID */
};

static int interfaces(struct nccl_opts *o, const char *root, struct rc_err *err)
{
	char(*names)[RC_NAME_MAX] = NULL;
	size_t n = 0;
	int rc;

	if (o->n_if)
		return 0;
	rc = rc_rdma_netdevs(root, &names, &n, err);
	if (rc)
		return rc;
	if (n == 0 || n > MAX_INTERFACES) {
		free(names);
		return n ? rc_errf(err, E2BIG,
				   "more than %d RDMA interfaces; name them with --interface",
				   MAX_INTERFACES)
			 : rc_errf(err, ENODEV,
				   "no network interface backs an RDMA device; name interfaces "
				   "with --interface");
	}
	for (size_t i = 0; i < n; i++)
		snprintf(o->ifs[i], RC_NAME_MAX, "%s", names[i]);
	o->n_if = n;
	free(names);
	return 0;
}

static bool port_active(const char *state)
{
	/* sysfs "4: ACTIVE"; libibverbs spells it in lower case */
	return !strncmp(state, "4:", 2);
}

static int look_up(const char *root, const char *ifname, struct nccl_port *np,
		   struct rc_rdma_port *p, struct rc_err *err)
{
	int rc = rc_rdma_lookup(root, ifname, p, err);

	if (rc)
		return rc;
	if (!p->found)
		return rc_errf(err, ENODEV, "'%s': no RDMA device behind the interface", ifname);
	/* The name goes into a shell line and NCCL's list syntax (',' and ':' separate). */
	if (!rc_name_is_safe(p->ibdev) || strchr(p->ibdev, '/'))
		return rc_errf(err, EINVAL, "'%s': unusable RDMA device name '%s'", ifname,
			       p->ibdev);
	if (p->port < 1 || p->port > 255) /* a u8 in verbs */
		return rc_errf(err, EINVAL, "'%s': '%s' has no usable port number (%u)", ifname,
			       p->ibdev, p->port);
	rc_rdma_details(root, ifname, p);
	snprintf(np->ifname, sizeof(np->ifname), "%s", ifname);
	snprintf(np->ibdev, sizeof(np->ibdev), "%s", p->ibdev);
	np->port = p->port;
	np->gid_index = p->roce_v2_ipv4_gid;
	if (p->state[0] && !port_active(p->state))
		fprintf(stderr, "rocectl nccl-env: warning: '%s' port %u (%s) is %s, not active\n",
			p->ibdev, p->port, ifname, p->state);
	return 0;
}

/* "=dev:port,dev:port", each device port once, in interface order. */
static void hca_list(const struct nccl_port *v, size_t n, char *buf, size_t len)
{
	size_t off = (size_t)snprintf(buf, len, "=");

	for (size_t i = 0; i < n && off < len; i++) {
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(v[j].ibdev, v[i].ibdev) && v[j].port == v[i].port;
		if (!seen)
			off += (size_t)snprintf(buf + off, len - off, "%s%s:%u", off > 1 ? "," : "",
						v[i].ibdev, v[i].port);
	}
}

/* The common GID index, or -1 after saying why there is none. */
static int common_gid_index(const struct nccl_port *v, size_t n)
{
	char list[HCA_MAX];
	size_t off = 0;
	bool same = true;

	for (size_t i = 0; i < n; i++) {
		if (v[i].gid_index < 0) {
			fprintf(stderr,
				"rocectl nccl-env: warning: '%s' port %u (%s) has no IPv4 RoCE v2 "
				"GID; NCCL_IB_GID_INDEX left unset\n",
				v[i].ibdev, v[i].port, v[i].ifname);
			return -1;
		}
		same &= v[i].gid_index == v[0].gid_index;
	}
	if (same)
		return n ? v[0].gid_index : -1;
	for (size_t i = 0; i < n && off < sizeof(list); i++)
		off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s:%u %d",
					off ? ", " : "", v[i].ibdev, v[i].port, v[i].gid_index);
	fprintf(stderr,
		"rocectl nccl-env: warning: the IPv4 RoCE v2 GID index differs between devices "
		"(%s); NCCL_IB_GID_INDEX left unset so that NCCL chooses per device\n",
		list);
	return -1;
}

static int load_policy(const struct nccl_opts *o, struct rc_policy *pol, struct rc_err *err)
{
	struct rc_warnings warn = {0};
	const char *path = o->policy;

	if (!path)
		path = getenv("ROCECTL_POLICY");
	if (!path || !*path)
		path = DEFAULT_POLICY;
	if (rc_policy_load(path, pol, &warn, err))
		return -EINVAL;
	rc_warnings_print(&warn, stderr);
	return 0;
}

/* JSON: the variables as one object's keys (the caller opened it). */
static void print_var(struct rc_out *out, enum nccl_format f, const char *name, const char *value)
{
	if (f == F_JSON)
		rc_out_str(out, name, NULL, value);
	else
		printf("%s%s=%s\n", f == F_ENV ? "export " : "", name, value);
}

int cmd_nccl_env(int argc, char **argv, const struct rc_global *g)
{
	struct nccl_opts o = {0};
	struct nccl_port *ports = NULL;
	struct rc_rdma_port *p = NULL;
	struct rc_policy *pol = NULL;
	struct rc_err err = {0};
	char hca[HCA_MAX], num[16];
	struct rc_out out;
	const char *root;
	int npos, rc, gid;

	rc = rc_parse_options(argc, argv, USAGE, options, on_option, &o, &npos);
	if (rc)
		return rc > 0 ? RC_EXIT_OK : RC_EXIT_USAGE;
	if (npos) {
		fprintf(stderr, "rocectl nccl-env: unexpected argument '%s'\n", argv[0]);
		rc_print_usage(stderr, USAGE, options);
		return RC_EXIT_USAGE;
	}
	root = o.root ? o.root : g->root;
	pol = calloc(1, sizeof(*pol));
	p = malloc(sizeof(*p));
	ports = calloc(MAX_INTERFACES, sizeof(*ports));
	if (!pol || !p || !ports)
		rc = rc_errf(&err, ENOMEM, "out of memory");
	if (!rc)
		rc = load_policy(&o, pol, &err);
	if (!rc)
		rc = interfaces(&o, root, &err);
	for (size_t i = 0; !rc && i < o.n_if; i++)
		rc = look_up(root, o.ifs[i], &ports[i], p, &err);
	if (!rc) {
		hca_list(ports, o.n_if, hca, sizeof(hca));
		gid = common_gid_index(ports, o.n_if);
		rc_out_init(&out, stdout, o.format == F_JSON ? RC_OUT_JSON : RC_OUT_TEXT);
		rc_out_open_object(&out, NULL);
		rc_out_str(&out, "command", NULL, "nccl-env");
		rc_out_open_object(&out, "variables");
		print_var(&out, o.format, "NCCL_IB_HCA", hca);
		if (gid >= 0) {
			snprintf(num, sizeof(num), "%d", gid);
			print_var(&out, o.format, "NCCL_IB_GID_INDEX", num);
		}
		snprintf(num, sizeof(num), "%d", pol->roce_tos);
		print_var(&out, o.format, "NCCL_IB_TC", num);
		rc_out_close_object(&out);
		rc_out_close_object(&out);
		rc_out_end(&out);
	} else {
		fprintf(stderr, "rocectl nccl-env: ");
		rc_err_print(&err, stderr);
	}
	free(ports);
	free(p);
	free(pol);
	return rc ? RC_EXIT_ERROR : RC_EXIT_OK;
}
