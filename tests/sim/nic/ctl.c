/* SPDX-License-Identifier: Apache-2.0 */
/* nicsimctl: creates simulated hosts and injects faults (the `nicsim` script calls it).
 *
 *   nicsimctl init DIR [--ofed] --nic SPEC [--nic SPEC]...
 *       SPEC = NAME[,rdma=DEV|none][,speed=400G][,mtu=N][,ip=A.B.C.D][,nodcb][,dcbx=host|fw]
 *              [,ecn=0|1][,buffer=BYTES]
 *   nicsimctl fault DIR fail-set N [--nic IF] [--errno E]
 *   nicsimctl fault DIR eperm PATH
 *   nicsimctl fault DIR nodcb IF
 *   nicsimctl fault DIR counters-grow [--step N] [NAME]...
 *   nicsimctl fault DIR clear
 *   nicsimctl counter DIR IF NAME [+]VALUE
 *   nicsimctl rate DIR IF NAME=PER_SECOND...   counters that move with time (rates.c)
 *   nicsimctl show DIR [IF]
 *   nicsimctl counters DIR IF
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nicsim.h"

static void usage(void)
{
	fputs("usage: nicsim init DIR [--ofed] --nic NAME[,rdma=DEV][,speed=400G][,mtu=N]"
	      "[,ip=A.B.C.D][,nodcb][,dcbx=host|fw][,ecn=0|1][,buffer=BYTES]"
	      "[,mlx5=2024|pre-2024][,debugfs]...\n"
	      "       nicsim run DIR -- CMD [ARG]...\n"
	      "       nicsim env DIR\n"
	      "       nicsim fault DIR fail-set N [--nic IF] [--errno E]\n"
	      "       nicsim fault DIR eperm PATH\n"
	      "       nicsim fault DIR nodcb IF\n"
	      "       nicsim fault DIR counters-grow [--step N] [NAME]...\n"
	      "       nicsim fault DIR clear\n"
	      "       nicsim counter DIR IF NAME [+]VALUE\n"
	      "       nicsim rate DIR IF NAME=PER_SECOND...\n"
	      "       nicsim show DIR [IF]\n"
	      "       nicsim counters DIR IF\n",
	      stderr);
}

static int die(const char *fmt, const char *arg, int err)
{
	fprintf(stderr, "nicsim: ");
	fprintf(stderr, fmt, arg);
	if (err)
		fprintf(stderr, ": %s", strerror(err < 0 ? -err : err));
	fputc('\n', stderr);
	return 1;
}

static int valid_name(const char *s, size_t max)
{
	size_t n = strlen(s);
	if (!n || n >= max)
		return 0;
	for (; *s; s++)
		if (!(*s == '-' || *s == '_' || *s == '.' || (*s >= '0' && *s <= '9') ||
		      (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
			return 0;
	return 1;
}

static int parse_uint(const char *s, unsigned long long max, unsigned long long *out)
{
	char *end;
	errno = 0;
	if (!*s || *s == '-')
		return -1;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

/* "400G" or "400g" -> 400000 Mb/s; a bare number is Mb/s */
static int parse_speed(const char *s, uint32_t *mbps)
{
	char num[32];
	size_t n = strlen(s);
	unsigned long long v;
	if (!n || n >= sizeof(num))
		return -1;
	memcpy(num, s, n + 1);
	unsigned mult = 1;
	if (num[n - 1] == 'G' || num[n - 1] == 'g') {
		mult = 1000;
		num[n - 1] = 0;
	}
	if (parse_uint(num, 1600000, &v) || !v)
		return -1;
	*mbps = (uint32_t)(v * mult);
	return 0;
}

struct nicspec {
	struct ns_nic nic;
	int rdma_set;
	int ecn;
};

static int parse_spec(char *spec, int idx, int ofed, struct nicspec *s)
{
	struct ns_hw *hw = &s->nic.hw;
	char *save = NULL;
	char *name = strtok_r(spec, ",", &save);
	unsigned long long v;

	memset(s, 0, sizeof(*s));
	if (!name || !valid_name(name, NS_IFNAMSIZ))
		return die("invalid interface name in '--nic %s'", spec, 0);
	strcpy(hw->ifname, name);
	hw->ifindex = 1001 + (uint32_t)idx;
	snprintf(hw->pci, sizeof(hw->pci), "0000:%02x:00.0", (unsigned char)(0x10 + idx));
	memcpy(hw->mac, (uint8_t[]){0x02, 0x5a, 0x00, 0x00, 0x00, (uint8_t)(idx + 1)}, 6);
	memcpy(hw->ipv4, (uint8_t[]){192, 0, 2, (uint8_t)(idx + 1)}, 4);
	hw->speed_mbps = 100000;
	hw->max_mtu = 9978;
	hw->buffer_total = 1048576;
	hw->cell_size = 128;
	hw->dcb = 1;
	hw->ofed = ofed;
	hw->ets_nonets_check = 1;
	uint32_t mtu = 1500;
	uint8_t dcbx = 0x0c;

	for (char *opt = strtok_r(NULL, ",", &save); opt; opt = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(opt, '=');
		char *val = eq ? eq + 1 : NULL;
		if (eq)
			*eq = 0;
		if (!strcmp(opt, "nodcb") && !val) {
			hw->dcb = 0;
		} else if (!strcmp(opt, "rdma") && val) {
			if (strcmp(val, "none") && !valid_name(val, sizeof(hw->rdma)))
				return die("invalid RDMA device name '%s'", val, 0);
			strcpy(hw->rdma, strcmp(val, "none") ? val : "");
			s->rdma_set = 1;
		} else if (!strcmp(opt, "speed") && val) {
			if (parse_speed(val, &hw->speed_mbps))
				return die("invalid speed '%s' (want e.g. 400G)", val, 0);
		} else if (!strcmp(opt, "mtu") && val) {
			if (parse_uint(val, hw->max_mtu, &v) || v < 68)
				return die("invalid MTU '%s'", val, 0);
			mtu = (uint32_t)v;
		} else if (!strcmp(opt, "ip") && val) {
			unsigned a, b, c, d;
			char tail;
			if (sscanf(val, "%u.%u.%u.%u%c", &a, &b, &c, &d, &tail) != 4 || a > 255 ||
			    b > 255 || c > 255 || d > 255)
				return die("invalid IPv4 address '%s'", val, 0);
			memcpy(hw->ipv4,
			       (uint8_t[]){(uint8_t)a, (uint8_t)b, (uint8_t)c, (uint8_t)d}, 4);
		} else if (!strcmp(opt, "dcbx") && val) {
			if (!strcmp(val, "host"))
				dcbx = 0x0d;
			else if (!strcmp(val, "fw"))
				dcbx = 0x0c;
			else
				return die("invalid dcbx mode '%s' (want host or fw)", val, 0);
		} else if (!strcmp(opt, "ecn") && val) {
			if (strcmp(val, "0") && strcmp(val, "1"))
				return die("invalid ecn default '%s' (want 0 or 1)", val, 0);
			s->ecn = val[0] == '1';
		} else if (!strcmp(opt, "mlx5") && val) {
			if (strcmp(val, "2024") && strcmp(val, "pre-2024"))
				return die("invalid mlx5 driver '%s' (want 2024 or pre-2024)", val,
					   0);
			hw->ets_nonets_check = !strcmp(val, "2024");
		} else if (!strcmp(opt, "debugfs") && !val) {
			hw->debugfs = 1;
		} else if (!strcmp(opt, "buffer") && val) {
			if (parse_uint(val, UINT32_MAX, &v) || v < 65536)
				return die("invalid port buffer size '%s'", val, 0);
			hw->buffer_total = (uint32_t)v;
		} else {
			return die("unknown NIC option '%s'", opt, 0);
		}
	}
	ns_cfg_factory(hw, &s->nic.cfg);
	s->nic.cfg.mtu = mtu;
	s->nic.cfg.dcbx = dcbx;
	memset(s->nic.cfg.ecn_np, s->ecn, NS_NPRIO);
	memset(s->nic.cfg.ecn_rp, s->ecn, NS_NPRIO);
	s->nic.cfg_dirty = 1;
	s->nic.cnt_dirty = 1;
	return 0;
}

static int write_text(const char *dir, const char *name, const char *ext, struct ns_buf *b)
{
	char path[NS_PATH_MAX];
	ns_pathf(path, sizeof(path), "%s/nics/%s.%s", dir, name, ext);
	int err = b->oom ? -ENOMEM : ns_write_atomic(path, b->p ? b->p : (uint8_t *)"", b->len);
	ns_buf_free(b);
	return err;
}

static int cmd_init(int argc, char **argv)
{
	static struct nicspec specs[NS_MAX_NICS];
	int n = 0, ofed = 0;
	char path[NS_PATH_MAX];
	const char *dir;

	if (argc < 3)
		return usage(), 2;
	dir = argv[2];
	for (int i = 3; i < argc; i++)
		if (!strcmp(argv[i], "--ofed"))
			ofed = 1;
	for (int i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "--ofed"))
			continue;
		if (strcmp(argv[i], "--nic") || i + 1 == argc)
			return usage(), 2;
		if (n == NS_MAX_NICS)
			return die("too many NICs (at most %s)", "32", 0);
		if (parse_spec(argv[++i], n, ofed, &specs[n]))
			return 1;
		n++;
	}
	if (!n)
		return die("'%s' needs at least one --nic", "init", 0);

	/* unique names; RDMA devices default to the first free mlx5_N */
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++) {
			if (!strcmp(specs[i].nic.hw.ifname, specs[j].nic.hw.ifname))
				return die("interface '%s' given twice", specs[i].nic.hw.ifname, 0);
			if (specs[i].nic.hw.rdma[0] &&
			    !strcmp(specs[i].nic.hw.rdma, specs[j].nic.hw.rdma))
				return die("RDMA device '%s' given twice", specs[i].nic.hw.rdma, 0);
		}
	for (int i = 0, k = 0; i < n; i++) {
		if (specs[i].rdma_set)
			continue;
		for (;; k++) {
			char cand[32];
			int used = 0;
			snprintf(cand, sizeof(cand), "mlx5_%d", k);
			for (int j = 0; j < n; j++)
				used |= !strcmp(specs[j].nic.hw.rdma, cand);
			if (!used) {
				strcpy(specs[i].nic.hw.rdma, cand);
				break;
			}
		}
	}

	snprintf(path, sizeof(path), "%s/nics", dir);
	struct stat st;
	if (stat(path, &st) == 0)
		return die("'%s' is already a simulated host", dir, 0);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return die("cannot create '%s'", dir, errno);
	if (mkdir(path, 0755) < 0)
		return die("cannot create '%s'", path, errno);

	for (int i = 0; i < n; i++) {
		struct ns_nic *nic = &specs[i].nic;
		struct ns_buf b = {0};
		int err = ns_hw_format(&nic->hw, &b);
		if (!err)
			err = write_text(dir, nic->hw.ifname, "hw", &b);
		if (!err)
			err = ns_tree_create(dir, nic);
		if (!err)
			err = ns_nic_save(dir, nic); /* state and counters */
		if (err)
			return die("cannot create the simulated NIC '%s'", nic->hw.ifname, err);
	}
	struct ns_faults f;
	memset(&f, 0, sizeof(f));
	int err = ns_faults_save(dir, &f);
	snprintf(path, sizeof(path), "%s/writes.log", dir);
	if (!err)
		err = ns_write_atomic(path, "", 0);
	if (err)
		return die("cannot initialise '%s'", dir, err);
	return 0;
}

/* PATH as the caller knows it -> canonical path relative to DIR */
static int fault_path(const char *dir, const char *path, char *rel, size_t n)
{
	char rdir[PATH_MAX], full[NS_PATH_MAX], rp[PATH_MAX];
	if (!realpath(dir, rdir))
		return -errno;
	if (path[0] == '/')
		snprintf(full, sizeof(full), "%s", path);
	else
		snprintf(full, sizeof(full), "%s/%s", dir, path);
	if (!realpath(full, rp)) {
		/* not there yet (a configfs directory): resolve the parent */
		char *slash = strrchr(full, '/');
		char prp[PATH_MAX];
		if (!slash)
			return -ENOENT;
		*slash = 0;
		if (!realpath(full, prp))
			return -errno;
		if ((size_t)snprintf(rp, sizeof(rp), "%s/%s", prp, slash + 1) >= sizeof(rp))
			return -ENAMETOOLONG;
	}
	size_t dl = strlen(rdir);
	if (strncmp(rp, rdir, dl) || rp[dl] != '/' || strncmp(rp + dl + 1, "sys/", 4))
		return -EXDEV;
	if (strlen(rp + dl + 1) >= n)
		return -ENAMETOOLONG;
	strcpy(rel, rp + dl + 1);
	return 0;
}

static int nic_exists(const char *dir, const char *ifname)
{
	struct ns_nic nic;
	return ns_nic_load(dir, ifname, &nic) == 0;
}

static int cmd_fault(int argc, char **argv)
{
	struct ns_faults f;
	unsigned long long v;
	if (argc < 4)
		return usage(), 2;
	const char *dir = argv[2], *what = argv[3];
	int lock = ns_lock(dir);
	if (lock < 0)
		return die("cannot lock the simulated host '%s'", dir, lock);
	int err = ns_faults_load(dir, &f), rc = 0;
	if (err) {
		ns_unlock(lock);
		return die("cannot read the faults of '%s'", dir, err);
	}
	if (!strcmp(what, "clear") && argc == 4) {
		memset(&f, 0, sizeof(f));
	} else if (!strcmp(what, "fail-set") && argc >= 5) {
		if (parse_uint(argv[4], 1000000, &v) || !v) {
			rc = die("invalid SET count '%s'", argv[4], 0);
			goto out;
		}
		f.fail_set_n = (int)v;
		f.fail_set_if[0] = 0;
		f.fail_set_errno = EIO;
		for (int i = 5; i < argc; i++) {
			if (!strcmp(argv[i], "--nic") && i + 1 < argc) {
				if (!nic_exists(dir, argv[++i])) {
					rc = die("no simulated NIC '%s'", argv[i], 0);
					goto out;
				}
				strcpy(f.fail_set_if, argv[i]);
			} else if (!strcmp(argv[i], "--errno") && i + 1 < argc) {
				f.fail_set_errno = ns_errno_parse(argv[++i]);
				if (!f.fail_set_errno || f.fail_set_errno > 255) {
					rc = die("invalid errno '%s'", argv[i], 0);
					goto out;
				}
			} else {
				rc = (usage(), 2);
				goto out;
			}
		}
	} else if (!strcmp(what, "eperm") && argc == 5) {
		char rel[sizeof(f.eperm[0])];
		err = fault_path(dir, argv[4], rel, sizeof(rel));
		if (err) {
			rc = die("'%s' is not a path below DIR/sys", argv[4],
				 err == -EXDEV ? 0 : err);
			goto out;
		}
		int dup = 0;
		for (int i = 0; i < f.n_eperm; i++)
			dup |= !strcmp(f.eperm[i], rel);
		if (!dup && f.n_eperm == NS_MAX_FAULT_PATHS) {
			rc = die("too many eperm faults (at most %s)", "16", 0);
			goto out;
		}
		if (!dup)
			strcpy(f.eperm[f.n_eperm++], rel);
	} else if (!strcmp(what, "nodcb") && argc == 5) {
		if (!nic_exists(dir, argv[4])) {
			rc = die("no simulated NIC '%s'", argv[4], 0);
			goto out;
		}
		int dup = 0;
		for (int i = 0; i < f.n_nodcb; i++)
			dup |= !strcmp(f.nodcb[i], argv[4]);
		if (!dup)
			strcpy(f.nodcb[f.n_nodcb++], argv[4]);
	} else if (!strcmp(what, "counters-grow")) {
		f.grow = 1;
		f.grow_step = 1;
		f.n_grow = 0;
		for (int i = 4; i < argc; i++) {
			if (!strcmp(argv[i], "--step") && i + 1 < argc) {
				if (parse_uint(argv[++i], UINT32_MAX, &v) || !v) {
					rc = die("invalid step '%s'", argv[i], 0);
					goto out;
				}
				f.grow_step = v;
			} else if (ns_counter_index(argv[i]) < 0) {
				rc = die("unknown counter '%s'", argv[i], 0);
				goto out;
			} else if (f.n_grow == NS_MAX_GROW_NAMES) {
				rc = die("too many counters (at most %s)", "32", 0);
				goto out;
			} else {
				strcpy(f.grow_names[f.n_grow++], argv[i]);
			}
		}
	} else {
		rc = (usage(), 2);
		goto out;
	}
	err = ns_faults_save(dir, &f);
	if (err)
		rc = die("cannot write the faults of '%s'", dir, err);
out:
	ns_unlock(lock);
	return rc;
}

static int cmd_counter(int argc, char **argv)
{
	struct ns_nic nic;
	unsigned long long v;
	if (argc != 6)
		return usage(), 2;
	const char *dir = argv[2], *val = argv[5];
	int add = val[0] == '+';
	int idx = ns_counter_index(argv[4]);
	if (idx < 0)
		return die("unknown counter '%s'", argv[4], 0);
	if (parse_uint(val + add, UINT64_MAX, &v))
		return die("invalid counter value '%s'", val, 0);
	int lock = ns_lock(dir);
	if (lock < 0)
		return die("cannot lock the simulated host '%s'", dir, lock);
	int err = ns_nic_load(dir, argv[3], &nic);
	if (!err) {
		nic.cnt.v[idx] = add ? nic.cnt.v[idx] + v : v;
		nic.cnt_dirty = 1;
		err = ns_nic_save(dir, &nic);
	}
	ns_unlock(lock);
	return err ? die("cannot set a counter of '%s'", argv[3], err) : 0;
}

/* rate DIR IF NAME=PER_SECOND...: each counter grows by PER_SECOND from now on (0 stops it) */
static int cmd_rate(int argc, char **argv)
{
	struct ns_nic nic;
	if (argc < 5)
		return usage(), 2;
	const char *dir = argv[2];
	int lock = ns_lock(dir);
	if (lock < 0)
		return die("cannot lock the simulated host '%s'", dir, lock);
	int err = ns_nic_load(dir, argv[3], &nic), rc = 0;
	for (int i = 4; i < argc && !err && !rc; i++) {
		char name[64], *end;
		const char *eq = strchr(argv[i], '=');
		if (!eq || (size_t)(eq - argv[i]) >= sizeof(name)) {
			rc = die("expected NAME=PER_SECOND, not '%s'", argv[i], 0);
			break;
		}
		memcpy(name, argv[i], (size_t)(eq - argv[i]));
		name[eq - argv[i]] = '\0';
		double per_s = strtod(eq + 1, &end);
		if (*end || end == eq + 1) {
			rc = die("invalid rate '%s'", eq + 1, 0);
			break;
		}
		if (ns_counter_index(name) < 0) {
			rc = die("unknown counter '%s'", name, 0);
			break;
		}
		err = ns_rates_set(dir, &nic, name, per_s);
	}
	if (!err && !rc)
		err = ns_nic_save(dir, &nic);
	ns_unlock(lock);
	if (rc)
		return rc;
	return err ? die("cannot set a rate on '%s'", argv[3], err) : 0;
}

static int cat(const char *path)
{
	struct ns_buf b = {0};
	int err = ns_read_file(path, &b);
	if (!err)
		fwrite(b.p, 1, b.len, stdout);
	ns_buf_free(&b);
	return err ? die("cannot read '%s'", path, err) : 0;
}

/* counters DIR IF: as a reader sees them now (moving counters included) */
static int cmd_counters(int argc, char **argv)
{
	struct ns_nic nic;
	if (argc != 4)
		return usage(), 2;
	int lock = ns_lock(argv[2]);
	if (lock < 0)
		return die("cannot lock the simulated host '%s'", argv[2], lock);
	int err = ns_nic_load(argv[2], argv[3], &nic);
	ns_unlock(lock);
	if (err)
		return die("no simulated NIC '%s'", argv[3], err == -ENODEV ? 0 : err);
	for (size_t i = 0; i < ns_ncounters; i++)
		printf("%s %llu\n", ns_counters[i].name, (unsigned long long)nic.cnt.v[i]);
	return 0;
}

static int cmd_show(int argc, char **argv, const char *ext)
{
	char path[NS_PATH_MAX];
	char names[NS_MAX_NICS][NS_IFNAMSIZ];
	if (argc == 4) {
		if (!nic_exists(argv[2], argv[3]))
			return die("no simulated NIC '%s'", argv[3], 0);
		snprintf(path, sizeof(path), "%s/nics/%s.%s", argv[2], argv[3], ext);
		return cat(path);
	}
	if (argc != 3 || strcmp(ext, "state"))
		return usage(), 2;
	int n = ns_list_nics(argv[2], names, NS_MAX_NICS);
	if (n < 0)
		return die("'%s' is not a simulated host", argv[2], n);
	for (int i = 0; i < n; i++)
		printf("%s\n", names[i]);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage(), 2;
	const char *cmd = argv[1];
	if (!strcmp(cmd, "init"))
		return cmd_init(argc, argv);
	if (argc >= 3) {
		char path[NS_PATH_MAX];
		struct stat st;
		snprintf(path, sizeof(path), "%s/nics", argv[2]);
		if (stat(path, &st) < 0)
			return die("'%s' is not a simulated host (run nicsim init)", argv[2], 0);
	}
	if (!strcmp(cmd, "fault"))
		return cmd_fault(argc, argv);
	if (!strcmp(cmd, "counter"))
		return cmd_counter(argc, argv);
	if (!strcmp(cmd, "rate"))
		return cmd_rate(argc, argv);
	if (!strcmp(cmd, "show"))
		return cmd_show(argc, argv, "state");
	if (!strcmp(cmd, "counters"))
		return cmd_counters(argc, argv);
	return usage(), 2;
}
