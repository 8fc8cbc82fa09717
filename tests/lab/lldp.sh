# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh disable=SC2154
# lldp.sh: what the lab's switches' LLDP agents see, sourced by tests/lab/lab (README.md
# "Cabling and LLDP"); uses its variables (dir, SWDIR, SIMCTL) and functions (die, usage).
#
# DIR/cabling holds the true cables, one "DEV:PORT DEV:PORT" line each: the topology's
# links at `up`, changed by `lab miscable DIR A:P B:Q` (the cables on A:P and B:Q swap their
# far ends).  Every switch is told what it sees on each cabled port (simctl's lldp fault),
# with the port IDs the far devices advertise (DIR/portids: SONiC's aliases); hosts run no
# LLDP agent rocectl can read, as a host without lldpd.

# The port IDs the lab's devices advertise, "DEV PORT ID TYPE" lines in DIR/portids: a SONiC
# switch's lldpmgrd sends each port's CONFIG_DB alias as a locally assigned port ID
# (`portidsubtype local <alias>`, sonic-buildimage dockers/docker-lldp/lldpmgrd), NVUE's and
# EOS's LLDP agents the interface name, and the hosts' lldpd is set to the interface name
# (`configure lldp portidsubtype ifname`), as a neighbour then sees them.
lldp_portids() {
	: >"$dir/portids.tmp"
	for sw in $(awk '$1 == "switch" && $5 == "sonic" { print $2 }' "$dir/topology"); do
		"$SIMCTL" state "$SWDIR" "$sw" |
			jq -r --arg d "$sw" '.sonic.config_db.PORT // {} | to_entries[] |
				select(.value.alias != null and .value.alias != "") |
				"\($d) \(.key) \(.value.alias) local"' >>"$dir/portids.tmp" ||
			die "lldp: cannot read the port aliases of '$sw'"
	done
	mv "$dir/portids.tmp" "$dir/portids"
}

# lldp_push SWITCH...: tell each switch what its cabled ports see: the far device's name and
# the far port's ID as that device advertises it (DIR/portids, else its name)
lldp_push() {
	[ -f "$dir/portids" ] || : >"$dir/portids"
	for sw in "$@"; do
		grep -q "^switch $sw " "$dir/topology" || continue
		# shellcheck disable=SC2046
		set -- $(awk -v s="$sw" '
			FILENAME ~ /portids$/ { id[$1 ":" $2] = $3 "," $4; next }
			function seen(e,   x) { split(e, x, ":"); return x[1] ":" (e in id ? id[e] : x[2] ",ifname") }
			{ split($1, a, ":"); split($2, b, ":")
			  if (a[1] == s) print a[2] "=" seen($2); if (b[1] == s) print b[2] "=" seen($1) }' \
			"$dir/portids" "$dir/cabling")
		[ $# -eq 0 ] || "$SIMCTL" fault "$SWDIR" "$sw" lldp "$@" >/dev/null ||
			die "lldp: cannot set what '$sw' sees"
	done
}

lldp_up() {
	awk '$1 == "link" { print $2, $3 }' "$dir/topology" >"$dir/cabling"
	lldp_portids
	# shellcheck disable=SC2046
	lldp_push $(awk '$1 == "switch" { print $2 }' "$dir/topology")
}

cmd_miscable() {
	[ $# -eq 3 ] || usage
	load_lab "$1"
	a=$2 b=$3
	for e in "$a" "$b"; do
		case $e in *:*) ;; *) die "miscable: want DEVICE:PORT, not '$e'" ;; esac
		case $e in *[!A-Za-z0-9:._/-]*) die "miscable: bad DEVICE:PORT '$e'" ;; esac
	done
	[ "$a" != "$b" ] || die "miscable: two different ports, please"
	[ -f "$dir/cabling" ] || die "miscable: no $dir/cabling (a lab from before LLDP?)"
	x=$(awk -v e="$a" '$1 == e { print $2 } $2 == e { print $1 }' "$dir/cabling")
	y=$(awk -v e="$b" '$1 == e { print $2 } $2 == e { print $1 }' "$dir/cabling")
	[ -n "$x" ] || die "miscable: '$a' is not cabled"
	[ -n "$y" ] || die "miscable: '$b' is not cabled"
	[ "$x" != "$b" ] || die "miscable: '$a' and '$b' are the two ends of one cable"
	awk -v a="$a" -v b="$b" -v x="$x" -v y="$y" '
		($1 == a && $2 == x) || ($1 == x && $2 == a) || ($1 == b && $2 == y) || ($1 == y && $2 == b) { next }
		{ print }
		END { print a, y; print b, x }' "$dir/cabling" >"$dir/cabling.tmp" &&
		mv "$dir/cabling.tmp" "$dir/cabling"
	lldp_push "${a%%:*}" "${b%%:*}" "${x%%:*}" "${y%%:*}"
	echo "lab: miscable: $a now goes to $y, $b to $x ($dir/cabling)"
}
