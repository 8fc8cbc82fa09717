/* SPDX-License-Identifier: Apache-2.0 */
/* LD_PRELOAD helper for leak tests (tests/lab/t3240-parallel-leaks.sh): when the process
 * exits, write "<fds at start> <fds at exit>" to $FDCOUNT_OUT, counting the entries of
 * /proc/self/fd.  A preloaded object's destructor runs after the program's own, so what
 * it counts at exit is what the program left open.  Links nothing of rocectl. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

static int fds_at_start;

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1; /* the directory stream itself */
}

__attribute__((constructor)) static void at_start(void)
{
	fds_at_start = count_fds();
}

__attribute__((destructor)) static void at_exit_count(void)
{
	const char *path = getenv("FDCOUNT_OUT");
	FILE *f;

	if (!path || !*path)
		return;
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "%d %d\n", fds_at_start, count_fds() - 1); /* minus this FILE */
	fclose(f);
}
