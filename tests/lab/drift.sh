# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh disable=SC2154
# drift.sh: `lab drift DIR SEED K`, sourced by tests/lab/lab (README.md "Drift"); uses its
# variables (dir, RUN, SWDIR, SIMCTL, HOST_PORT, HOST_MODE) and functions (die, as_lab).
#
# K distinct targets (device, port, field) are drawn from DIR/topology with a generator
# seeded by SEED, so the same SEED on the same lab picks the same targets.  Each is changed
# behind rocectl's back the way an operator would: `dcb` on the host (as the lab user, under
# the host's simulated NICs), and on a switch through simctl's drift fault: `nv set` + `nv
# config apply` on NVUE (committed as user "drift"), a CONFIG_DB write on SONiC (as
# `sonic-db-cli HSET` would; buffermgrd follows), a running-config change on EOS (as typed
# in `configure`).  The new value is always one the roce-lossless policy
# does not want, and differs from the current one.  Each change is read back before it is
# recorded in DIR/drift.json.

# Park-Miller "minimal standard" generator: products stay below 2^53, exact in any awk.
drift_pick() {
	awk -v seed="$1" -v k="$2" '
	function rnd() {
		x = (x * 16807) % 2147483647
		return x
	}
	$1 == "host" {
		for (i = 4; i <= NF; i++) {
			t[n++] = "host " $2 " " $i " pfc_enabled"
			t[n++] = "host " $2 " " $i " dscp2prio[26]"
		}
	}
	# NVUE settings are profiles (switch-wide); SONiC binds PFC per port and maps/WRED
	# profiles switch-wide; EOS configures per interface except the global DSCP map
	$1 == "switch" && $5 == "nvue" {
		t[n++] = "switch " $2 " * pfc_enabled"
		t[n++] = "switch " $2 " * trust"
		t[n++] = "switch " $2 " * dscp2prio[26]"
		t[n++] = "switch " $2 " * ecn[3].kmin_bytes"
	}
	$1 == "switch" && $5 == "sonic" {
		t[n++] = "switch " $2 " " $7 " pfc_enabled"
		t[n++] = "switch " $2 " * dscp2prio[26]"
		t[n++] = "switch " $2 " * ecn[3].kmin_bytes"
	}
	$1 == "switch" && $5 == "eos" {
		t[n++] = "switch " $2 " " $7 " pfc_enabled"
		t[n++] = "switch " $2 " " $7 " trust"
		t[n++] = "switch " $2 " * dscp2prio[26]"
		t[n++] = "switch " $2 " " $7 " ecn[3].kmin_bytes"
	}
	END {
		if (k > n) {
			printf "lab: drift: %d changes asked, the lab has %d targets\n", k, n >"/dev/stderr"
			exit 1
		}
		x = seed % 2147483646 + 1
		for (i = 0; i < 8; i++)
			rnd()
		# partial Fisher-Yates: the first k of a random permutation
		for (i = 0; i < k; i++) {
			j = i + rnd() % (n - i)
			tmp = t[i]
			t[i] = t[j]
			t[j] = tmp
			print t[i], rnd()
		}
	}' "$dir/topology"
}

# pick_other R CURRENT CANDIDATE...: the (R mod n)th candidate that is not CURRENT
pick_other() {
	r=$1
	cur=$2
	shift 2
	keep=
	for c in "$@"; do
		[ "$c" = "$cur" ] || keep="$keep $c"
	done
	# shellcheck disable=SC2086
	set -- $keep
	[ $# -gt 0 ] || return 1
	shift $((r % $#))
	echo "$1"
}

# prios MASK: the priorities of a bit mask the way rocectl prints them ("3", "3,4", "none")
prios() {
	out=
	for p in 0 1 2 3 4 5 6 7; do
		[ $(($1 >> p & 1)) = 0 ] || out="${out:+$out,}$p"
	done
	echo "${out:-none}"
}

# json_list WORD...: a JSON array of strings (the words are port names: no quoting needed)
json_list() {
	printf '['
	sep=
	for w in "$@"; do
		printf '%s"%s"' "$sep" "$w"
		sep=,
	done
	printf ']'
}

json_str() {
	printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"
}

nic_conf() {
	as_lab "$RUN/sim/build/sim/nic/nicsimctl" show "$RUN/hosts/$1" "$2" |
		sed -n "s/^$3 //p"
}

# on_host HOST CMD...: CMD through the hosts' ForceCommand, as an SSH session would run it
on_host() {
	h=$1
	shift
	a=$(awk -v n="$h" '$1 == "host" && $2 == n { print $3 }' "$dir/topology")
	as_lab env -i SSH_CONNECTION="127.0.0.1 0 $a $HOST_PORT" SSH_ORIGINAL_COMMAND="$*" \
		"$RUN/bin/host-shell" "$RUN" "$HOST_MODE"
}

# the DSCP 26 entry of a NIC's app table, empty if none
app26() {
	for e in $(nic_conf "$1" "$2" app-dscp); do
		case $e in 26:*) echo "${e#26:}" ;; esac
	done
}

drift_host() {
	h=$1 ifc=$2 field=$3 r=$4
	case $field in
	pfc_enabled)
		mask=$(($(nic_conf "$h" "$ifc" pfc-en)))
		was=$(prios "$mask")
		if [ $((mask & 8)) != 0 ]; then
			want=$((mask & ~8))
			set -- dcb pfc set dev "$ifc" prio-pfc 3:off
		else
			# shellcheck disable=SC2046
			q=$(pick_other "$r" 3 $(for p in 4 2 5 1 0 7; do
				[ $((mask >> p & 1)) = 1 ] || echo "$p"
			done)) || die "drift: $h $ifc: no priority left to turn PFC on"
			want=$((mask | 1 << q))
			set -- dcb pfc set dev "$ifc" prio-pfc "$q:on"
		fi
		# iproute2 6.1's read-modify-write sets can answer "Protocol error" whatever
		# happened (nicsim README): judge by the NIC, and try again
		n=0
		while [ $(($(nic_conf "$h" "$ifc" pfc-en))) != "$want" ]; do
			n=$((n + 1))
			[ "$n" -le 5 ] || die "drift: $h $ifc: '$*' did not take"
			on_host "$h" "$@" >/dev/null 2>&1 || true
		done
		value=$(prios "$want")
		;;
	'dscp2prio[26]')
		cur=$(app26 "$h" "$ifc")
		was=${cur:-0}
		if [ -n "$cur" ] && [ $((r % 2)) = 0 ]; then
			set -- dcb app del dev "$ifc" dscp-prio "26:$cur"
			value=0
		else
			value=$(pick_other $((r / 2)) "$cur" 5 4 2 1)
			set -- dcb app add dev "$ifc" dscp-prio "26:$value"
		fi
		on_host "$h" "$@" >/dev/null 2>"$RUN/drift.err" ||
			die "drift: $h: '$*' failed: $(cat "$RUN/drift.err")"
		now=$(app26 "$h" "$ifc")
		[ "${now:-0}" = "$value" ] && { [ "$value" != 0 ] || [ -z "$now" ]; } ||
			die "drift: $h $ifc: '$*' left DSCP 26 at '${now:-none}'"
		;;
	esac
	record "$h" host "$(json_str "$ifc")" "$field" "$value" "$was" "$*"
}

# jq over a switch's state file (simctl state): operational view of its ports and profiles
sw_q() {
	jq -r --arg p "$2" "$3" "$1"
}

drift_switch() {
	sw=$1 field=$2 r=$3
	platform=$(awk -v n="$sw" '$1 == "switch" && $2 == n { print $5 }' "$dir/topology")
	ports=$(awk -v n="$sw" '$1 == "switch" && $2 == n { for (i = 7; i <= NF; i++) print $i }' \
		"$dir/topology")
	p0=$(echo "$ports" | head -n 1)
	"$SIMCTL" state "$SWDIR" "$sw" >"$RUN/drift.state" || die "drift: cannot read '$sw'"
	case $platform in
	sonic)
		drift_sonic "$sw" "$field" "$r"
		return
		;;
	eos)
		drift_eos "$sw" "$field" "$r"
		return
		;;
	esac
	case $field in
	pfc_enabled) cat=pfc ;;
	'ecn[3].kmin_bytes') cat=congestion-control ;;
	*) cat=mapping ;;
	esac
	prof=$(jq -r --arg p "$p0" --arg c "$cat" '.operational.interface[$p].qos[$c].profile' \
		"$RUN/drift.state")
	case $prof in '' | null | *[!A-Za-z0-9_.-]*) die "drift: $sw $p0: no $cat profile" ;; esac
	# the managed ports bound to that profile: a profile change reaches all of them
	# shellcheck disable=SC2086
	bound=$(jq -c --arg c "$cat" --arg f "$prof" --argjson ports "$(json_list $ports)" \
		'[$ports[] as $p | if .operational.interface[$p].qos[$c].profile == $f then $p
		  else empty end]' "$RUN/drift.state")
	extra=
	case $field in
	pfc_enabled)
		cur=$(jq -r --arg p "$p0" '.operational.interface[$p].qos.pfc["switch-priority"] |
			keys | join(",")' "$RUN/drift.state")
		was=${cur:-none}
		value=$(pick_other "$r" "$cur" 4 2 5 1)
		path="qos.pfc.$prof.switch-priority={\"$value\":{}}"
		check='.operational.interface[$p].qos.pfc["switch-priority"] | keys | join(",")'
		# as an operator must for NVUE to accept it: the lossless pool carries the
		# priority first (Cumulus Linux 5.18 QoS guide, "Flow Control
		# Buffers", "Traffic Pools"; one lossless pool, roce-lossless in RoCE
		# mode)
		pool=$(jq -r '.operational.qos["traffic-pool"] // {} |
			if has("roce-lossless") then "roce-lossless" else "default-lossless" end' \
			"$RUN/drift.state")
		extra=$(jq -c --arg pool "$pool" --arg v "$value" '.operational.qos["traffic-pool"] // {} |
			(.[$pool]["switch-priority"] // {}) + {($v): {}} |
			"qos.traffic-pool.\($pool).switch-priority=\(tojson)"' -r "$RUN/drift.state")
		if [ "$pool" = default-lossless ] && [ "$(jq -r '.operational.qos["traffic-pool"]
			["default-lossless"]["memory-percent"] // 0' "$RUN/drift.state")" = 0 ]; then
			extra="$extra qos.traffic-pool.default-lossless.memory-percent=50"
			extra="$extra qos.traffic-pool.default-lossy.memory-percent=50"
		fi
		;;
	trust)
		cur=$(jq -r --arg p "$p0" '.operational.interface[$p].qos.mapping.trust' \
			"$RUN/drift.state")
		case $cur in l2) new=both value=unset ;; *) new=l2 value=pcp ;; esac
		case $cur in l2) was=pcp ;; l3) was=dscp ;; *) was='unset' ;; esac
		path="qos.mapping.$prof.trust=$new"
		check='.operational.interface[$p].qos.mapping.trust'
		expect=$new
		;;
	'dscp2prio[26]')
		cur=$(jq -r --arg f "$prof" '.operational.qos.mapping[$f].dscp["26"]["switch-priority"]' \
			"$RUN/drift.state")
		was=$cur
		value=$(pick_other "$r" "$cur" 5 4 2 1)
		path="qos.mapping.$prof.dscp.26.switch-priority=$value"
		check='.operational.qos.mapping["'"$prof"'"].dscp["26"]["switch-priority"]'
		;;
	'ecn[3].kmin_bytes')
		cur=$(jq -r --arg p "$p0" '.operational.interface[$p].qos["congestion-control"]
			["traffic-class"]["3"]["min-threshold"] // 0' "$RUN/drift.state")
		was=$cur
		# multiples of 36864 B: exact on every model's cell size (12288, 144, 96 B), so
		# what the ASIC programs is what is recorded
		value=$(pick_other "$r" "$cur" 331776 73728 737280)
		path="qos.congestion-control.$prof.traffic-class.3.min-threshold=$value"
		check='.operational.interface[$p].qos["congestion-control"]["traffic-class"]["3"]["min-threshold"]'
		;;
	esac
	[ "$field" = trust ] || expect=$value
	# shellcheck disable=SC2086 # $extra: more PATH=VALUE words, none with a blank
	"$SIMCTL" fault "$SWDIR" "$sw" drift "$path" $extra >/dev/null 2>"$RUN/drift.err" ||
		die "drift: $sw: drift $path $extra failed: $(cat "$RUN/drift.err")"
	"$SIMCTL" state "$SWDIR" "$sw" >"$RUN/drift.state" || die "drift: cannot read '$sw'"
	# every bound port shows the new value
	now=$(jq -r --argjson ports "$bound" "[\$ports[] as \$p | $check | tostring] | unique |
		join(\" \")" "$RUN/drift.state")
	[ "$now" = "$expect" ] || die "drift: $sw: '$path' left $field at '$now' on $bound"
	record "$sw" switch "\"*\", \"ports\": $bound" "$field" "$value" "$was" \
		"simctl fault DIR $sw drift $path${extra:+ $extra}"
}

# sw_drift SWITCH PATH...: simctl's drift, then the switch's state again in drift.state
sw_drift() {
	d_sw=$1
	shift
	"$SIMCTL" fault "$SWDIR" "$d_sw" drift "$@" >/dev/null 2>"$RUN/drift.err" ||
		die "drift: $d_sw: drift $* failed: $(cat "$RUN/drift.err")"
	"$SIMCTL" state "$SWDIR" "$d_sw" >"$RUN/drift.state" || die "drift: cannot read '$d_sw'"
}

# bound_ports JQ: the managed ports (of $ports) for which JQ (with $p the port) is true
bound_ports() {
	# shellcheck disable=SC2086
	jq -c --argjson ports "$(json_list $ports)" "[\$ports[] as \$p | if $1 then \$p else empty end]" \
		"$RUN/drift.state"
}

# SONiC: CONFIG_DB written directly (sonic-db-cli HSET); buffermgrd re-derives the PGs.
# pfc_enabled is the first managed port's PORT_QOS_MAP pfc_enable; the DSCP map and the
# WRED profile are shared by every port bound to them.
drift_sonic() {
	sw=$1 field=$2 r=$3
	db=.sonic.config_db
	case $field in
	pfc_enabled)
		cur=$(jq -r --arg p "$p0" "$db.PORT_QOS_MAP[\$p].pfc_enable // \"\"" "$RUN/drift.state")
		was=${cur:-none}
		value=$(pick_other "$r" "$cur" 4 2 5 1)
		path="PORT_QOS_MAP.$p0.pfc_enable=$value"
		check="$db.PORT_QOS_MAP[\$p].pfc_enable"
		bound=$(json_list "$p0")
		port=$p0
		;;
	'dscp2prio[26]')
		map=$(jq -r --arg p "$p0" "$db.PORT_QOS_MAP[\$p].dscp_to_tc_map // \"\"" "$RUN/drift.state")
		case $map in '' | *[!A-Za-z0-9_-]*) die "drift: $sw $p0: no DSCP_TO_TC_MAP bound" ;; esac
		cur=$(jq -r --arg m "$map" "$db.DSCP_TO_TC_MAP[\$m][\"26\"] // \"0\"" "$RUN/drift.state")
		was=$cur
		value=$(pick_other "$r" "$cur" 5 4 2 1)
		path="DSCP_TO_TC_MAP.$map.26=$value"
		check="$db.DSCP_TO_TC_MAP[$db.PORT_QOS_MAP[\$p].dscp_to_tc_map][\"26\"]"
		bound=$(bound_ports "$db.PORT_QOS_MAP[\$p].dscp_to_tc_map == \"$map\"")
		port='*'
		;;
	'ecn[3].kmin_bytes')
		prof=$(jq -r --arg q "$p0|3" "$db.QUEUE[\$q].wred_profile // \"\"" "$RUN/drift.state")
		case $prof in '' | *[!A-Za-z0-9_-]*) die "drift: $sw $p0: no WRED profile on queue 3" ;; esac
		cur=$(jq -r --arg w "$prof" "$db.WRED_PROFILE[\$w].green_min_threshold // \"0\"" \
			"$RUN/drift.state")
		was=$cur
		value=$(pick_other "$r" "$cur" 331776 73728 737280)
		path="WRED_PROFILE.$prof.green_min_threshold=$value"
		check="$db.WRED_PROFILE[$db.QUEUE[\$p + \"|3\"].wred_profile].green_min_threshold"
		bound=$(bound_ports "$db.QUEUE[\$p + \"|3\"].wred_profile == \"$prof\"")
		port='*'
		;;
	*) die "drift: $sw: no SONiC drift for '$field'" ;;
	esac
	sw_drift "$sw" "$path"
	drift_verify "$sw" "$check" "$value" "$bound" "$path"
	[ "$port" = '*' ] || port=$p0
	record "$sw" switch "\"$port\", \"ports\": $bound" "$field" "$value" "$was" \
		"simctl fault DIR $sw drift $path"
}

# EOS: the running-config changed as if typed in "configure" (drift paths over simctl's
# JSON form of it).  PFC, trust and ECN are the first managed interface's; the DSCP map is
# global.
drift_eos() {
	sw=$1 field=$2 r=$3
	ifc=".eos.running.interface[\$p]"
	case $field in
	pfc_enabled)
		cur=$(jq -r --arg p "$p0" "$ifc | if .pfc then [(.\"pfc-priority\" // {}) | to_entries[] |
			select(.value == \"no-drop\") | .key] | join(\",\") else \"\" end" "$RUN/drift.state")
		was=${cur:-none}
		value=$(pick_other "$r" "$cur" 4 2 5 1)
		set -- "interface.$p0.pfc=true" "interface.$p0.pfc-priority={\"$value\":\"no-drop\"}"
		check="$ifc | [(.\"pfc-priority\" // {}) | to_entries[] | select(.value == \"no-drop\") |
			.key] | join(\",\")"
		bound=$(json_list "$p0")
		;;
	trust)
		cur=$(jq -r --arg p "$p0" "$ifc.\"qos-trust\" // \"cos\"" "$RUN/drift.state")
		case $cur in dscp) was=dscp ;; cos) was=pcp ;; *) was=unset ;; esac
		case $cur in cos) new=untrusted value=unset ;; *) new=cos value=pcp ;; esac
		set -- "interface.$p0.qos-trust=$new"
		check="$ifc.\"qos-trust\" // \"cos\" | {dscp: \"dscp\", cos: \"pcp\", untrusted: \"unset\"}[.]"
		bound=$(json_list "$p0")
		;;
	'dscp2prio[26]')
		# the default map puts DSCP 24-31 on CoS 3 and so on traffic class 3
		cur=$(jq -r '.eos.running."qos-map-dscp"."26" // 3' "$RUN/drift.state")
		was=$cur
		value=$(pick_other "$r" "$cur" 5 4 2 1)
		set -- "qos-map-dscp.26=$value"
		check='.eos.running."qos-map-dscp"."26" // 3'
		# shellcheck disable=SC2086
		bound=$(json_list $ports)
		;;
	'ecn[3].kmin_bytes')
		units='{"bytes": 1, "kbytes": 1000, "mbytes": 1000000, "segments": 208}'
		ecn="$ifc.\"tx-queue\".\"3\".ecn"
		cur=$(jq -r --arg p "$p0" --argjson u "$units" "$ecn |
			if . then .min * \$u[.\"min-unit\"] else 0 end" "$RUN/drift.state")
		was=$cur
		value=$(pick_other "$r" "$cur" 331776 73728 737280)
		# keep the maximum when it still lies above the new minimum
		new=$(jq -c --arg p "$p0" --argjson u "$units" --argjson v "$value" "$ecn |
			if . and .max * \$u[.\"max-unit\"] >= \$v then . + {min: \$v, \"min-unit\": \"bytes\"}
			else {min: \$v, \"min-unit\": \"bytes\", max: 2000000, \"max-unit\": \"bytes\",
			      probability: 100} end" "$RUN/drift.state")
		set -- "interface.$p0.tx-queue.3.ecn=$new"
		check="$ecn | if . then .min * $units[.\"min-unit\"] else 0 end"
		bound=$(json_list "$p0")
		;;
	*) die "drift: $sw: no EOS drift for '$field'" ;;
	esac
	path=$*
	sw_drift "$sw" "$@"
	drift_verify "$sw" "$check" "$value" "$bound" "$path"
	port=$p0
	[ "$field" != 'dscp2prio[26]' ] || port='*'
	record "$sw" switch "\"$port\", \"ports\": $bound" "$field" "$value" "$was" \
		"simctl fault DIR $sw drift $path"
}

# drift_verify SWITCH CHECK VALUE BOUND PATH: every bound port shows VALUE (jq CHECK, $p)
drift_verify() {
	now=$(jq -r --argjson ports "$4" "[\$ports[] as \$p | $2 | tostring] | unique | join(\" \")" \
		"$RUN/drift.state")
	[ "$now" = "$3" ] || die "drift: $1: '$5' left the field at '$now' on $4"
}

# record DEVICE KIND PORT_JSON FIELD VALUE WAS COMMAND: one element of drift.json
record() {
	printf '  {"device": %s, "kind": "%s", "port": %s, "field": %s, "value": %s, "was": %s, "command": %s}\n' \
		"$(json_str "$1")" "$2" "$3" "$(json_str "$4")" "$(json_str "$5")" \
		"$(json_str "$6")" "$(json_str "$7")" >>"$out"
	echo "$1 $(echo "$3" | cut -d, -f1 | tr -d '"') $4: $6 -> $5"
}

cmd_drift() {
	[ $# -eq 3 ] || usage
	load_lab "$1"
	case $2 in '' | *[!0-9]*) die "drift: SEED is a non-negative integer, not '$2'" ;; esac
	case $3 in '' | *[!0-9]*) die "drift: K is a non-negative integer, not '$3'" ;; esac
	[ ${#2} -le 15 ] || die "drift: SEED '$2' is too big"
	[ ${#3} -le 6 ] || die "drift: K '$3' is too big"
	[ -f "$dir/topology" ] || die "drift: no $dir/topology"
	command -v jq >/dev/null || die "drift: needs jq"
	drift_pick "$2" "$3" >"$RUN/drift.targets" || exit 1
	out=$RUN/drift.records
	: >"$out"
	# the targets on fd 3: what runs for each change must not eat them
	while read -r kind dev port field r <&3; do
		case $kind in
		host) drift_host "$dev" "$port" "$field" "$r" </dev/null ;;
		switch) drift_switch "$dev" "$field" "$r" </dev/null ;;
		esac
	done 3<"$RUN/drift.targets"
	{
		echo "["
		sed '$!s/$/,/' "$out"
		echo "]"
	} >"$dir/drift.json.tmp"
	mv "$dir/drift.json.tmp" "$dir/drift.json"
	rm -f "$out" "$RUN/drift.state" "$RUN/drift.err" "$RUN/drift.targets"
}
