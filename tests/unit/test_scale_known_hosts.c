/* SPDX-License-Identifier: Apache-2.0 */
/* The known_hosts index behind the SSH host key check's fast path
 * (drivers/transport/known_hosts.c): it may only ever say "this exact key is recorded for
 * this exact host"; anything it cannot vouch for literally is left to libssh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../drivers/transport/known_hosts.h"

#define K1 "AAAAC3NzaC1lZDI1NTE5AAAAIOl0b2tleTEx"
#define K2 "AAAAC3NzaC1lZDI1NTE5AAAAIOl0b2tleTIy"

static struct rc_kh_index *index_of(const char *text)
{
	struct rc_kh_index *ix = rc_kh_index_new(text, strlen(text));

	assert_non_null(ix);
	return ix;
}

static void test_literal_hosts_and_keys(void **state)
{
	struct rc_kh_index *ix = index_of("# lab\n"
					  "127.1.0.1 ssh-ed25519 " K1 "\n"
					  "[127.2.0.1]:2222,gpu001 ssh-ed25519 " K2 " comment\r\n"
					  "\n"
					  "127.1.0.10 ecdsa-sha2-nistp256 " K1 "\n");

	(void)state;
	assert_true(rc_kh_index_has(ix, "127.1.0.1", "ssh-ed25519", K1));
	assert_true(rc_kh_index_has(ix, "[127.2.0.1]:2222", "ssh-ed25519", K2));
	assert_true(rc_kh_index_has(ix, "gpu001", "ssh-ed25519", K2));
	/* another key, another type, another port, a name that only starts the same */
	assert_false(rc_kh_index_has(ix, "127.1.0.1", "ssh-ed25519", K2));
	assert_false(rc_kh_index_has(ix, "127.1.0.10", "ssh-ed25519", K1));
	assert_false(rc_kh_index_has(ix, "127.2.0.1", "ssh-ed25519", K2));
	assert_false(rc_kh_index_has(ix, "[127.2.0.1]:22", "ssh-ed25519", K2));
	assert_false(rc_kh_index_has(ix, "127.1.0.", "ssh-ed25519", K1));
	assert_false(rc_kh_index_has(ix, "127.9.9.9", "ssh-ed25519", K1));
	rc_kh_index_free(ix);
}

/* Patterns and negations are libssh's to interpret: never a literal entry here. */
static void test_patterns_are_left_to_libssh(void **state)
{
	struct rc_kh_index *ix = index_of("127.1.0.* ssh-ed25519 " K1 "\n"
					  "!127.1.0.2,127.1.0.? ssh-ed25519 " K1 "\n"
					  "127.1.0.3 ssh-ed25519\n"
					  "127.1.0.4\n");

	(void)state;
	assert_false(rc_kh_index_has(ix, "127.1.0.1", "ssh-ed25519", K1));
	assert_false(rc_kh_index_has(ix, "127.1.0.2", "ssh-ed25519", K1));
	assert_false(rc_kh_index_has(ix, "!127.1.0.2", "ssh-ed25519", K1));
	assert_false(rc_kh_index_has(ix, "127.1.0.*", "ssh-ed25519", K1));
	assert_false(rc_kh_index_has(ix, "127.1.0.3", "ssh-ed25519", ""));
	rc_kh_index_free(ix);
}

/* A hashed name or a marker anywhere: the index answers nothing (a @revoked key must never
 * be taken as known, and a hashed line may name the same host with another key). */
static void test_hashed_or_marked_files_answer_nothing(void **state)
{
	const char *files[] = {
	    "127.1.0.1 ssh-ed25519 " K1 "\n|1|c2FsdA==|aGFzaA== ssh-ed25519 " K2 "\n",
	    "127.1.0.1 ssh-ed25519 " K1 "\n@revoked 127.1.0.1 ssh-ed25519 " K1 "\n",
	    "@cert-authority *.lab ssh-ed25519 " K2 "\n127.1.0.1 ssh-ed25519 " K1 "\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct rc_kh_index *ix = index_of(files[i]);

		assert_false(rc_kh_index_has(ix, "127.1.0.1", "ssh-ed25519", K1));
		rc_kh_index_free(ix);
	}
}

/* Many hosts, in any order; the same host twice with two keys: both are found. */
static void test_many_hosts(void **state)
{
	static char text[256 * 1024];
	char host[32];
	size_t off = 0;
	struct rc_kh_index *ix;

	(void)state;
	for (int i = 4000; i > 0; i -= 3)
		off += (size_t)snprintf(text + off, sizeof(text) - off,
					"[127.2.%d.%d]:2222 ssh-ed25519 %s\n", i / 250, i % 250,
					i % 2 ? K1 : K2);
	off +=
	    (size_t)snprintf(text + off, sizeof(text) - off, "[127.2.0.1]:2222 ssh-rsa %s\n", K2);
	ix = rc_kh_index_new(text, off);
	assert_non_null(ix);
	for (int i = 4000; i > 0; i -= 3) {
		snprintf(host, sizeof(host), "[127.2.%d.%d]:2222", i / 250, i % 250);
		assert_true(rc_kh_index_has(ix, host, "ssh-ed25519", i % 2 ? K1 : K2));
		assert_false(rc_kh_index_has(ix, host, "ssh-ed25519", i % 2 ? K2 : K1));
	}
	assert_true(rc_kh_index_has(ix, "[127.2.0.1]:2222", "ssh-rsa", K2));
	assert_true(rc_kh_index_has(ix, "[127.2.0.1]:2222", "ssh-ed25519", K1));
	rc_kh_index_free(ix);
	assert_false(rc_kh_index_has(NULL, "x", "ssh-ed25519", K1));
}

/* The types a host is known with, for the key exchange's host key algorithms
 * (drivers/transport/ssh.c): each once, in file order; none for what the index cannot
 * vouch for, nor when the buffer is too small. */
static void test_types_of_a_host(void **state)
{
	struct rc_kh_index *ix = index_of("127.1.0.1 ssh-ed25519 " K1 "\n"
					  "127.1.0.1 ssh-rsa " K2 "\n"
					  "127.1.0.1,127.1.0.2 ssh-ed25519 " K2 "\n"
					  "127.1.0.3 sk-ssh-ed25519@openssh.com " K1 "\n"
					  "127.1.0.* ecdsa-sha2-nistp256 " K1 "\n");
	struct rc_kh_index *hashed = index_of("|1|abc=|def= ssh-ed25519 " K1 "\n");
	char buf[64], tiny[12];

	(void)state;
	assert_int_equal(rc_kh_index_types(ix, "127.1.0.1", buf, sizeof(buf)), 2);
	assert_string_equal(buf, "ssh-ed25519,ssh-rsa");
	assert_int_equal(rc_kh_index_types(ix, "127.1.0.2", buf, sizeof(buf)), 1);
	assert_string_equal(buf, "ssh-ed25519");
	/* "ssh-ed25519" is not a duplicate of the sk- type it ends */
	assert_int_equal(rc_kh_index_types(ix, "127.1.0.3", buf, sizeof(buf)), 1);
	assert_string_equal(buf, "sk-ssh-ed25519@openssh.com");
	/* the pattern is libssh's to judge */
	assert_int_equal(rc_kh_index_types(ix, "127.1.0.4", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	assert_int_equal(rc_kh_index_types(ix, "127.1.0.1", tiny, sizeof(tiny)), 0);
	assert_string_equal(tiny, "");
	assert_int_equal(rc_kh_index_types(hashed, "127.1.0.1", buf, sizeof(buf)), 0);
	assert_int_equal(rc_kh_index_types(NULL, "127.1.0.1", buf, sizeof(buf)), 0);
	rc_kh_index_free(ix);
	rc_kh_index_free(hashed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_literal_hosts_and_keys),
	    cmocka_unit_test(test_patterns_are_left_to_libssh),
	    cmocka_unit_test(test_hashed_or_marked_files_answer_nothing),
	    cmocka_unit_test(test_many_hosts),
	    cmocka_unit_test(test_types_of_a_host),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
