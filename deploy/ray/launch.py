#!/usr/bin/env python3
"""Runs a fetch-gallery job as N shards on Ray, one task per shard: a gallery, then its merge,
or a dataset, then its summary.

    python3 deploy/ray/launch.py --shards 64 -- run --api https://api.example.com/v1 --pages 20000 --out /shared/gallery
    python3 deploy/ray/launch.py --shards 64 -- dataset --url-list /shared/urls --output-folder /shared/dataset ...

It joins the cluster of RAY_ADDRESS or --address (or a local one it starts: --cpus N). Each task
runs `fetch-gallery run|dataset --shard K/64 ...` on one CPU; Ray runs a failed or killed shard
again (--retries, default 3), which resumes (a gallery from its journal and partial files, a
dataset from its finished shards); a usage error (exit 2) is not retried. Each shard's progress
is printed here, a line at a time. Every node must see the output folder (a shared filesystem,
or a gallery's --out s3://) and have the binary ($FETCH_GALLERY or PATH).
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import launch_common as common  # noqa: E402
import ray  # noqa: E402


def main():
    args = common.parse_arguments("ray")
    started = time.monotonic()
    # The working_dir ships deploy/ (launch_common.py) to every worker; the shards run in our folder.
    runtime_env = {"working_dir": os.path.dirname(os.path.abspath(common.__file__))}
    placement = {"num_cpus": args.cpus} if args.cpus else {"address": args.address}
    ray.init(runtime_env=runtime_env, logging_level="warning", **placement)
    relay = common.Relay(args.shards)
    shard = ray.remote(common.run_shard).options(
        num_cpus=1, max_retries=args.retries, retry_exceptions=[common.ShardFailed])
    print(f"launch: Ray ready in {time.monotonic() - started:.1f} s", file=sys.stderr, flush=True)
    pending = {shard.remote(args.binary, args.command, args.cwd, k, args.shards,
                            relay.address(ray.util.get_node_ip_address())): k
               for k in range(args.shards)}
    statuses = {}
    while pending:
        [ready], _ = ray.wait(list(pending), num_returns=1)
        index = pending.pop(ready)
        try:
            statuses[index] = ray.get(ready)
        except common.ShardFailed as failure:  # Ray's error is also an instance of the task's exception
            statuses[index] = failure.status
        except ray.exceptions.RayError as error:  # the worker itself died on every try, or its node
            print(f"launch: shard {index}/{args.shards}: {str(error).splitlines()[0]}", file=sys.stderr)
            statuses[index] = -1
        if statuses[index] == common.USAGE_ERROR:  # the same on every shard: stop the rest
            for task in pending:
                ray.cancel(task, force=True)
            break
    status = common.finish(args, statuses, started)
    ray.shutdown()
    return status


if __name__ == "__main__":
    sys.exit(main())
