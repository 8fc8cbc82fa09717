# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh
# with_syslog LOG CMD...: run CMD with its syslog(3) messages collected in LOG: /dev/log is
# a socket of ours in a private mount namespace (the devices rocectl and ssh use are bound
# in from the real /dev).  Needs root (unshare -m).  Uses $TMP.
with_syslog() {
	log=$1
	shift
	mkdir -p "$TMP/dev" && rm -f "$TMP/dev/log" "$log" &&
	python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
open(sys.argv[1] + ".ready", "w").close()
with open(sys.argv[2], "ab", buffering=0) as out:
    while True:
        out.write(s.recv(65536) + b"\n")
' "$TMP/dev/log" "$log" &
	pid=$!
	while [ ! -e "$TMP/dev/log.ready" ]; do sleep 0.1; done
	rm -f "$TMP/dev/log.ready"
	unshare -m sh -c '
		for n in null zero random urandom tty; do
			[ -e "$0/$n" ] || touch "$0/$n"; mount --bind "/dev/$n" "$0/$n"
		done
		for d in pts shm; do mkdir -p "$0/$d" && mount --rbind "/dev/$d" "$0/$d"; done
		mount --bind "$0" /dev && exec "$@"' "$TMP/dev" "$@"
	st=$?
	sleep 0.3
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	return $st
}
