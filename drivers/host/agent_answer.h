/* SPDX-License-Identifier: Apache-2.0 */
/* What a remote `rocectl agent ...` answered, judged before anything reads it
 * (agent_answer.c).  Private to drivers/host/agent_ssh.c and its tests. */
#ifndef ROCECTL_DRIVERS_HOST_AGENT_ANSWER_H
#define ROCECTL_DRIVERS_HOST_AGENT_ANSWER_H

#include <stddef.h>

#include <cJSON.h>

#include "rocectl/driver.h"

/* The largest answer we parse: an agent's state for every RDMA interface of a host is a
 * few kilobytes per interface; anything near this is not an agent talking. */
#define RC_AGENT_ANSWER_MAX (1u << 20)

/* The version of what `agent state` and `agent write` exchange (agent_remote.c): both
 * answers carry it as "protocol", with "rocectl_version"; the controller refuses an agent
 * that speaks another one.  Bump it when a key of either changes meaning or goes. */
#define RC_AGENT_PROTOCOL 1

/* Judge the answer of `cmd` on `device`: stdout `out`/`out_len` (may be NULL/0), stderr
 * `errout`/`err_len` (may be NULL/0), the exit status (-1 = none sent).  On success
 * *json is one JSON object (the caller deletes it).  Every other answer is -EPROTO with a
 * message naming the device and the command: nothing printed (rocectl missing), a
 * non-zero exit without JSON, output over RC_AGENT_ANSWER_MAX, NUL bytes, invalid UTF-8,
 * or text that is not one JSON object. */
int rc_agent_answer_parse(const char *device, const char *cmd, const char *out, size_t out_len,
			  const char *errout, size_t err_len, int exit_status, cJSON **json,
			  struct rc_err *err);

/* 0 when the answer speaks RC_AGENT_PROTOCOL; else -EPROTO naming the device and both
 * sides' protocol and rocectl version (an agent older than the handshake: "none"). */
int rc_agent_protocol_check(const char *device, const cJSON *answer, struct rc_err *err);

/* The counters of an agent answer: `doc` is `agent counters --json`'s answer, or the
 * "counters" object of `agent state --counters` (cli/agent_remote.c), both
 * {"interfaces":[{"interface":IF,"counters":[{"name","value","source","is_drop",
 * "not_enabled"}]} | {"interface":IF,"error":MSG}]}.  Entries without a usable name,
 * source or value are skipped, as before; no "interfaces" list is -EPROTO naming the
 * device; -ENOMEM. */
int rc_agent_counters_parse(const char *device, const cJSON *doc, struct rc_counters *out,
			    struct rc_err *err);
/* The "lldp" key of an `agent state` answer ({"status":"ok","neighbors":[{"interface",
 * "system_name","port_id"}]} | {"status":"no-agent"|...,"error":MSG}) into `out` (which
 * the caller finishes, also on error): 0; a missing key is an agent older than it
 * (-EPROTO naming the host and both versions), "no-agent" -ENOENT, any other status -EIO,
 * no neighbour list -EPROTO; a neighbour whose names lldpd.c would refuse is skipped. */
int rc_agent_lldp_parse(const char *device, const cJSON *answer, struct rc_neighbors *out,
			struct rc_err *err);

#endif
