#!/bin/bash
# Writes the gallery's index, photo pages and gallery.json from every shard's part, once the array
# is done. Downloads nothing; names missing or unfinished shards (exit 1).
#
#   ARRAY=$(sbatch --parsable --array=0-63%16 deploy/slurm/shards.sh --api URL --pages 20000 --out /shared/gallery)
#   sbatch --dependency=afterok:$ARRAY deploy/slurm/merge.sh /shared/gallery
#
#SBATCH --job-name=fetch-gallery-merge
#SBATCH --output=fetch-gallery-merge-%j.out
set -euo pipefail
exec "${FETCH_GALLERY:-fetch-gallery}" merge "$@"
