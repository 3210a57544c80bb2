#!/usr/bin/env python3
"""Runs a fetch-gallery job as N shards on Spark, one task per shard: a gallery, then its merge,
or a dataset, then its summary.

    python3 deploy/spark/launch.py --shards 64 -- run --api https://api.example.com/v1 --pages 20000 --out /shared/gallery
    spark-submit deploy/spark/launch.py --shards 64 -- run ...     # on the master spark-submit names
    spark-submit deploy/spark/launch.py --shards 64 -- dataset --url-list /shared/urls --output-folder /shared/dataset ...

The master is --address (a Spark master URL), spark-submit's, or local[N] with --cpus N. Each task
runs `fetch-gallery run|dataset --shard K/64 ...`; Spark runs a failed or killed shard again
(--retries, default 3: spark.task.maxFailures is one more), which resumes (a gallery from its
journal and partial files, a dataset from its finished shards); a usage error (exit 2) is not
retried. Each shard's progress is printed here, a line at a time. Every executor must see the
output folder (a shared filesystem, or a gallery's --out s3://) and have the binary
($FETCH_GALLERY or PATH).
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import launch_common as common  # noqa: E402
from pyspark import SparkConf  # noqa: E402
from pyspark.sql import SparkSession  # noqa: E402


def main():
    args = common.parse_arguments("spark")
    started = time.monotonic()
    tries = args.retries + 1
    builder = (SparkSession.builder.appName("fetch-gallery")
               .config("spark.task.maxFailures", str(tries))
               .config("spark.ui.showConsoleProgress", "false"))
    if args.cpus:  # in local mode the tries are part of the master: local[CPUS,TRIES]
        builder = builder.master(f"local[{args.cpus},{tries}]")
    elif args.address:
        builder = builder.master(args.address)
    elif not SparkConf().contains("spark.master"):
        builder = builder.master(f"local[*,{tries}]")
    spark = builder.getOrCreate()
    context = spark.sparkContext
    context.setLogLevel("ERROR")
    context.addPyFile(common.__file__)  # launch_common.py for the executors
    relay = common.Relay(args.shards)
    address = relay.address(context.getConf().get("spark.driver.host"))
    print(f"launch: Spark ready in {time.monotonic() - started:.1f} s", file=sys.stderr, flush=True)
    binary, command, cwd, count = args.binary, args.command, args.cwd, args.shards
    shards = context.parallelize(range(count), count)  # one partition, so one task, per shard
    try:
        statuses = dict(shards.map(lambda k: (k, common.run_shard(binary, command, cwd, k, count, address))).collect())
    except Exception as error:  # a shard failed on every try: Spark aborts the job
        reason = next((line for line in str(error).splitlines() if "ShardFailed" in line), str(error).splitlines()[0])
        print(f"launch: the Spark job failed: {reason.strip()}", file=sys.stderr)
        statuses = {k: relay.exits.get(k, -1) for k in range(count)}  # -1: no exit status seen
    status = common.finish(args, statuses, started)
    spark.stop()
    return status


if __name__ == "__main__":
    sys.exit(main())
