#!/usr/bin/env python3
"""A scripted, rate-limited DNS server for Scripts/bench-web (Python's standard library only).

    bench-web-dns.py --listen 127.0.0.153 --port 53 --zone ZONE.json --rate 200 --counts COUNTS.json

ZONE.json: {"name": ["a", "1.2.3.4"] | ["nxdomain"] | ["servfail"] | ["silent"]}; names not listed get
NXDOMAIN. At most --rate questions answered in any one-second window, the rest dropped (as a resolver that
refuses past N queries a second). On SIGTERM it writes COUNTS.json: questions per "name/type", answered,
dropped. Answers carry a TTL of 300 s and an SOA for negative ones.
"""
import argparse, heapq, json, select, signal, socket, struct, sys, time

p = argparse.ArgumentParser()
p.add_argument("--listen", default="127.0.0.153")
p.add_argument("--port", type=int, default=53)
p.add_argument("--zone", required=True)
p.add_argument("--rate", type=int, default=200)
p.add_argument("--counts", required=True)
p.add_argument("--delay-ms", type=float, default=0, help="answer each question this late (a resolver far away)")
a = p.parse_args()
zone = {k.lower(): v for k, v in json.load(open(a.zone)).items()}
counts, answered, dropped = {}, 0, 0
window = [0.0, 0]


def finish(*_):
    json.dump({"questions": counts, "answered": answered, "dropped": dropped}, open(a.counts, "w"))
    sys.exit(0)


signal.signal(signal.SIGTERM, finish)


def name_bytes(name):
    return b"".join(bytes([len(l)]) + l.encode() for l in name.split(".") if l) + b"\0"


def record(owner, rtype, data, ttl=300):
    return name_bytes(owner) + struct.pack(">HHIH", rtype, 1, ttl, len(data)) + data


def soa(owner):
    data = name_bytes("ns.test") + name_bytes("hostmaster.test") + struct.pack(">IIIII", 1, 3600, 600, 86400, 300)
    return record(owner.split(".", 1)[-1] or owner, 6, data)


s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
s.bind((a.listen, a.port))
# Answers held back by --delay-ms: (due, sequence, bytes, peer).
pending, sequence = [], 0
while True:
    if pending:
        ready, _, _ = select.select([s], [], [], max(0.0, pending[0][0] - time.monotonic()))
        now = time.monotonic()
        while pending and pending[0][0] <= now:
            _, _, reply, to = heapq.heappop(pending)
            s.sendto(reply, to)
        if not ready:
            continue
    packet, peer = s.recvfrom(2048)
    if len(packet) < 17 or packet[2] & 0x80:
        continue
    qid, flags, qd = struct.unpack(">HHH", packet[:6])
    at, labels = 12, []
    while at < len(packet) and packet[at] != 0:
        n = packet[at]
        labels.append(packet[at + 1:at + 1 + n].decode(errors="replace").lower())
        at += 1 + n
    qname, qtype = ".".join(labels), struct.unpack(">H", packet[at + 1:at + 3])[0]
    question = packet[12:at + 5]
    key = f"{qname}/{qtype}"
    counts[key] = counts.get(key, 0) + 1
    now = time.monotonic()
    if now - window[0] >= 1:
        window[0], window[1] = now, 0
    if window[1] >= a.rate:
        dropped += 1
        continue
    window[1] += 1
    behaviour = zone.get(qname, ["nxdomain"])
    rcode, answers, authority = 0, [], []
    if behaviour[0] == "silent":
        continue
    if behaviour[0] == "nxdomain":
        rcode, authority = 3, [soa(qname)]
    elif behaviour[0] == "servfail":
        rcode = 2
    elif qtype == 1:
        answers = [record(qname, 1, socket.inet_aton(behaviour[1]))]
    else:
        authority = [soa(qname)]
    answered += 1
    header = struct.pack(">HHHHHH", qid, 0x8080 | (flags & 0x0100) | rcode, 1, len(answers), len(authority), 0)
    reply = header + question + b"".join(answers) + b"".join(authority)
    if a.delay_ms > 0:
        sequence += 1
        heapq.heappush(pending, (now + a.delay_ms / 1000, sequence, reply, peer))
    else:
        s.sendto(reply, peer)
