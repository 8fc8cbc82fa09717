# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh disable=SC2154
# congest.sh: `lab congest DIR DEVICE:PORT [--storm] [--ecn-off] [--priority P]` and
# `lab congest DIR --clear`, sourced by tests/lab/lab (README.md "Congestion"); uses its
# variables (dir, RUN, SWDIR, SIMCTL) and functions (die, as_lab).
#
# Makes the fabric's counters move as a congestion tree would, from DIR/topology alone:
#   * congestion at a switch's egress PORT (default): that queue marks ECN; the NIC(s)
#     behind it count the marked packets and send CNPs (none with --ecn-off: notification
#     point off); the switch sends PFC pauses on the ports its traffic to PORT comes in by,
#     each neighbour receives them and, its own egress towards the paused link now full,
#     pauses its ingress ports in turn, hop by hop along up-down paths (a leaf whose uplink
#     is paused pauses only its host ports; a spine pauses every other leaf); the hosts at
#     the edge of the tree receive pauses and handle the CNPs;
#   * --storm with DEVICE:PORT a host NIC: that NIC sends pauses continuously (duration
#     100% of the time, storm warnings), its leaf port receives them and the tree grows
#     from there with no ECN marks.
# Counters are simctl/nicsim rates (they grow with time, so two samples differ).  What was
# made is written to DIR/congest.json; --clear freezes every counter again.

congest_plan() {
	awk -v root="$1" -v storm="$2" -v ecnoff="$3" -v prio="$4" -v json="$5" '
	function add_port(dev, p) {
		ports[dev, ++nports[dev]] = p
	}
	$1 == "host" { kind[$2] = "host" }
	$1 == "switch" { kind[$2] = "switch"; role[$2] = $4; plat[$2] = $5 }
	$1 == "link" {
		peer[$2] = $3
		peer[$3] = $2
		split($2, a, ":")
		split($3, b, ":")
		add_port(a[1], a[2])
		add_port(b[1], b[2])
	}
	function dev_of(ep,   x) { split(ep, x, ":"); return x[1] }
	function port_of(ep,   x) { split(ep, x, ":"); return x[2] }
	# a port of a leaf that goes to a spine
	function is_up(dev, p) {
		return role[dev] == "leaf" && role[dev_of(peer[dev ":" p])] == "spine"
	}
	function emit(line) {
		if (!(line in seen)) {
			seen[line] = 1
			print line
		}
	}
	function list_add(name, ep) {
		if (!((name, ep) in listed)) {
			listed[name, ep] = 1
			lists[name] = lists[name] (lists[name] == "" ? "" : ", ") "\"" ep "\""
		}
	}
	# switch counters per platform: pause tx/rx on priority prio, ECN marks of class prio
	function sw_pause(dev, p, dir,   path) {
		if (plat[dev] == "nvue") {
			emit("sw " dev " " p ".pfc-stats." prio "." dir "-pause-frames 20000")
			emit("sw " dev " " p ".pfc-stats." prio "." dir "-pause-duration 300000")
		} else if (plat[dev] == "sonic") {
			emit("sw " dev " " p ".pfc." dir "." prio " 20000")
		} else {
			emit("sw " dev " " p ".pfc." dir "Frames 20000")
		}
		list_add(dir == "tx" ? "pause_tx" : "pause_rx", dev ":" p)
	}
	function sw_marks(dev, p) {
		if (plat[dev] == "nvue")
			emit("sw " dev " " p ".egress-queue-stats." prio ".ecn-marked-frames 50000")
		else if (plat[dev] == "eos")
			emit("sw " dev " " p ".ecn." prio " 50000")
		else if (plat[dev] == "sonic")
			emit("sw " dev " " p ".queue." prio ".ecn_marked_pkts 50000")
		list_add("marks", dev ":" p)
	}
	function nic(dev, p, name, rate) {
		emit("nic " dev " " p " " name " " rate)
	}
	# switch dev is congested towards its port e: it pauses the ports that feed e
	function congest(dev, e,   k, i, far, fd, fp) {
		if ((dev, e) in visited)
			return
		visited[dev, e] = 1
		for (k = 1; k <= nports[dev]; k++) {
			i = ports[dev, k]
			if (i == e || !((dev ":" i) in peer))
				continue
			if (is_up(dev, e) && is_up(dev, i))
				continue
			sw_pause(dev, i, "tx")
			far = peer[dev ":" i]
			fd = dev_of(far)
			fp = port_of(far)
			if (kind[fd] == "host") {
				nic(fd, fp, "rx_prio" prio "_pause", 20000)
				nic(fd, fp, "rx_prio" prio "_pause_duration", 300000)
				list_add("pause_rx", far)
				senders[far] = 1
			} else {
				sw_pause(fd, fp, "rx")
				congest(fd, fp)
			}
		}
	}
	END {
		rd = dev_of(root)
		rp = port_of(root)
		if (!(rd in kind))
			fail("no device " rd " in the topology")
		if (!(root in peer))
			fail(root " is not a linked port of the topology")
		if (storm == 1) {
			if (kind[rd] != "host")
				fail("--storm wants a host NIC (HOST:IF), " rd " is a switch")
			nic(rd, rp, "tx_prio" prio "_pause", 200000)
			nic(rd, rp, "tx_prio" prio "_pause_duration", 1000000)
			nic(rd, rp, "tx_pause_storm_warning_events", 1)
			list_add("pause_tx", root)
			far = peer[root]
			sw_pause(dev_of(far), port_of(far), "rx")
			congest(dev_of(far), port_of(far))
		} else {
			if (kind[rd] != "switch")
				fail("congestion is at a switch port (DEVICE:PORT), " rd " is a host (--storm?)")
			sw_marks(rd, rp)
			far = peer[root]
			fd = dev_of(far)
			if (kind[fd] == "host") {
				recv[far] = 1
			} else if (role[fd] == "leaf") {
				for (k = 1; k <= nports[fd]; k++)
					if (kind[dev_of(peer[fd ":" ports[fd, k]])] == "host")
						recv[peer[fd ":" ports[fd, k]]] = 1
			}
			for (r in recv) {
				nic(dev_of(r), port_of(r), "np_ecn_marked_roce_packets", 50000)
				list_add("marked_at", r)
				if (ecnoff != 1) {
					nic(dev_of(r), port_of(r), "np_cnp_sent", 10000)
					list_add("cnp_sent", r)
				}
			}
			congest(rd, rp)
			if (ecnoff != 1)
				for (s in senders) {
					nic(dev_of(s), port_of(s), "rp_cnp_handled", 1000)
					list_add("cnp_handled", s)
				}
		}
		printf "{\"root\": \"%s\", \"kind\": \"%s\", \"priority\": %d, \"ecn_off\": %s", \
			root, storm == 1 ? "storm" : "congestion", prio, ecnoff == 1 ? "true" : "false" >json
		n = split("pause_tx pause_rx marks marked_at cnp_sent cnp_handled", names, " ")
		for (i = 1; i <= n; i++)
			printf ", \"%s\": [%s]", names[i], lists[names[i]] >json
		print "}" >json
	}
	function fail(msg) {
		print "lab: congest: " msg >"/dev/stderr"
		failed = 1
		exit 1
	}
	' "$dir/topology"
}

congest_clear() {
	awk '$1 == "switch" { print $2 }' "$dir/topology" | while read -r sw; do
		"$SIMCTL" fault "$SWDIR" "$sw" rate clear >/dev/null ||
			die "congest: cannot clear the rates of '$sw'"
	done
	for f in "$RUN"/hosts/*/nics/*.rates; do
		[ -f "$f" ] || continue
		h=${f%/nics/*}
		h=${h##*/}
		i=${f##*/}
		i=${i%.rates}
		set --
		while read -r name _; do
			set -- "$@" "$name=0"
		done <"$f"
		[ $# -eq 0 ] || as_lab "$RUN/sim/build/sim/nic/nicsimctl" rate "$RUN/hosts/$h" "$i" "$@" ||
			die "congest: cannot clear the rates of '$h:$i'"
	done
	rm -f "$dir/congest.json"
}

cmd_congest() {
	[ $# -ge 2 ] || usage
	load_lab "$1"
	shift
	if [ "$1" = --clear ]; then
		[ $# -eq 1 ] || usage
		congest_clear
		return
	fi
	target=$1
	shift
	storm=0 ecnoff=0 prio=3
	while [ $# -gt 0 ]; do
		case $1 in
		--storm) storm=1 ;;
		--ecn-off) ecnoff=1 ;;
		--priority)
			[ $# -ge 2 ] || usage
			case $2 in [0-7]) prio=$2 ;; *) die "congest: --priority is 0 to 7" ;; esac
			shift
			;;
		*) usage ;;
		esac
		shift
	done
	case $target in *:*) ;; *) die "congest: want DEVICE:PORT, not '$target'" ;; esac
	case $target in *[!A-Za-z0-9:._/-]*) die "congest: bad DEVICE:PORT '$target'" ;; esac
	congest_plan "$target" "$storm" "$ecnoff" "$prio" "$dir/congest.json.tmp" >"$RUN/congest.plan" ||
		die "congest: no plan for '$target'"
	# one simctl call per switch, one nicsimctl call per NIC
	for sw in $(awk '$1 == "sw" { print $2 }' "$RUN/congest.plan" | sort -u); do
		# shellcheck disable=SC2046
		"$SIMCTL" fault "$SWDIR" "$sw" rate $(awk -v s="$sw" '$1 == "sw" && $2 == s { print $3 "=" $4 }' "$RUN/congest.plan") >/dev/null ||
			die "congest: cannot set the rates of '$sw'"
	done
	awk '$1 == "nic" { print $2, $3 }' "$RUN/congest.plan" | sort -u | while read -r h i; do
		# shellcheck disable=SC2046
		as_lab "$RUN/sim/build/sim/nic/nicsimctl" rate "$RUN/hosts/$h" "$i" \
			$(awk -v h="$h" -v i="$i" '$1 == "nic" && $2 == h && $3 == i { print $4 "=" $5 }' "$RUN/congest.plan") ||
			die "congest: cannot set the rates of '$h:$i'"
	done
	mv "$dir/congest.json.tmp" "$dir/congest.json"
	echo "lab: congest: $target ($(grep -c . "$RUN/congest.plan") counters moving; $dir/congest.json)"
}
