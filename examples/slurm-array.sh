#!/usr/bin/env bash
# A card catalogue rendered by a Slurm job array: 16 tasks, each one shard of the manifest.
#
#   sbatch examples/slurm-array.sh /shared/catalogue/cards.csv
#
# Task K of the array runs `kira batch MANIFEST --shard K/N` with K = $SLURM_ARRAY_TASK_ID and
# N = $SLURM_ARRAY_TASK_COUNT (the array's size). kira is installed on every node from Kira's
# package (`apt-get install ./kira_VERSION_amd64.deb` on Debian 12, or the tarball unpacked on a
# file system every node mounts, with the libraries its README names; docs/install.md); the
# manifest, its textures and the outputs are on a file system every node mounts. One binary (the default build, not the
# NativeCPU trait's) runs on every node of a mixed cluster at that node's speed: it chooses its
# pixel kernels by CPU at start (x86-64-v2, v3 with AVX2, v4 with AVX-512). Re-submitting the script (or `scontrol
# requeue` of a task) redoes only what is missing or out of date: each output has a record in the
# manifest's state folder (.MANIFEST.kira-state beside it, shared by the tasks; add --state DIR
# below if the manifest's folder is read-only), and a killed task leaves no partial file.
#
# Exit status per task: 0 done, 1 some rows failed (named in the task's log), 2 unusable manifest.
#SBATCH --job-name=kira-catalogue
#SBATCH --array=0-15
#SBATCH --cpus-per-task=4
#SBATCH --mem=4G
#SBATCH --time=02:00:00
#SBATCH --output=kira-catalogue-%A_%a.log
set -euo pipefail

manifest="${1:?usage: sbatch slurm-array.sh MANIFEST}"
kira="${KIRA:-kira}"   # e.g. KIRA=/shared/kira/bin/kira sbatch … (the tarball unpacked in /shared/kira)

exec "$kira" batch "$manifest" \
    --shard "${SLURM_ARRAY_TASK_ID}/${SLURM_ARRAY_TASK_COUNT}" \
    --threads "${SLURM_CPUS_PER_TASK:-1}" --json
