#!/bin/bash
# One shard of a fetch-gallery job per task of a Slurm job array, all into one gallery folder on a
# shared filesystem. Slurm gives the shard (SLURM_ARRAY_TASK_ID of SLURM_ARRAY_TASK_COUNT): no
# arithmetic here. Arguments are those of `fetch-gallery run` (--api or --urls, --pages, --out, ...).
#
#   sbatch --array=0-63%16 deploy/slurm/shards.sh --api https://api.example.com/v1 --pages 20000 --out /shared/gallery
#
# Run chosen shards again (failed, or killed with their node): name them and give the count,
#   SHARDS=64 sbatch --array=3,17 deploy/slurm/shards.sh ...same arguments...
# A shard run again resumes from its journal and partial files; exit status 0 all done, 1 some
# photos failed (the shard's summary says why), 3 its source could not be read.
#
#SBATCH --job-name=fetch-gallery-shard
#SBATCH --output=fetch-gallery-%A_%a.out
#SBATCH --requeue
set -euo pipefail
exec "${FETCH_GALLERY:-fetch-gallery}" run --shard-from-env ${SHARDS:+--shards "$SHARDS"} --progress plain "$@"
