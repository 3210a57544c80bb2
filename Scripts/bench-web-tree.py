#!/usr/bin/env python3
"""Scripts/bench-web's web as a DNS tree for `--dns recursive`: WORK/zone.json's names (hostI.web.test) as
hostI.web.zz in zone files and nsd configurations for a root (127.0.54.1), the TLD zz (127.0.54.2) and the
zone web.zz (127.0.54.3), plus WORK/root.hints. Names that resolve get their A record; NXDOMAIN names are
absent; SERVFAIL and silent names are CNAMEs into dead.web.zz, delegated to 127.0.54.9 where nothing answers.

    python3 Scripts/bench-web-tree.py WORK
"""
import json
import os
import sys

work = sys.argv[1]
zone = json.load(open(f"{work}/zone.json"))
soa = "$TTL 3600\n{0} IN SOA a.root-servers.zz. admin.zz. 1 3600 600 86400 3600\n"
levels = {
    "root": (".", "127.0.54.1", soa.format(".") + ". IN NS a.root-servers.zz.\na.root-servers.zz. IN A 127.0.54.1\n"
             "zz. IN NS ns.zz.\nns.zz. IN A 127.0.54.2\n"),
    "tld": ("zz", "127.0.54.2", soa.format("zz.") + "zz. IN NS ns.zz.\nns.zz. IN A 127.0.54.2\n"
            "web.zz. IN NS ns.web.zz.\nns.web.zz. IN A 127.0.54.3\n"),
}
lines = [soa.format("web.zz.").rstrip("\n"), "web.zz. IN NS ns.web.zz.", "ns.web.zz. IN A 127.0.54.3",
         "dead.web.zz. IN NS ns.dead.web.zz.", "ns.dead.web.zz. IN A 127.0.54.9"]
for name, (kind, *rest) in zone.items():
    host = name.replace(".web.test", "")
    if kind == "a":
        lines.append(f"{host}.web.zz. IN A {rest[0]}")
    elif kind in ("servfail", "silent"):
        lines.append(f"{host}.web.zz. IN CNAME {host}.dead.web.zz.")
levels["zone"] = ("web.zz", "127.0.54.3", "\n".join(lines) + "\n")
for level, (origin, address, text) in levels.items():
    folder = f"{work}/nsd-{level}"
    os.makedirs(folder, exist_ok=True)
    with open(f"{folder}/zone", "w") as f:
        f.write(text)
    with open(f"{folder}/nsd.conf", "w") as f:
        f.write(f"""server:
  ip-address: {address}
  port: 53
  database: ""
  zonesdir: "{folder}"
  pidfile: "{folder}/nsd.pid"
  xfrdfile: "{folder}/xfrd.state"
  zonelistfile: "{folder}/zone.list"
  logfile: "{folder}/nsd.log"
  username: ""
  server-count: 1
  rrl-ratelimit: 0
remote-control:
  control-enable: no
zone:
  name: "{origin}"
  zonefile: "zone"
""")
with open(f"{work}/root.hints", "w") as f:
    f.write(". 3600000 NS A.ROOT-SERVERS.ZZ.\nA.ROOT-SERVERS.ZZ. 3600000 A 127.0.54.1\n")
