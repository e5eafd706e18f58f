#!/usr/bin/env bash
# Style and static checks on the files a change touches (not the whole tree:
# older files predate .clang-format and are reformatted only when edited).
#   scripts/lint.sh [BASE]   BASE: a commit to diff against (default: main,
#                            or HEAD~1 when on main); needs clang-format and
#                            clang-tidy (Debian: clang-format, clang-tidy) and
#                            a configured build/ (compile_commands.json).
# Exit 1 when a file is not formatted or clang-tidy reports a warning.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-main}
[ "$(git rev-parse --abbrev-ref HEAD)" = main ] && [ -z "${1:-}" ] && base=HEAD~1
mapfile -t files < <(git diff --name-only --diff-filter=ACMR "$base" -- '*.cpp' '*.h' | grep -v '^tests/golden/' || true)
[ ${#files[@]} -eq 0 ] && { echo "lint: no C++ files changed since $base"; exit 0; }
status=0
for f in "${files[@]}"; do
  if ! clang-format --style=file --dry-run --Werror "$f" 2>/dev/null; then
    echo "lint: $f is not formatted (clang-format -i $f)"
    status=1
  fi
done
db=""
for d in build build-dev build-rel; do [ -f "$d/compile_commands.json" ] && { db=$d; break; }; done
if [ -n "$db" ]; then
  for f in "${files[@]}"; do
    case "$f" in *.cpp) ;; *) continue ;; esac
    if ! clang-tidy -p "$db" --quiet --warnings-as-errors='*' \
        --checks='-*,bugprone-*,-bugprone-easily-swappable-parameters,-bugprone-narrowing-conversions,performance-*,-performance-unnecessary-value-param,-performance-inefficient-vector-operation' \
        "$f" 2>/dev/null; then
      echo "lint: clang-tidy warnings in $f"
      status=1
    fi
  done
else
  echo "lint: no compile_commands.json (run scripts/build.sh): clang-tidy skipped"
fi
exit $status
