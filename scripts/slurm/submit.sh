#!/usr/bin/env bash
# Submits an emitted sweep (`pto-sim sweep ... --emit-jobs JOBS`) as Slurm
# array jobs, cut into arrays the site accepts: a cluster refuses an array
# index at or above its MaxArraySize (1001 by default), so a sweep of more
# points is several arrays, each running its slice of JOBS's lines through
# sweep.sbatch (PTOSIM_TASK_OFFSET says where its slice starts).
# Usage:
#   scripts/slurm/submit.sh JOBS [SBATCH_OPTION...]
# SBATCH_OPTIONs (--partition, --time, --array's %N throttle is not one:
# use --max-running N) go to every sbatch. MaxArraySize is read from
# `scontrol show config`; PTOSIM_MAX_ARRAY_SIZE overrides it. Prints one
# line per array submitted: its job id and the lines it runs.
set -euo pipefail
jobs="${1:?usage: submit.sh JOBS_FILE [SBATCH_OPTION...]}"
shift
[ -r "$jobs" ] || { echo "submit.sh: cannot read $jobs" >&2; exit 2; }
throttle=""
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --max-running) throttle="%${2:?--max-running needs a number}"; shift 2 ;;
    --max-running=*) throttle="%${1#*=}"; shift ;;
    *) args+=("$1"); shift ;;
  esac
done
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
n=$(grep -c '' "$jobs" || true)
if [ "$n" -eq 0 ]; then
  echo "submit.sh: $jobs has no jobs (every point already done?): nothing submitted" >&2
  exit 0
fi
max="${PTOSIM_MAX_ARRAY_SIZE:-}"
if [ -z "$max" ]; then
  # (awk reads to the end: scontrol must not die of a closed pipe under pipefail)
  max=$({ scontrol show config 2>/dev/null || true; } | awk -F'= *' '/^MaxArraySize/ && !v {v = $2} END {print v}')
  max="${max:-1001}"  # Slurm's default when the cluster does not say
fi
if ! [[ "$max" =~ ^[0-9]+$ ]] || [ "$max" -lt 2 ]; then
  echo "submit.sh: MaxArraySize '$max' is not a number of at least 2 (PTOSIM_MAX_ARRAY_SIZE)" >&2
  exit 2
fi
# Indices 1..chunk: the largest index must stay below MaxArraySize.
chunk=$((max - 1))
offset=0
while [ "$offset" -lt "$n" ]; do
  count=$((n - offset < chunk ? n - offset : chunk))
  id=$(sbatch --parsable "--array=1-${count}${throttle}" "--export=ALL,PTOSIM_TASK_OFFSET=${offset}" \
    ${args[@]+"${args[@]}"} "$here/sweep.sbatch" "$jobs")
  echo "submitted array ${id%%;*}: lines $((offset + 1))-$((offset + count)) of $n"
  offset=$((offset + count))
done
