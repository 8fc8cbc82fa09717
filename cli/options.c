/* SPDX-License-Identifier: Apache-2.0 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/cli.h"
#include "rocectl/inventory.h"
#include "rocectl/util.h"

#define MAX_OPTS 64

/* The id getopt returns for -j/--json: outside the ids commands use (short names and
 * values from 256 up). */
#define OPT_JSON_ALIAS 0x7ff0

#define OPT_VERBOSE 0x7ff1
#define OPT_QUIET   0x7ff2

static int verbosity;

int rc_cli_verbosity(void)
{
	return verbosity;
}

void rc_cli_set_verbosity(int v)
{
	verbosity = v;
}

/* A command's --format option, if it has one: -j/--json is its alias ("--format json"). */
static const struct rc_option *format_option(const struct rc_option *opts)
{
	for (const struct rc_option *o = opts; o && o->name; o++)
		if (!strcmp(o->name, "format") && o->arg)
			return o;
	return NULL;
}

int rc_number_arg(const char *cmd, const char *opt, const char *arg, uint64_t min, uint64_t max,
		  unsigned *out)
{
	uint64_t v;

	if (rc_parse_u64(arg, 10, min, max, &v)) {
		fprintf(stderr, "rocectl %s: --%s: '%s' is not a number in %llu..%llu\n", cmd, opt,
			arg, (unsigned long long)min, (unsigned long long)max);
		return -EINVAL;
	}
	*out = (unsigned)v;
	return 0;
}

int rc_interface_arg(const char *cmd, const char *arg, char (*ifs)[RC_NAME_MAX], size_t *n,
		     size_t max)
{
	if (!rc_ifname_is_safe(arg)) {
		fprintf(stderr, "rocectl %s: '%s' is not a network interface name\n", cmd, arg);
		return -EINVAL;
	}
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(ifs[i], arg))
			return 0;
	if (*n == max) {
		fprintf(stderr, "rocectl %s: at most %zu interfaces\n", cmd, max);
		return -EINVAL;
	}
	snprintf(ifs[(*n)++], RC_NAME_MAX, "%s", arg);
	return 0;
}

int rc_format_text_json(const char *cmd, const char *arg, bool *json)
{
	if (strcmp(arg, "text") && strcmp(arg, "json")) {
		fprintf(stderr, "rocectl %s: --format: '%s' is not text or json\n", cmd, arg);
		return -EINVAL;
	}
	*json = !strcmp(arg, "json");
	return 0;
}

void rc_print_usage(FILE *f, const char *usage, const struct rc_option *opts)
{
	fprintf(f, "usage: %s\n\n", usage);
	for (const struct rc_option *o = opts; o && o->name; o++) {
		char lhs[80];
		int n = 0;

		if (o->short_name)
			n = snprintf(lhs, sizeof(lhs), "-%c, ", o->short_name);
		snprintf(lhs + n, sizeof(lhs) - n, "--%s%s%s", o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "");
		fprintf(f, "    %-28s %s\n", lhs, o->help);
	}
	if (format_option(opts))
		fprintf(f, "    %-28s %s\n", "-j, --json", "the same as --format json");
	fprintf(f, "    %-28s %s\n", "-v, --verbose",
		"print each command and request sent to a device (secrets redacted)");
	fprintf(f, "    %-28s %s\n", "-q, --quiet", "print only the summary");
	fprintf(f, "    %-28s %s\n", "-h, --help", "show this help");
}

/* The option whose long name is `name`, or NULL. */
static const struct rc_option *option_named(const struct rc_option *opts, const char *name)
{
	for (const struct rc_option *o = opts; o && o->name; o++)
		if (!strcmp(o->name, name) && o->arg)
			return o;
	return NULL;
}

/* What the command line did not say, from the configuration (cli/config_file.c): -p, -i and
 * --parallel, through the command's own handler so that they are checked like typed ones.
 * `apply PLAN` takes its inputs from the saved plan, which names them: nothing is added. */
static int config_defaults(const char *cmd, int npos, const struct rc_option *opts,
			   const bool given[3], int (*handler)(int id, const char *arg, void *ctx),
			   void *ctx)
{
	static const char *const names[3] = {"policy", "inventory", "parallel"};
	const struct rc_cli_config *c = rc_cli_config();
	int rc;

	if (!c || (!strcmp(cmd, "apply") && npos == 1))
		return 0;
	for (int k = 0; k < 3; k++) {
		const struct rc_option *o = option_named(opts, names[k]);
		const char *v = k == 0 ? c->policy : k == 1 ? c->inventory : c->parallel;

		if (!o || !v || given[k])
			continue;
		rc = handler(o->id, v, ctx);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int rc_parse_options(int argc, char **argv, const char *usage, const struct rc_option *opts,
		     int (*handler)(int id, const char *arg, void *ctx), void *ctx, int *npos)
{
	const struct rc_option *given_opt[3] = {option_named(opts, "policy"),
						option_named(opts, "inventory"),
						option_named(opts, "parallel")};
	bool given[3] = {false, false, false};
	const struct rc_option *fmt = format_option(opts);
	struct option lo[MAX_OPTS + 5];
	char shorts[MAX_OPTS * 2 + 7] = "+hvq";
	int n = 0, c, rc;

	for (const struct rc_option *o = opts; o && o->name && n < MAX_OPTS; o++, n++) {
		lo[n] =
		    (struct option){o->name, o->arg ? required_argument : no_argument, NULL, o->id};
		if (o->short_name) {
			size_t l = strlen(shorts);

			shorts[l] = o->short_name;
			shorts[l + 1] = o->arg ? ':' : '\0';
			shorts[l + 2] = '\0';
		}
	}
	lo[n++] = (struct option){"help", no_argument, NULL, 'h'};
	lo[n++] = (struct option){"verbose", no_argument, NULL, OPT_VERBOSE};
	lo[n++] = (struct option){"quiet", no_argument, NULL, OPT_QUIET};
	if (fmt) {
		size_t l = strlen(shorts);

		lo[n++] = (struct option){"json", no_argument, NULL, OPT_JSON_ALIAS};
		shorts[l] = 'j'; /* room: MAX_OPTS * 2 + 7 holds every short option and "hvqj" */
		shorts[l + 1] = '\0';
	}
	lo[n] = (struct option){NULL, 0, NULL, 0};

	/* Positional arguments may come anywhere: collect them as we go. */
	*npos = 0;
	optind = 1;
	opterr = 0;
	for (;;) {
		c = getopt_long(argc, argv, shorts, lo, NULL);
		if (c == -1) {
			if (optind >= argc)
				break;
			if (strcmp(argv[optind - 1], "--") == 0) {
				while (optind < argc)
					argv[(*npos)++] = argv[optind++];
				break;
			}
			argv[(*npos)++] = argv[optind++];
			continue;
		}
		if (c == 'h') {
			rc_print_usage(stdout, usage, opts);
			return 1;
		}
		if (c == '?' || c == ':') {
			fprintf(stderr, "rocectl: unknown option or missing value: '%s'\n",
				argv[optind - 1]);
			rc_print_usage(stderr, usage, opts);
			return -EINVAL;
		}
		if (c == 'v' || c == OPT_VERBOSE || c == 'q' || c == OPT_QUIET) {
			verbosity = c == 'v' || c == OPT_VERBOSE ? 1 : -1;
			continue;
		}
		if (c == 'j' && fmt)
			c = OPT_JSON_ALIAS;
		for (int k = 0; k < 3; k++)
			given[k] = given[k] || (given_opt[k] && c == given_opt[k]->id);
		rc = c == OPT_JSON_ALIAS ? handler(fmt->id, "json", ctx) : handler(c, optarg, ctx);
		if (rc < 0)
			return rc;
	}
	return config_defaults(argv[0], *npos, opts, given, handler, ctx);
}
