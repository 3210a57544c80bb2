"""What deploy/ray/launch.py and deploy/spark/launch.py share.

The engine places, retries and runs the tasks; each task is one shard, `fetch-gallery run|dataset
--shard K/N ...` as a subprocess, which resumes when it is run again (a gallery from its journal and
partial files, a dataset by skipping the dataset shards whose _stats.json is written). Each shard's
progress comes back to the driver over a TCP connection, one line at a time. The child dies with
the task: a worker killed by the engine (or the OOM killer) leaves no fetch-gallery running on.
"""
import argparse
import ctypes
import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

USAGE_ERROR = 2  # fetch-gallery's exit status for a usage error: it would fail the same way on every try
COMMANDS = ("run", "dataset")
PR_SET_PDEATHSIG = 1  # linux/prctl.h


class ShardFailed(Exception):
    """A shard exited non-zero (other than a usage error) or was killed: the engine runs it again."""

    def __init__(self, message, status):
        super().__init__(message, status)  # both in args, so the engine can pickle it back to the driver
        self.status = status

    def __str__(self):
        return self.args[0]


def parse_arguments(engine):
    parser = argparse.ArgumentParser(
        prog=f"deploy/{engine}/launch.py",
        usage="%(prog)s --shards N [options] -- run|dataset [that command's arguments]",
        description=f"Run a fetch-gallery job as N shards on {engine.capitalize()}, one task per shard: "
                    "`run` then merges the gallery, `dataset` prints the summary of the shards' _stats.json. "
                    "The binary is $FETCH_GALLERY, or fetch-gallery on PATH.")
    parser.add_argument("--shards", type=int, required=True, metavar="N", help="shard count (tasks)")
    parser.add_argument("--retries", type=int, default=3, help="tries after the first of a failed shard (default 3)")
    parser.add_argument("--cpus", type=int, help="start a local engine with this many CPUs instead of joining a cluster")
    parser.add_argument("--address", help="the cluster to join (Ray address, Spark master URL)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then fetch-gallery's command and arguments")
    args = parser.parse_args()
    args.command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if args.command[:1] not in ([c] for c in COMMANDS):
        parser.error("give the fetch-gallery command after --: run or dataset, then its arguments")
    names = option_names(args.command)
    if names & {"--shard", "--shard-from-env", "--shards"}:
        parser.error("the launcher gives each task its --shard K/N; leave --shard and --shard-from-env out")
    if args.command[0] == "dataset" and option_value(args.command, "--incremental-mode", "incremental") != "incremental":
        parser.error("a dataset's tasks start at different times and are run again: --incremental-mode overwrite would "
                     "delete other tasks' shards and extend would number each task's differently; empty the folder or "
                     "name a new one, and leave the mode incremental")
    if not 1 <= args.shards <= 100_000:
        parser.error(f"--shards must be between 1 and 100000 (got {args.shards})")
    args.binary = os.environ.get("FETCH_GALLERY") or shutil.which("fetch-gallery")
    if not args.binary:
        parser.error("fetch-gallery not found: put it on PATH or name it in FETCH_GALLERY")
    if not names & {"--progress", "--quiet", "-q"}:
        args.command += ["--progress", "json"]
    args.cwd = os.getcwd()
    return args


def option_name(argument):
    """An option's name as fetch-gallery reads it (`dataset` takes img2dataset's underscores too), or None."""
    if not argument.startswith("-") or argument == "-":
        return None
    name = argument.split("=", 1)[0]
    return "--" + name[2:].replace("_", "-") if name.startswith("--") else name


def option_names(command):
    return {name for name in map(option_name, command[1:]) if name}


def option_value(command, name, default):
    """The value given to option `name` (`--name VALUE` or `--name=VALUE`; the last one counts)."""
    value = default
    for i, argument in enumerate(command):
        if option_name(argument) == name:
            if "=" in argument:
                value = argument.split("=", 1)[1]
            elif i + 1 < len(command):
                value = command[i + 1]
    return value


def run_shard(binary, command, cwd, index, count, relay):
    """Runs shard index of count, relaying its progress; returns 0, or 2 for a usage error; raises
    ShardFailed on any other exit (or a kill) for the engine to retry."""
    shard = f"{index}/{count}"
    try:
        link, lock = socket.create_connection(relay, timeout=30), threading.Lock()
        link.settimeout(None)

        def send(text):  # from two threads (the child's stdout and stderr): a line at a time
            with lock:
                link.sendall(f"{index}\t{text}\n".encode())
    except OSError as error:  # the driver cannot be reached: the task's own log has the lines
        link, send = None, lambda text: print(f"shard {shard}: {text}", file=sys.stderr, flush=True)
        send(f"cannot reach the driver at {relay}: {error}")
    send("started")
    try:
        child = subprocess.Popen([binary, *command, "--shard", shard], cwd=cwd if os.path.isdir(cwd) else None,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace",
                                 start_new_session=True, preexec_fn=dies_with_parent(os.getpid()))
    except OSError as error:  # not on this node, or being replaced: maybe not on the next try
        send(f"cannot run {binary}: {error}")
        raise ShardFailed(f"shard {shard}: cannot run {binary}: {error}", 127) from None
    last_lines = []

    def relay_stderr():
        for line in child.stderr:
            last_lines[:] = (last_lines + [line.rstrip()])[-3:]
            send(line.rstrip())
    errors = threading.Thread(target=relay_stderr)
    errors.start()
    for line in child.stdout:
        text = progress_line(line)
        if text:
            send(text)
    errors.join()
    status = child.wait()
    send(f"exited {status}")
    if link:
        link.close()
    if status not in (0, USAGE_ERROR):
        raise ShardFailed(f"shard {shard} exited {status}: {' | '.join(last_lines) or 'no output'}", status)
    return status


def dies_with_parent(parent):
    """For Popen's preexec_fn: the child gets SIGKILL when the task's process dies (PR_SET_PDEATHSIG), so
    a worker killed (a lost node's tasks, a cancelled job, the OOM killer) does not leave its shard
    running beside the try that replaces it. Only a C call between fork and exec. The child runs in a
    session of its own: the engines' signals to a worker's process group (Ray's kill of a dead worker's
    group, Spark's daemon's SIGHUP, a terminal's Ctrl-C in local mode) reach it only as its task's end."""
    prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up before the fork

    def set_death_signal():
        if prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0 or os.getppid() != parent:
            os._exit(127)  # no death signal, or the task died before it was set: run nothing
    return set_death_signal


def progress_line(line):
    """One line of `--progress json` as text: the once-a-second progress and the end; other events none."""
    try:
        event = json.loads(line)
    except ValueError:
        return line.rstrip()  # --progress plain or a message: as it is
    if event.get("event") == "shard":  # `dataset`: one of its dataset shards is written
        return f"wrote {event['name']}: {event['successes']} of {event['rows']} rows success"
    if event.get("event") not in ("progress", "done"):
        return None
    unit = next((u for u in ("photos", "rows", "files") if u + "_total" in event), "files")
    return (f"{event['event']}: {event[unit + '_done']}/{event[unit + '_total']} {unit}, {event['failed']} failed, "
            f"{event['bytes'] / 1e6:.1f} MB ({event['bytes_resumed'] / 1e6:.1f} MB resumed), {event['elapsed']:.0f} s")


class Relay:
    """The driver's end: prints each line a shard sends as `shard K/N: ...`, counts each shard's tries
    and keeps its last exit status."""

    def __init__(self, count):
        self.count, self.tries, self.exits, self.lock = count, {}, {}, threading.Lock()
        self.server = socket.create_server(("", 0))
        threading.Thread(target=self.accept, daemon=True).start()

    def address(self, host):
        return host, self.server.getsockname()[1]

    def accept(self):
        while True:
            connection, _ = self.server.accept()
            threading.Thread(target=self.read, args=(connection,), daemon=True).start()

    def read(self, connection):
        with connection, connection.makefile(encoding="utf-8", errors="replace") as lines:
            for line in lines:
                index, _, text = line.rstrip("\n").partition("\t")
                with self.lock:
                    if text.startswith("exited "):
                        self.exits[int(index)] = int(text.split()[1])
                    if text == "started":
                        self.tries[index] = self.tries.get(index, 0) + 1
                        text = f"started (try {self.tries[index]})"
                    print(f"shard {index}/{self.count}: {text}", flush=True)


def finish(args, statuses, started):
    """After every task: the merge (`run`, when every shard succeeded) or the dataset's summary; the
    launcher's exit status."""
    took = time.monotonic() - started
    failed = {k: s for k, s in statuses.items() if s != 0}
    if any(s == USAGE_ERROR for s in failed.values()):
        print(f"launch: usage error (exit 2); nothing was retried", file=sys.stderr)
        return USAGE_ERROR
    if args.command[0] == "dataset":
        print_dataset_summary(option_value(args.command, "--output-folder", "images"), args.cwd)
    if failed:
        names = ", ".join(f"{k}/{args.shards} ({s})" for k, s in sorted(failed.items()))
        print(f"launch: shards failed after {args.retries + 1} tries: {names}; run the launcher again "
              "(finished shards have nothing left to do) or those shards alone with --shard K/N", file=sys.stderr)
        return 1
    print(f"launch: {args.shards} shards done in {took:.1f} s", file=sys.stderr, flush=True)
    if args.command[0] == "dataset":
        return 0  # a dataset's shards are its files: nothing to merge
    merge = [args.binary, "merge", output_folder(args.command), "--shards", str(args.shards)] + merge_options(args)
    return subprocess.run(merge, cwd=args.cwd).returncode


def print_dataset_summary(folder, cwd):
    """The dataset's counts from every shard's NNNNN_stats.json (img2dataset's keys), as img2dataset's
    total line gives them, and its most frequent errors."""
    if "://" in folder:
        # A bucket is not read from here (the driver may have no credentials for it): say where the counts are.
        print(f"launch: dataset {folder}: each shard's counts are in its NNNNN_stats.json there, uploaded last; "
              "this summary reads only a local folder", file=sys.stderr)
        return
    totals, statuses, start, end, shards = dict.fromkeys(STATS_COUNTS, 0), {}, None, None, 0
    for path in sorted(glob.glob(os.path.join(cwd, folder, "*_stats.json"))):
        if not os.path.basename(path).split("_")[0].isdigit():
            continue
        try:
            with open(path, encoding="utf-8") as file:
                stats = json.load(file)
            for key in totals:
                totals[key] += int(stats.get(key, 0))
            for status, count in stats.get("status_dict", {}).items():
                statuses[status] = statuses.get(status, 0) + count
            start = min(start or stats["start_time"], stats["start_time"])
            end = max(end or stats["end_time"], stats["end_time"])
            shards += 1
        except (OSError, ValueError, KeyError, TypeError) as error:
            print(f"launch: {path}: not a shard's stats ({error}); left out of the summary", file=sys.stderr)
    count = totals["count"]
    if not count:
        print(f"launch: dataset {folder}: no shard's _stats.json yet", file=sys.stderr)
        return
    parts = [f"{totals[key]} {name} ({totals[key] / count:.3f})" for key, name in STATS_COUNTS.items()
             if key != "count" and (totals[key] or key != "opted_out")]
    rate = count / (end - start) if end > start else 0
    print(f"launch: dataset {folder}: {shards} shards, {count} rows: {', '.join(parts)}; {rate:.0f} rows/s",
          file=sys.stderr)
    errors = sorted(((n, s) for s, n in statuses.items() if s != "success"), key=lambda e: (-e[0], e[1]))[:5]
    if errors:
        print("launch: most frequent errors: " + "; ".join(f"{s} ({n})" for n, s in errors), file=sys.stderr)
    sys.stderr.flush()


STATS_COUNTS = {"count": "rows", "successes": "success", "failed_to_download": "failed_to_download",
                "failed_to_resize": "failed_to_resize", "opted_out": "opted_out"}


def output_folder(command):
    for i, arg in enumerate(command):
        if arg in ("--out", "-o") and i + 1 < len(command):
            return command[i + 1]
        if arg.startswith("--out="):
            return arg[len("--out="):]
    return "gallery"  # fetch-gallery's default


def merge_options(args):
    """The run's options that `merge` takes too (--format, --display-size, the S3 store's...), so the
    merge writes the pages the run would have: the two commands' options from their own help."""
    def options(command):
        dump = subprocess.run([args.binary, command, "--experimental-dump-help"], capture_output=True, text=True, check=True)
        found = {}
        for argument in json.loads(dump.stdout)["command"].get("arguments", []):
            for name in argument.get("names", []):
                if name["kind"] == "long" and argument["kind"] != "positional":
                    found["--" + name["name"]] = argument["kind"] == "option"
        return found
    run, merge = options("run"), options("merge")
    forwarded, i = [], 1
    while i < len(args.command):
        name = args.command[i].split("=", 1)[0]
        takes_value = run.get(name, False) and "=" not in args.command[i]
        if name in merge and name not in ("--shards", "--progress"):
            forwarded += args.command[i:i + 2] if takes_value else [args.command[i]]
        i += 2 if takes_value else 1
    return forwarded
