#!/usr/bin/env bash
# Checks that C++ files follow .clang-format; prints each file that does not, and fails.
#
# Usage (from anywhere):
#   scripts/check-format.sh [--all | --base REV] [--diff] [FILE...]
#     FILE...     the files to check (C++ sources and headers; other files are ignored)
#     --all       check every C++ file git tracks (what CI runs)
#     --base REV  without FILEs: check the C++ files changed since REV — added, copied, modified
#                 or renamed between the merge base of REV and HEAD and the working tree
#                 (default REV: main, or HEAD~1 when there is no branch main)
#     --diff      also print, for each offending file, what clang-format would change
# Exit status: 0 every checked file is formatted (or there was nothing to check), 1 some file is
# not, 2 usage or tool error. Needs clang-format (Debian: clang-format; scripts/install-deps.sh).
#
# To fix a file: clang-format -i FILE. The whole tree is formatted; CI runs --all.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

base=""
show_diff=0
all=0
files=()
while [ $# -gt 0 ]; do
  case "$1" in
    --base) [ $# -ge 2 ] || { echo "check-format: --base needs a revision" >&2; exit 2; }
            base="$2"; shift 2 ;;
    --diff) show_diff=1; shift ;;
    --all) all=1; shift ;;
    -h|--help) sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; files+=("$@"); break ;;
    -*) echo "check-format: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) files+=("$1"); shift ;;
  esac
done

if ! command -v clang-format >/dev/null 2>&1; then
  echo "check-format: clang-format not found (Debian package 'clang-format'; run scripts/install-deps.sh)" >&2
  exit 2
fi

is_cpp() {
  case "$1" in
    *.hpp|*.cpp|*.h|*.cc|*.cxx|*.hxx|*.ipp) return 0 ;;
    *) return 1 ;;
  esac
}

if [ "$all" -eq 1 ]; then
  while IFS= read -r f; do files+=("$f"); done < <(git ls-files)
elif [ "${#files[@]}" -eq 0 ]; then
  if [ -z "$base" ]; then
    if git rev-parse --verify --quiet main >/dev/null; then base=main; else base=HEAD~1; fi
  fi
  if ! merge_base="$(git merge-base "$base" HEAD 2>/dev/null)"; then
    echo "check-format: cannot find the merge base of '$base' and HEAD" >&2
    exit 2
  fi
  while IFS= read -r f; do files+=("$f"); done < <(git diff --name-only --diff-filter=ACMR "$merge_base")
fi

checked=0
bad=()
for f in "${files[@]}"; do
  is_cpp "$f" || continue
  if [ ! -f "$f" ]; then
    echo "check-format: no such file: $f" >&2
    exit 2
  fi
  checked=$((checked + 1))
  # --style=file finds the .clang-format of the file's directory or the nearest parent.
  if ! formatted="$(clang-format --style=file "$f")"; then
    echo "check-format: clang-format failed on $f" >&2
    exit 2
  fi
  if [ "$formatted" != "$(cat "$f")" ]; then
    bad+=("$f")
    if [ "$show_diff" -eq 1 ]; then
      diff -u --label "$f" --label "$f (clang-format)" "$f" <(printf '%s\n' "$formatted") || true
    fi
  fi
done

if [ "${#bad[@]}" -gt 0 ]; then
  echo "check-format: ${#bad[@]} of $checked file(s) not formatted (fix with clang-format -i):"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "check-format: $checked file(s) formatted."
