#!/usr/bin/env bash
# Installs every Debian package pto-sim needs to build, test and plot
# (GNU parallel and a private single-node Slurm: the sweep tests run emitted
# jobs through both).
set -euo pipefail
pkgs=(g++ make cmake pkg-config git ca-certificates
      libsystemc-dev libyaml-cpp-dev libcli11-dev libspdlog-dev
      libgtest-dev libgmock-dev nlohmann-json3-dev libboost-dev
      python3 python3-yaml python3-matplotlib parallel
      slurmctld slurmd slurm-client munge
      clang libclang-rt-14-dev)  # the fuzz targets and the sanitized unit tests (scripts/fuzz.sh)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
