# shellcheck shell=sh disable=SC2154
# lldp.sh: what the lab's switches' LLDP agents see, sourced by tests/lab/lab (README.md
# "Cabling and LLDP"); uses its variables (dir, SWDIR, SIMCTL) and functions (die, usage).
#
# DIR/cabling holds the true cables, one "DEV:PORT DEV:PORT" line each: the topology's
# links at `up`, changed by `lab miscable DIR A:P B:Q` (the cables on A:P and B:Q swap their
# far ends).  Every switch is told what it sees on each cabled port (simctl's lldp fault);
# hosts run no LLDP agent, as a host without lldpd.

# lldp_push SWITCH...: tell each switch what its cabled ports see
lldp_push() {
	for sw in "$@"; do
		grep -q "^switch $sw " "$dir/topology" || continue
		# shellcheck disable=SC2046
		set -- $(awk -v s="$sw" '{ split($1, a, ":"); split($2, b, ":")
			if (a[1] == s) print a[2] "=" $2; if (b[1] == s) print b[2] "=" $1 }' "$dir/cabling")
		[ $# -eq 0 ] || "$SIMCTL" fault "$SWDIR" "$sw" lldp "$@" >/dev/null ||
			die "lldp: cannot set what '$sw' sees"
	done
}

lldp_up() {
	awk '$1 == "link" { print $2, $3 }' "$dir/topology" >"$dir/cabling"
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
