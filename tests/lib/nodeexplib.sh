# SPDX-License-Identifier: Apache-2.0
# Debian's node_exporter with only its textfile collector, run as nobody (as its package runs
# it, unprivileged), for the tests that scrape rocectl's textfiles (t3214, t3215).  Source
# after testlib.sh; the test kills "$TMP/ne.pid" when it ends.
#
#   ne_start DIR PORT...   serve DIR's textfiles on the first free PORT, scraped once into
#                          $TMP/metrics (1 if none came up)
#   ne_scrape              scrape again into $TMP/metrics

NE=/usr/bin/prometheus-node-exporter

ne_scrape() {
	curl -sf "http://127.0.0.1:$(cat "$TMP/ne.port")/metrics" >"$TMP/metrics"
}

ne_start() {
	ne_dir=$1
	shift
	for port in "$@"; do
		setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$NE" \
			--collector.disable-defaults --collector.textfile \
			--collector.textfile.directory="$ne_dir" --web.listen-address="127.0.0.1:$port" \
			>"$TMP/ne.log" 2>&1 &
		echo $! >"$TMP/ne.pid" && echo "$port" >"$TMP/ne.port" || return 1
		i=0 && while [ $i -lt 50 ] && ! ne_scrape 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
		ne_scrape && return 0
		kill "$(cat "$TMP/ne.pid")" 2>/dev/null
	done
	return 1
}
