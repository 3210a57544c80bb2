#!/usr/bin/env python3
"""Runs a command and reports the CPU time of each of its threads, by thread name.

Usage: thread-cpu.py REPORT.json [--log FILE] -- COMMAND [ARGS...]

With --log, the command's standard output and error go to FILE (the table alone to standard error).

Every 50 ms the threads under /proc/PID/task are read (name from `comm`, user + system ticks from
`stat`); the last value seen for each thread counts (a thread that ends keeps its last sample, so at
most ~50 ms of its time is missed). The process's own CPU (user + system, every thread) comes from
wait4's rusage, exactly. The report (JSON, and a table on stderr) gives each thread's seconds and its
share of the process's CPU, the names grouped ("fg-work-3" -> "fg-work-*"), and the busiest single
thread that is not a decode/scale worker ("fg-work-*"): the serial part. The bound it implies is the
process's CPU over that thread's CPU: how many cores one process could ever keep busy if that
thread's work stays serial.

The command's exit status is this script's exit status.
"""
import json
import os
import re
import subprocess
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")
WORKER = re.compile(r"^fg-work-\d+$")


def read_threads(pid, seen):
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/stat", "rb") as f:
                raw = f.read().decode("utf-8", "replace")
        except OSError:
            continue
        # comm is in parentheses and may hold spaces or parentheses: split at the last ')'.
        name = raw[raw.index("(") + 1 : raw.rindex(")")]
        fields = raw[raw.rindex(")") + 2 :].split()
        ticks = int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
        seen[tid] = (name, ticks)


def group(name):
    return re.sub(r"-\d+$", "-*", name)


def main():
    args = sys.argv[1:]
    log = None
    if len(args) >= 3 and args[1] == "--log":
        log = open(args[2], "wb")
        del args[1:3]
    if len(args) < 3 or args[1] != "--":
        sys.exit(__doc__)
    report_path, command = args[0], args[2:]
    started = time.monotonic()
    child = subprocess.Popen(command, stdout=log, stderr=log)
    seen = {}
    while True:
        read_threads(child.pid, seen)
        # WNOHANG|WNOWAIT is not offered by wait4; poll the state instead, then reap.
        done, status, usage = os.wait4(child.pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.05)
    wall = time.monotonic() - started
    code = os.waitstatus_to_exitcode(status)
    process_cpu = usage.ru_utime + usage.ru_stime
    threads = sorted(((tid, n, t / TICK) for tid, (n, t) in seen.items()), key=lambda x: -x[2])
    groups = {}
    for _, name, secs in threads:
        g = groups.setdefault(group(name), {"threads": 0, "cpu_s": 0.0, "busiest_s": 0.0})
        g["threads"] += 1
        g["cpu_s"] += secs
        g["busiest_s"] = max(g["busiest_s"], secs)
    serial = [(n, s) for _, n, s in threads if not WORKER.match(n)]
    busiest_name, busiest_s = serial[0] if serial else ("-", 0.0)
    share = lambda s: s / process_cpu if process_cpu > 0 else 0.0
    report = {
        "command": command,
        "exit": code,
        "wall_s": wall,
        "process_cpu_s": process_cpu,
        "user_s": usage.ru_utime,
        "system_s": usage.ru_stime,
        "max_rss_kb": usage.ru_maxrss,
        "groups": {k: dict(v, share=share(v["cpu_s"])) for k, v in groups.items()},
        "busiest_serial_thread": {"name": busiest_name, "cpu_s": busiest_s, "share": share(busiest_s)},
        "bound_cores": process_cpu / busiest_s if busiest_s > 0 else None,
    }
    with open(report_path, "w") as f:
        json.dump(report, f, indent=1)
    print(f"  {'thread (group)':<32} {'n':>3} {'CPU s':>8} {'share':>7} {'busiest one':>12}", file=sys.stderr)
    for name, g in sorted(groups.items(), key=lambda kv: -kv[1]["cpu_s"]):
        print(f"  {name:<32} {g['threads']:>3} {g['cpu_s']:>8.2f} {share(g['cpu_s']):>6.1%} "
              f"{share(g['busiest_s']):>11.1%}", file=sys.stderr)
    print(f"  busiest non-worker thread: {busiest_name} {share(busiest_s):.1%} of {process_cpu:.2f} CPU-s; "
          f"bound {report['bound_cores'] or 0:.1f} cores", file=sys.stderr)
    sys.exit(code)


if __name__ == "__main__":
    main()
