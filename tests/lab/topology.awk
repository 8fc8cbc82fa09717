# topology.awk: the fabric `lab up` builds, written as the files that describe it.
# POSIX awk (Debian's mawk); run with no input (BEGIN only).  Variables (-v):
#   hosts, leaves, spines, nics, uplinks   the shape (checked by the caller)
#   platforms   comma-separated (nvue, sonic, eos), round-robin over leaves then spines
#   nvue_model, sonic_model, eos_model   simctl model per platform (400G ports)
#   mtu         host NIC MTU
#   maxports    ports per simulated switch by platform, "nvue=64,sonic=128,eos=64"
#               (swp1.., Ethernet0,4.. on SONiC, Ethernet1.. on EOS)
#   dir         the lab directory (absolute, safe characters only)
#   user        the SSH login of every lab device
#   hostport    the hosts' sshd port; restport the switches' REST port
#   sshports    the switches' SSH port by platform, "nvue=22,sonic=2022,eos=2023" (lab up
#               --mux: a server per platform); empty: 22 for every switch
#   plan        directory for the files `lab up` reads back
# Writes: dir/topology, dir/inventory.yaml, dir/inventory-rest.yaml, dir/ssh_config,
# plan/switches (simctl --switch specs), plan/hosts (NAME ADDR), plan/nicsim (nicsimctl init
# arguments per host, the host directory relative to the run directory).
# Exits 1 with a message on stderr when a switch would need more ports than it has.

function pad(n, w,   s) {
	s = n ""
	while (length(s) < w)
		s = "0" s
	return s
}

function width(n, min,   w) {
	w = length(n "")
	return w < min ? min : w
}

# 250 addresses per /24 so that no address ends in .0 or .255
function addr(prefix, i) {
	return prefix "." int(i / 250) "." (i % 250 + 1)
}

# Port p (1-based) of switch s in its platform's naming: SONiC numbers ports by their first
# lane (Ethernet0, Ethernet4, ...), EOS from Ethernet1, NVUE from swp1.
function pname(s, p) {
	if (splat[s] == "sonic")
		return "Ethernet" (p - 1) * 4
	if (splat[s] == "eos")
		return "Ethernet" p
	return "swp" p
}

function portlist(s,   p, list) {
	if (splat[s] == "eos")
		return "Ethernet1-" nports[s]
	if (splat[s] == "nvue")
		return "swp1-" nports[s]
	for (p = 1; p <= nports[s]; p++)
		list = list (p > 1 ? ", " : "") pname(s, p)
	return list
}

function smodel(s) {
	return splat[s] == "sonic" ? sonic_model : splat[s] == "eos" ? eos_model : nvue_model
}

function sshport(s) {
	return (splat[s] in swport) ? swport[splat[s]] : 22
}

function cred(name, transport, port) {
	if (transport == "ssh")
		return "    credentials: {user: " user ", identity_file: \"" dir "/id_ed25519\"}\n" \
		       "    ssh: {port: " port ", known_hosts: \"" dir "/known_hosts\"}"
	return "    credentials: {user: " user ", password_file: \"" dir "/switchsim/secrets/" name "\"}\n" \
	       "    rest: {port: " restport ", ca_file: \"" dir "/ca.pem\"}"
}

function inventory(file, transport,   h, i, s, list) {
	print "# Written by tests/lab/lab up: " hosts " hosts (" nics " NICs each), " leaves \
	      " leaves, " spines " spines; switches over " transport "." >file
	print "apiVersion: rocectl/v1" >file
	print "kind: Inventory" >file
	print "hosts:" >file
	for (h = 0; h < hosts; h++) {
		list = ""
		for (i = 0; i < nics; i++)
			list = list (i ? ", " : "") nic[i]
		print "  - name: " hname[h] >file
		print "    address: " haddr[h] >file
		print "    transport: ssh" >file
		print "    interfaces: [" list "]" >file
		print "    credentials: {user: " user ", identity_file: \"" dir "/id_ed25519\"}" >file
		print "    ssh: {port: " hostport ", known_hosts: \"" dir "/known_hosts\"}" >file
	}
	if (hosts == 0)
		print "  []" >file
	print "switches:" >file
	for (s = 0; s < nsw; s++) {
		# SONiC has no REST API here: it stays on SSH in both inventories
		t = splat[s] == "sonic" ? "ssh" : transport
		print "  - name: " sname[s] >file
		print "    address: " saddr[s] >file
		print "    platform: " splat[s] >file
		print "    role: " srole[s] >file
		print "    transport: " t >file
		print "    ports: [" portlist(s) "]" >file
		print cred(sname[s], t, sshport(s)) >file
	}
	print "links:" >file
	for (i = 0; i < nlinks; i++)
		print "  - {a: \"" la[i] "\", b: \"" lb[i] "\", speed: 400G, cable_length: " \
		      lcable[i] "}" >file
	close(file)
}

function link(a, b, cable) {
	la[nlinks] = a
	lb[nlinks] = b
	lcable[nlinks] = cable
	nlinks++
}

BEGIN {
	nm = split(sshports, mp, ",")
	for (i = 1; i <= nm; i++) {
		split(mp[i], kv, "=")
		swport[kv[1]] = kv[2] + 0
	}
	nm = split(maxports, mp, ",")
	for (i = 1; i <= nm; i++) {
		split(mp[i], kv, "=")
		maxp[kv[1]] = kv[2] + 0
	}
	np = split(platforms, plat, ",")
	nsw = leaves + spines
	nlinks = 0
	for (i = 0; i < nics; i++)
		nic[i] = "enp" (12 + i) "s0np0"
	for (h = 0; h < hosts; h++) {
		hname[h] = "gpu" pad(h + 1, width(hosts, 3))
		haddr[h] = addr("127.2", h)
	}
	for (s = 0; s < nsw; s++) {
		if (s < leaves) {
			sname[s] = "leaf" pad(s + 1, width(leaves, 2))
			saddr[s] = addr("127.1", s)
			srole[s] = "leaf"
		} else {
			sname[s] = "spine" pad(s - leaves + 1, width(spines, 2))
			saddr[s] = addr("127.1", 25000 + s - leaves)
			srole[s] = "spine"
		}
		splat[s] = plat[s % np + 1]
		nports[s] = 0
	}
	# host-facing ports first, in host order: NIC i of host h -> leaf (h + i) mod L
	for (h = 0; h < hosts; h++)
		for (i = 0; i < nics; i++) {
			s = (h + i) % leaves
			link(hname[h] ":" nic[i], sname[s] ":" pname(s, ++nports[s]), "3m")
		}
	# then uplinks: leaf j -> spines (j*U + u) mod S, u < U (every spine when U = S)
	for (j = 0; j < leaves && spines > 0; j++)
		for (u = 0; u < uplinks; u++) {
			k = leaves + (j * uplinks + u) % spines
			a = sname[j] ":" pname(j, ++nports[j])
			link(a, sname[k] ":" pname(k, ++nports[k]), "30m")
		}
	bad = 0
	for (s = 0; s < nsw; s++) {
		if (nports[s] > maxp[splat[s]])
			msg = sprintf("%s needs %d ports, a simulated switch has %d (use more leaves, or fewer spines or --uplinks)",
			    sname[s], nports[s], maxp[splat[s]])
		else if (nports[s] == 0)
			msg = sprintf("%s would have no links (use fewer switches, or more hosts or --uplinks)",
			    sname[s])
		else
			continue
		if (++bad <= 3)
			print "lab: " msg >"/dev/stderr"
	}
	if (bad > 3)
		printf "lab: ... and %d more switches like that\n", bad - 3 >"/dev/stderr"
	if (bad)
		exit 1

	for (s = 0; s < nsw; s++)
		print sname[s] "=" saddr[s] ":" splat[s] ":" smodel(s) >(plan "/switches")
	for (h = 0; h < hosts; h++) {
		print hname[h], haddr[h] >(plan "/hosts")
		line = "hosts/" hname[h] (("," hostfeatures ",") ~ /,ofed,/ ? " --ofed" : "")
		for (i = 0; i < nics; i++)
			line = line " --nic " nic[i] ",rdma=mlx5_" i ",speed=400G,mtu=" mtu ",ip=" \
			       addr("10." (10 + i), h) \
			       ((("," hostfeatures ",") ~ /,debugfs,/) ? ",debugfs" : "")
		print line >(plan "/nicsim")
	}

	t = dir "/topology"
	for (h = 0; h < hosts; h++) {
		line = "host " hname[h] " " haddr[h]
		for (i = 0; i < nics; i++)
			line = line " " nic[i]
		print line >t
	}
	for (s = 0; s < nsw; s++) {
		line = "switch " sname[s] " " saddr[s] " " srole[s] " " splat[s] " " smodel(s)
		for (p = 1; p <= nports[s]; p++)
			line = line " " pname(s, p)
		print line >t
	}
	for (i = 0; i < nlinks; i++)
		print "link " la[i] " " lb[i] " 400G " lcable[i] >t
	close(t)

	inventory(dir "/inventory.yaml", "ssh")
	inventory(dir "/inventory-rest.yaml", "rest")

	c = dir "/ssh_config"
	print "# Written by tests/lab/lab up.  Log in to any lab device with the real OpenSSH client:" >c
	print "#   lab exec " dir " -- ssh -F " dir "/ssh_config gpu001 'dcb pfc show dev enp12s0np0'" >c
	for (s = 0; s < nsw; s++)
		print "Host " sname[s] "\n    HostName " saddr[s] \
		      (sshport(s) != 22 ? "\n    Port " sshport(s) : "") >c
	for (h = 0; h < hosts; h++)
		print "Host " hname[h] "\n    HostName " haddr[h] "\n    Port " hostport >c
	print "Host 127.2.*\n    Port " hostport >c
	print "Host *" >c
	print "    User " user >c
	print "    Port 22" >c
	print "    IdentityFile " dir "/id_ed25519" >c
	print "    IdentitiesOnly yes" >c
	print "    UserKnownHostsFile " dir "/known_hosts" >c
	print "    GlobalKnownHostsFile /dev/null" >c
	print "    StrictHostKeyChecking yes" >c
	print "    CheckHostIP no" >c
	print "    HostKeyAlgorithms ssh-ed25519" >c
	print "    KexAlgorithms curve25519-sha256" >c
	print "    PreferredAuthentications publickey" >c
	print "    BatchMode yes" >c
	print "    ConnectTimeout 10" >c
	print "    LogLevel ERROR" >c
	close(c)
}
