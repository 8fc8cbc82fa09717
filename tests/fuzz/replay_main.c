/* SPDX-License-Identifier: Apache-2.0 */
/* The main of a fuzz target built without libFuzzer: it hands each file named on the
 * command line to LLVMFuzzerTestOneInput once, as libFuzzer does with files it is given,
 * so that a corpus or a crash can be replayed with any compiler's sanitizers.  Linked with
 * one tests/fuzz/fuzz_*.c and the library's objects of `make unit`, from the root:
 *
 *   cc -std=c11 -D_GNU_SOURCE -Iinclude $(pkg-config --cflags libcjson libnl-3.0) \
 *       -g -fsanitize=address,undefined tests/fuzz/fuzz_eos.c tests/fuzz/replay_main.c \
 *       $(find build/san/engine build/san/drivers build/san/cli -name '*.o' ! -name main.o) \
 *       $(pkg-config --libs yaml-0.1 libnl-route-3.0 libssh libcurl libcjson libibverbs) \
 *       -lpthread -lm -o build/replay_eos
 *   build/replay_eos tests/data/eos/eapi-*.json
 *
 * It exits 1 at the first argument it cannot read as a regular file, 0 once every file has
 * been run. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The whole regular file (malloc'd, at least one byte so that an empty file is not NULL),
 * or NULL with the reason on stderr. */
static uint8_t *read_all(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	struct stat st;

	if (!f) {
		perror(path);
		return NULL;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
		*size = (size_t)st.st_size;
		buf = malloc(*size ? *size : 1);
		if (buf && fread(buf, 1, *size, f) != *size) {
			free(buf);
			buf = NULL;
		}
	}
	if (!buf)
		fprintf(stderr, "%s: cannot read it whole as a regular file\n", path);
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		size_t n = 0;
		uint8_t *buf = read_all(argv[i], &n);

		if (!buf)
			return 1;
		LLVMFuzzerTestOneInput(buf, n);
		free(buf);
	}
	return 0;
}
