/* SPDX-License-Identifier: Apache-2.0 */
/* State files of a simulated host: text in a stable field order, written atomically (rename)
 * under an flock, so that concurrent processes see whole states and equal configurations give
 * byte-identical files. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nicsim.h"

int ns_lock(const char *dir)
{
	char path[NS_PATH_MAX];
	snprintf(path, sizeof(path), "%s/lock", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	while (flock(fd, LOCK_EX) < 0) {
		if (errno != EINTR) {
			int e = errno;
			close(fd);
			return -e;
		}
	}
	return fd;
}

void ns_unlock(int fd)
{
	if (fd >= 0)
		close(fd); /* drops the flock */
}

int ns_write_atomic(const char *path, const void *data, size_t len)
{
	char tmp[NS_PATH_MAX + 32];
	snprintf(tmp, sizeof(tmp), "%s.tmp%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	const char *p = data;
	size_t left = len;
	while (left) {
		ssize_t n = write(fd, p, left);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			unlink(tmp);
			return -e;
		}
		p += n;
		left -= (size_t)n;
	}
	if (close(fd) < 0 || rename(tmp, path) < 0) {
		int e = errno;
		unlink(tmp);
		return -e;
	}
	return 0;
}

int ns_read_file(const char *path, struct ns_buf *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	char tmp[4096];
	for (;;) {
		ssize_t n = read(fd, tmp, sizeof(tmp));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			return -e;
		}
		if (n == 0)
			break;
		ns_buf_put(out, tmp, (size_t)n);
	}
	close(fd);
	ns_buf_put(out, "", 0);
	return out->oom ? -ENOMEM : 0;
}

void ns_log(const char *dir, const char *fmt, ...)
{
	char line[2048];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	char path[NS_PATH_MAX];
	snprintf(path, sizeof(path), "%s/writes.log", dir);
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	/* one write() per line: O_APPEND keeps lines of concurrent writers whole */
	if (write(fd, line, (size_t)n) < 0) {
		/* nothing sensible to do: the log is best effort for the writer, tests read it */
	}
	close(fd);
}

/* What a ConnectX PF reports after a cold boot (mlx5's en_dcbnl.c and en/port_buffer.c defaults) */
void ns_cfg_factory(const struct ns_hw *hw, struct ns_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->dcbx = 0x0c; /* CEE|IEEE, firmware controlled */
	for (int d = 0; d < NS_NDSCP; d++)
		cfg->dscp2prio[d] = (uint8_t)(d >> 3);
	cfg->cable_len = 7;
	cfg->buffer_size[0] = hw->buffer_total / 4 / hw->cell_size * hw->cell_size;
	for (int i = 0; i < NS_NPRIO; i++) {
		cfg->prio_tc[i] = (uint8_t)i;
		cfg->tc_tsa[i] = NS_TSA_VENDOR;
		cfg->tc_bw[i] = 100;
	}
	cfg->prio_tc[0] = 1;
	cfg->prio_tc[1] = 0;
	cfg->mtu = 1500;
	cfg->roce_mode = NS_ROCE_V2;
	cfg->cnp_dscp = 48;
	cfg->cnp_prio = 6;
	ns_cc_factory(cfg);
}

static const char *tsa_name(uint8_t t)
{
	switch (t) {
	case NS_TSA_STRICT:
		return "strict";
	case NS_TSA_CBS:
		return "cbs";
	case NS_TSA_ETS:
		return "ets";
	case NS_TSA_VENDOR:
		return "vendor";
	}
	return NULL;
}

static void put_u8s(struct ns_buf *b, const char *key, const uint8_t *v, int n)
{
	ns_buf_printf(b, "%s", key);
	for (int i = 0; i < n; i++)
		ns_buf_printf(b, " %u", v[i]);
	ns_buf_printf(b, "\n");
}

int ns_hw_format(const struct ns_hw *hw, struct ns_buf *b)
{
	ns_buf_printf(b, "# nicsim hardware of %s (fixed at init)\n", hw->ifname);
	ns_buf_printf(b, "ifname %s\n", hw->ifname);
	ns_buf_printf(b, "ifindex %u\n", hw->ifindex);
	ns_buf_printf(b, "rdma %s\n", hw->rdma[0] ? hw->rdma : "-");
	ns_buf_printf(b, "pci %s\n", hw->pci);
	ns_buf_printf(b, "mac %02x:%02x:%02x:%02x:%02x:%02x\n", hw->mac[0], hw->mac[1], hw->mac[2],
		      hw->mac[3], hw->mac[4], hw->mac[5]);
	ns_buf_printf(b, "ipv4 %u.%u.%u.%u\n", hw->ipv4[0], hw->ipv4[1], hw->ipv4[2], hw->ipv4[3]);
	ns_buf_printf(b, "speed-mbps %u\n", hw->speed_mbps);
	ns_buf_printf(b, "max-mtu %u\n", hw->max_mtu);
	ns_buf_printf(b, "buffer-total %u\n", hw->buffer_total);
	ns_buf_printf(b, "cell-size %u\n", hw->cell_size);
	ns_buf_printf(b, "dcb %s\n", hw->dcb ? "on" : "off");
	ns_buf_printf(b, "ofed %s\n", hw->ofed ? "on" : "off");
	ns_buf_printf(b, "mlx5-driver %s\n", hw->ets_nonets_check ? "2024" : "pre-2024");
	ns_buf_printf(b, "debugfs %s\n", hw->debugfs ? "on" : "off");
	return b->oom ? -ENOMEM : 0;
}

int ns_cfg_format(const struct ns_hw *hw, const struct ns_cfg *c, struct ns_buf *b)
{
	ns_buf_printf(b, "# nicsim configuration of %s (canonical; counters are in %s.counters)\n",
		      hw->ifname, hw->ifname);
	ns_buf_printf(b, "dcbx 0x%02x\n", c->dcbx);
	ns_buf_printf(b, "trust %s\n", c->trust_dscp ? "dscp" : "pcp");
	ns_buf_printf(b, "app-dscp");
	if (!c->dscp_listed)
		ns_buf_printf(b, " -");
	for (int d = 0; d < NS_NDSCP; d++)
		if ((c->dscp_listed >> d) & 1)
			ns_buf_printf(b, " %d:%u", d, c->dscp2prio[d]);
	ns_buf_printf(b, "\n");
	put_u8s(b, "fw-dscp2prio", c->dscp2prio, NS_NDSCP);
	ns_buf_printf(b, "pfc-en 0x%02x\n", c->pfc_en);
	ns_buf_printf(b, "cable-len %u\n", c->cable_len);
	ns_buf_printf(b, "buffer-owner %s\n", c->manual_buffer ? "host" : "firmware");
	put_u8s(b, "prio-buffer", c->prio2buffer, NS_NPRIO);
	ns_buf_printf(b, "buffer-size");
	for (int i = 0; i < NS_NPRIO; i++)
		ns_buf_printf(b, " %u", c->buffer_size[i]);
	ns_buf_printf(b, "\n");
	put_u8s(b, "ets-prio-tc", c->prio_tc, NS_NPRIO);
	ns_buf_printf(b, "ets-tsa");
	for (int i = 0; i < NS_NPRIO; i++) {
		const char *n = tsa_name(c->tc_tsa[i]);
		if (n)
			ns_buf_printf(b, " %s", n);
		else
			ns_buf_printf(b, " %u", c->tc_tsa[i]);
	}
	ns_buf_printf(b, "\n");
	put_u8s(b, "ets-bw", c->tc_bw, NS_NPRIO);
	ns_buf_printf(b, "maxrate-kbps");
	for (int i = 0; i < NS_NPRIO; i++)
		ns_buf_printf(b, " %llu", (unsigned long long)c->maxrate_kbps[i]);
	ns_buf_printf(b, "\n");
	ns_buf_printf(b, "rewr");
	if (!c->n_rewr)
		ns_buf_printf(b, " -");
	for (int i = 0; i < c->n_rewr; i++)
		ns_buf_printf(b, " %u:%u:%u", c->rewr[i].selector, c->rewr[i].priority,
			      c->rewr[i].protocol);
	ns_buf_printf(b, "\n");
	ns_buf_printf(b, "mtu %u\n", c->mtu);
	ns_buf_printf(b, "rdma-cm-tos %u\n", c->roce_tos);
	ns_buf_printf(b, "rdma-cm-mode %s\n",
		      c->roce_mode == NS_ROCE_V1 ? "IB/RoCE v1" : "RoCE v2");
	if (hw->ofed) {
		put_u8s(b, "ecn-np-enable", c->ecn_np, NS_NPRIO);
		put_u8s(b, "ecn-rp-enable", c->ecn_rp, NS_NPRIO);
	}
	if (hw->ofed || hw->debugfs) {
		ns_buf_printf(b, "cnp-dscp %u\n", c->cnp_dscp);
		ns_buf_printf(b, "cnp-802p-prio %u\n", c->cnp_prio);
	}
	if (hw->debugfs || hw->ofed) {
		/* cc_params in cong.c's order, the CNP DSCP and priority above */
		ns_buf_printf(b, "cc-params");
		for (int i = 0; i < NS_CC_N; i++)
			if (i != NS_CC_CNP_DSCP && i != NS_CC_CNP_PRIO)
				ns_buf_printf(b, " %s=%u", ns_cc_name(i), c->cc[i]);
		ns_buf_printf(b, "\n");
	}
	return b->oom ? -ENOMEM : 0;
}

/* Parsing: "key value..." lines; '#' comments; strict values */

static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	errno = 0;
	if (*s == '-' || *s == '\0')
		return -EINVAL;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

/* Splits rest into at most max whitespace-separated words, in place */
static int split(char *rest, char **w, int max)
{
	int n = 0;
	char *save = NULL;
	for (char *t = strtok_r(rest, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		if (n == max)
			return -1;
		w[n++] = t;
	}
	return n;
}

static int parse_u8_list(char *rest, uint8_t *out, int n, unsigned max)
{
	char *w[NS_NDSCP + 1];
	if (split(rest, w, NS_NDSCP) != n)
		return -EINVAL;
	for (int i = 0; i < n; i++) {
		uint64_t v;
		if (parse_u64(w[i], max, &v))
			return -EINVAL;
		out[i] = (uint8_t)v;
	}
	return 0;
}

typedef int (*ns_line_fn)(const char *key, char *rest, void *ctx);

static int for_lines(const char *text, ns_line_fn fn, void *ctx)
{
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char line[2048];
		if (n >= sizeof(line))
			return -EINVAL;
		memcpy(line, p, n);
		line[n] = 0;
		p += n + (nl ? 1 : 0);
		if (line[0] == '#' || line[0] == 0)
			continue;
		char *sp = strchr(line, ' ');
		char *rest = sp ? sp + 1 : line + n;
		if (sp)
			*sp = 0;
		int err = fn(line, rest, ctx);
		if (err)
			return err;
	}
	return 0;
}

static int parse_mac(const char *s, uint8_t *mac)
{
	unsigned v[6];
	char tail;
	if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &tail) != 6)
		return -EINVAL;
	for (int i = 0; i < 6; i++) {
		if (v[i] > 255)
			return -EINVAL;
		mac[i] = (uint8_t)v[i];
	}
	return 0;
}

static int parse_ipv4(const char *s, uint8_t *ip)
{
	unsigned v[4];
	char tail;
	if (sscanf(s, "%u.%u.%u.%u%c", &v[0], &v[1], &v[2], &v[3], &tail) != 4)
		return -EINVAL;
	for (int i = 0; i < 4; i++) {
		if (v[i] > 255)
			return -EINVAL;
		ip[i] = (uint8_t)v[i];
	}
	return 0;
}

static int copy_word(char *dst, size_t n, const char *s)
{
	if (strlen(s) >= n || strchr(s, ' '))
		return -EINVAL;
	strcpy(dst, s);
	return 0;
}

static int onoff(const char *s, int *out)
{
	if (!strcmp(s, "on"))
		*out = 1;
	else if (!strcmp(s, "off"))
		*out = 0;
	else
		return -EINVAL;
	return 0;
}

static int hw_line(const char *key, char *rest, void *ctx)
{
	struct ns_hw *hw = ctx;
	uint64_t v;
	if (!strcmp(key, "ifname"))
		return copy_word(hw->ifname, sizeof(hw->ifname), rest);
	if (!strcmp(key, "rdma"))
		return copy_word(hw->rdma, sizeof(hw->rdma), strcmp(rest, "-") ? rest : "");
	if (!strcmp(key, "pci"))
		return copy_word(hw->pci, sizeof(hw->pci), rest);
	if (!strcmp(key, "mac"))
		return parse_mac(rest, hw->mac);
	if (!strcmp(key, "ipv4"))
		return parse_ipv4(rest, hw->ipv4);
	if (!strcmp(key, "dcb"))
		return onoff(rest, &hw->dcb);
	if (!strcmp(key, "ofed"))
		return onoff(rest, &hw->ofed);
	if (!strcmp(key, "debugfs"))
		return onoff(rest, &hw->debugfs);
	if (!strcmp(key, "mlx5-driver")) {
		if (strcmp(rest, "2024") && strcmp(rest, "pre-2024"))
			return -EINVAL;
		hw->ets_nonets_check = !strcmp(rest, "2024");
		return 0;
	}
	if (parse_u64(rest, UINT32_MAX, &v))
		return -EINVAL;
	if (!strcmp(key, "ifindex"))
		hw->ifindex = (uint32_t)v;
	else if (!strcmp(key, "speed-mbps"))
		hw->speed_mbps = (uint32_t)v;
	else if (!strcmp(key, "max-mtu"))
		hw->max_mtu = (uint32_t)v;
	else if (!strcmp(key, "buffer-total"))
		hw->buffer_total = (uint32_t)v;
	else if (!strcmp(key, "cell-size") && v > 0)
		hw->cell_size = (uint32_t)v;
	else
		return -EINVAL;
	return 0;
}

int ns_hw_parse(const char *text, struct ns_hw *hw)
{
	memset(hw, 0, sizeof(*hw));
	hw->cell_size = 128;
	hw->ets_nonets_check = 1;
	int err = for_lines(text, hw_line, hw);
	if (!err && !hw->ifname[0])
		err = -EINVAL;
	return err;
}

static int parse_tsa(const char *s, uint8_t *out)
{
	static const char *names[] = {"strict", "cbs", "ets"};
	for (int i = 0; i < 3; i++)
		if (!strcmp(s, names[i])) {
			*out = (uint8_t)i;
			return 0;
		}
	if (!strcmp(s, "vendor")) {
		*out = NS_TSA_VENDOR;
		return 0;
	}
	uint64_t v;
	if (parse_u64(s, 255, &v))
		return -EINVAL;
	*out = (uint8_t)v;
	return 0;
}

static int cfg_line(const char *key, char *rest, void *ctx)
{
	struct ns_cfg *c = ctx;
	char *w[NS_MAX_REWR + 1];
	uint64_t v;
	int n;

	if (!strcmp(key, "trust")) {
		if (!strcmp(rest, "dscp"))
			c->trust_dscp = 1;
		else if (!strcmp(rest, "pcp"))
			c->trust_dscp = 0;
		else
			return -EINVAL;
		return 0;
	}
	if (!strcmp(key, "app-dscp")) {
		c->dscp_listed = 0;
		if (!strcmp(rest, "-"))
			return 0;
		/* an entry's priority is the firmware map's; fw-dscp2prio, later, repeats it */
		n = split(rest, w, NS_NDSCP);
		for (int i = 0; i < n; i++) {
			unsigned d, p;
			char tail;
			if (sscanf(w[i], "%u:%u%c", &d, &p, &tail) != 2 || d >= NS_NDSCP || p > 7)
				return -EINVAL;
			c->dscp_listed |= 1ULL << d;
			c->dscp2prio[d] = (uint8_t)p;
		}
		return n < 0 ? -EINVAL : 0;
	}
	if (!strcmp(key, "fw-dscp2prio"))
		return parse_u8_list(rest, c->dscp2prio, NS_NDSCP, 7);
	if (!strcmp(key, "buffer-owner")) {
		if (!strcmp(rest, "host"))
			c->manual_buffer = 1;
		else if (!strcmp(rest, "firmware"))
			c->manual_buffer = 0;
		else
			return -EINVAL;
		return 0;
	}
	if (!strcmp(key, "prio-buffer"))
		return parse_u8_list(rest, c->prio2buffer, NS_NPRIO, 7);
	if (!strcmp(key, "ets-prio-tc"))
		return parse_u8_list(rest, c->prio_tc, NS_NPRIO, 7);
	if (!strcmp(key, "ets-bw"))
		return parse_u8_list(rest, c->tc_bw, NS_NPRIO, 100);
	if (!strcmp(key, "ecn-np-enable"))
		return parse_u8_list(rest, c->ecn_np, NS_NPRIO, 1);
	if (!strcmp(key, "ecn-rp-enable"))
		return parse_u8_list(rest, c->ecn_rp, NS_NPRIO, 1);
	if (!strcmp(key, "ets-tsa")) {
		if (split(rest, w, NS_NPRIO) != NS_NPRIO)
			return -EINVAL;
		for (int i = 0; i < NS_NPRIO; i++)
			if (parse_tsa(w[i], &c->tc_tsa[i]))
				return -EINVAL;
		return 0;
	}
	if (!strcmp(key, "buffer-size") || !strcmp(key, "maxrate-kbps")) {
		int is_buf = key[0] == 'b';
		if (split(rest, w, NS_NPRIO) != NS_NPRIO)
			return -EINVAL;
		for (int i = 0; i < NS_NPRIO; i++) {
			if (parse_u64(w[i], is_buf ? UINT32_MAX : UINT64_MAX, &v))
				return -EINVAL;
			if (is_buf)
				c->buffer_size[i] = (uint32_t)v;
			else
				c->maxrate_kbps[i] = v;
		}
		return 0;
	}
	if (!strcmp(key, "rewr")) {
		c->n_rewr = 0;
		if (!strcmp(rest, "-"))
			return 0;
		n = split(rest, w, NS_MAX_REWR);
		if (n < 0)
			return -EINVAL;
		for (int i = 0; i < n; i++) {
			unsigned s, p, pr;
			char tail;
			if (sscanf(w[i], "%u:%u:%u%c", &s, &p, &pr, &tail) != 3 || s > 255 ||
			    p > 255 || pr > 65535)
				return -EINVAL;
			c->rewr[i] = (struct ns_app){(uint8_t)s, (uint8_t)p, (uint16_t)pr};
		}
		c->n_rewr = n;
		return 0;
	}
	if (!strcmp(key, "cc-params")) {
		n = split(rest, w, NS_CC_N);
		for (int i = 0; i < n; i++) {
			char *eq = strchr(w[i], '=');
			int k;
			if (!eq)
				return -EINVAL;
			*eq = 0;
			k = ns_cc_index(w[i]);
			if (k < 0 || k == NS_CC_CNP_DSCP || k == NS_CC_CNP_PRIO ||
			    parse_u64(eq + 1, UINT32_MAX, &v))
				return -EINVAL;
			c->cc[k] = (uint32_t)v;
		}
		return n < 0 ? -EINVAL : 0;
	}
	if (!strcmp(key, "rdma-cm-mode")) {
		if (!strcmp(rest, "RoCE v2"))
			c->roce_mode = NS_ROCE_V2;
		else if (!strcmp(rest, "IB/RoCE v1"))
			c->roce_mode = NS_ROCE_V1;
		else
			return -EINVAL;
		return 0;
	}
	if (parse_u64(rest, UINT32_MAX, &v))
		return -EINVAL;
	if (!strcmp(key, "dcbx") && v <= 255)
		c->dcbx = (uint8_t)v;
	else if (!strcmp(key, "pfc-en") && v <= 255)
		c->pfc_en = (uint8_t)v;
	else if (!strcmp(key, "cable-len"))
		c->cable_len = (uint32_t)v;
	else if (!strcmp(key, "mtu"))
		c->mtu = (uint32_t)v;
	else if (!strcmp(key, "rdma-cm-tos") && v <= 255)
		c->roce_tos = (uint8_t)v;
	else if (!strcmp(key, "cnp-dscp"))
		c->cnp_dscp = (uint32_t)v;
	else if (!strcmp(key, "cnp-802p-prio"))
		c->cnp_prio = (uint32_t)v;
	else
		return -EINVAL;
	return 0;
}

/* cfg must hold the factory state: keys absent from text keep it */
int ns_cfg_parse(const char *text, struct ns_cfg *cfg)
{
	return for_lines(text, cfg_line, cfg);
}

static int cnt_line(const char *key, char *rest, void *ctx)
{
	struct ns_cnt *c = ctx;
	uint64_t v;
	int i = ns_counter_index(key);
	if (i < 0 || parse_u64(rest, UINT64_MAX, &v))
		return -EINVAL;
	c->v[i] = v;
	return 0;
}

static void nic_path(char *out, size_t n, const char *dir, const char *ifname, const char *ext)
{
	snprintf(out, n, "%s/nics/%s.%s", dir, ifname, ext);
}

int ns_nic_load(const char *dir, const char *ifname, struct ns_nic *nic)
{
	char path[NS_PATH_MAX];
	struct ns_buf b = {0};
	int err;

	memset(nic, 0, sizeof(*nic));
	if (!ifname[0] || strchr(ifname, '/') || strlen(ifname) >= NS_IFNAMSIZ)
		return -ENODEV;
	nic_path(path, sizeof(path), dir, ifname, "hw");
	err = ns_read_file(path, &b);
	if (err) {
		ns_buf_free(&b);
		return err == -ENOENT ? -ENODEV : err;
	}
	err = ns_hw_parse((const char *)b.p, &nic->hw);
	ns_buf_free(&b);
	if (err)
		return err;

	ns_cfg_factory(&nic->hw, &nic->cfg);
	nic_path(path, sizeof(path), dir, ifname, "state");
	err = ns_read_file(path, &b);
	if (err == -ENOENT)
		nic->cfg_dirty = 1;
	else if (!err)
		err = ns_cfg_parse((const char *)b.p, &nic->cfg);
	ns_buf_free(&b);
	if (err && err != -ENOENT)
		return err;

	nic_path(path, sizeof(path), dir, ifname, "counters");
	err = ns_read_file(path, &b);
	if (!err)
		err = for_lines((const char *)b.p, cnt_line, &nic->cnt);
	else if (err == -ENOENT)
		err = 0, nic->cnt_dirty = 1;
	ns_buf_free(&b);
	return err ? err : ns_rates_accrue(dir, nic);
}

int ns_nic_save(const char *dir, struct ns_nic *nic)
{
	char path[NS_PATH_MAX];
	int err = 0;
	if (nic->cfg_dirty) {
		struct ns_buf b = {0};
		err = ns_cfg_format(&nic->hw, &nic->cfg, &b);
		nic_path(path, sizeof(path), dir, nic->hw.ifname, "state");
		if (!err)
			err = ns_write_atomic(path, b.p, b.len);
		ns_buf_free(&b);
		if (err)
			return err;
		nic->cfg_dirty = 0;
	}
	if (nic->cnt_dirty) {
		struct ns_buf b = {0};
		/* the base of a moving counter, not what it reads now (rates.c) */
		for (size_t i = 0; i < ns_ncounters; i++)
			ns_buf_printf(&b, "%s %llu\n", ns_counters[i].name,
				      (unsigned long long)(nic->cnt.v[i] > nic->acc.v[i]
							       ? nic->cnt.v[i] - nic->acc.v[i]
							       : 0));
		nic_path(path, sizeof(path), dir, nic->hw.ifname, "counters");
		err = b.oom ? -ENOMEM : ns_write_atomic(path, b.p, b.len);
		ns_buf_free(&b);
		if (err)
			return err;
		nic->cnt_dirty = 0;
	}
	return ns_tree_sync(dir, nic);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

int ns_list_nics(const char *dir, char names[][NS_IFNAMSIZ], int max)
{
	char path[NS_PATH_MAX];
	snprintf(path, sizeof(path), "%s/nics", dir);
	DIR *d = opendir(path);
	if (!d)
		return -errno;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < max) {
		size_t len = strlen(e->d_name);
		if (len < 4 || len - 3 >= NS_IFNAMSIZ || strcmp(e->d_name + len - 3, ".hw"))
			continue;
		memcpy(names[n], e->d_name, len - 3);
		names[n][len - 3] = 0;
		n++;
	}
	closedir(d);
	qsort(names, (size_t)n, NS_IFNAMSIZ, cmp_name);
	return n;
}

static int fault_line(const char *key, char *rest, void *ctx)
{
	struct ns_faults *f = ctx;
	char *w[NS_MAX_GROW_NAMES + 2];
	int n;
	uint64_t v;

	if (!strcmp(key, "fail-set")) {
		if (split(rest, w, 3) != 3 || parse_u64(w[0], 1000000, &v) ||
		    strlen(w[1]) >= NS_IFNAMSIZ)
			return -EINVAL;
		f->fail_set_n = (int)v;
		strcpy(f->fail_set_if, strcmp(w[1], "*") ? w[1] : "");
		f->fail_set_errno = ns_errno_parse(w[2]);
		return f->fail_set_errno ? 0 : -EINVAL;
	}
	if (!strcmp(key, "eperm")) {
		if (f->n_eperm == NS_MAX_FAULT_PATHS || strlen(rest) >= sizeof(f->eperm[0]))
			return -EINVAL;
		strcpy(f->eperm[f->n_eperm++], rest);
		return 0;
	}
	if (!strcmp(key, "nodcb")) {
		if (f->n_nodcb == NS_MAX_NICS || strlen(rest) >= NS_IFNAMSIZ)
			return -EINVAL;
		strcpy(f->nodcb[f->n_nodcb++], rest);
		return 0;
	}
	if (!strcmp(key, "counters-grow")) {
		n = split(rest, w, NS_MAX_GROW_NAMES + 1);
		if (n < 2 || parse_u64(w[0], UINT32_MAX, &v))
			return -EINVAL;
		f->grow = 1;
		f->grow_step = v;
		f->n_grow = 0;
		if (n == 2 && !strcmp(w[1], "*"))
			return 0;
		for (int i = 1; i < n; i++) {
			if (strlen(w[i]) >= sizeof(f->grow_names[0]))
				return -EINVAL;
			strcpy(f->grow_names[f->n_grow++], w[i]);
		}
		return 0;
	}
	return -EINVAL;
}

int ns_faults_load(const char *dir, struct ns_faults *f)
{
	char path[NS_PATH_MAX];
	struct ns_buf b = {0};
	memset(f, 0, sizeof(*f));
	snprintf(path, sizeof(path), "%s/faults", dir);
	int err = ns_read_file(path, &b);
	if (!err)
		err = for_lines((const char *)b.p, fault_line, f);
	else if (err == -ENOENT)
		err = 0;
	ns_buf_free(&b);
	return err;
}

int ns_faults_save(const char *dir, const struct ns_faults *f)
{
	char path[NS_PATH_MAX];
	struct ns_buf b = {0};
	ns_buf_printf(&b, "# nicsim faults (nicsim fault DIR ...)\n");
	if (f->fail_set_n > 0)
		ns_buf_printf(&b, "fail-set %d %s %s\n", f->fail_set_n,
			      f->fail_set_if[0] ? f->fail_set_if : "*",
			      ns_errname(f->fail_set_errno));
	for (int i = 0; i < f->n_eperm; i++)
		ns_buf_printf(&b, "eperm %s\n", f->eperm[i]);
	for (int i = 0; i < f->n_nodcb; i++)
		ns_buf_printf(&b, "nodcb %s\n", f->nodcb[i]);
	if (f->grow) {
		ns_buf_printf(&b, "counters-grow %llu", (unsigned long long)f->grow_step);
		if (!f->n_grow)
			ns_buf_printf(&b, " *");
		for (int i = 0; i < f->n_grow; i++)
			ns_buf_printf(&b, " %s", f->grow_names[i]);
		ns_buf_printf(&b, "\n");
	}
	snprintf(path, sizeof(path), "%s/faults", dir);
	int err = b.oom ? -ENOMEM : ns_write_atomic(path, b.p, b.len);
	ns_buf_free(&b);
	return err;
}

int ns_nic_dcb_enabled(const struct ns_nic *nic, const struct ns_faults *f)
{
	if (!nic->hw.dcb)
		return 0;
	for (int i = 0; i < f->n_nodcb; i++)
		if (!strcmp(f->nodcb[i], nic->hw.ifname))
			return 0;
	return 1;
}
