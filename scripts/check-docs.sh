#!/usr/bin/env bash
# Fails when a public function or type in include/liedyn/** has no documentation comment.
#
# How: Doxygen (docs/Doxyfile) reads every header and reports each undocumented entity. This
# script keeps the reports about FUNCTIONS (free functions, member functions, constructors,
# operators) and TYPES (classes, structs, enums) outside `namespace detail`, turns each into a
# key such as
#     liedyn::Force::linear() const
#     liedyn::Data
# and fails if a key is not in docs/undocumented-allowlist.txt (one key per line, '#' starts
# a comment). Data members, typedefs, enum values and macros are not checked. A comment
# documents an entity when it is a block of `///` lines right above it (or `/** */`).
#
# Usage (from anywhere):   scripts/check-docs.sh [--list]
#   --list   print every undocumented key (allowlisted or not), e.g. to regenerate the
#            allowlist:  scripts/check-docs.sh --list > docs/undocumented-allowlist.txt
# Needs doxygen (Debian: doxygen; scripts/install-deps.sh installs it). Exit status: 0 clean,
# 1 undocumented entities not in the allowlist, 2 usage or tool error.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

list_only=0
case "${1:-}" in
  "") ;;
  --list) list_only=1 ;;
  *) echo "usage: scripts/check-docs.sh [--list]" >&2; exit 2 ;;
esac

if ! command -v doxygen >/dev/null 2>&1; then
  echo "check-docs: doxygen not found (Debian package 'doxygen'; run scripts/install-deps.sh)" >&2
  exit 2
fi

out="$(mktemp -d "${TMPDIR:-/tmp}/liedyn-docs.XXXXXX")"
trap 'rm -rf "$out"' EXIT

if ! LIEDYN_DOXYGEN_OUT="$out" doxygen docs/Doxyfile >"$out/doxygen.stdout" 2>&1; then
  echo "check-docs: doxygen failed:" >&2
  cat "$out/doxygen.stdout" >&2
  exit 2
fi
touch "$out/warnings.log"

# "<file>:<line>: warning: Member <signature> (<kind>) of <scope kind> <scope> is not documented."
# "<file>:<line>: warning: Compound <name> is not documented."
# -> "<key>\t<file>:<line>", key = <scope>::<signature> (file scope: the signature alone) or <name>.
root="$(pwd)/"
sed -n \
  -e 's/^\(.*:[0-9]*\): warning: Member \(.*\) (\(function\|friend\|enumeration\)) of \(class\|struct\|union\|namespace\) \([^ ]*\) is not documented\.$/\5::\2\t\1/p' \
  -e 's/^\(.*:[0-9]*\): warning: Member \(.*\) (\(function\|friend\|enumeration\)) of file [^ ]* is not documented\.$/\2\t\1/p' \
  -e 's/^\(.*:[0-9]*\): warning: Compound \([^ ]*\) is not documented\.$/\2\t\1/p' \
  "$out/warnings.log" | sed "s#\t$root#\t#" | sort -t$'\t' -k1,1 -u >"$out/found.tsv"

if [ "$list_only" -eq 1 ]; then
  echo "# Public functions and types of include/liedyn/** without a /// comment, as reported by"
  echo "# scripts/check-docs.sh --list ($(date -u +%Y-%m-%d)). Document them, then delete their line."
  cut -f1 "$out/found.tsv"
  exit 0
fi

allow="docs/undocumented-allowlist.txt"
touch "$out/allow.txt"
if [ -f "$allow" ]; then
  sed -e 's/#.*$//' -e 's/[[:space:]]*$//' -e '/^$/d' "$allow" | sort -u >"$out/allow.txt"
fi

# New undocumented entities: found but not allowed.
cut -f1 "$out/found.tsv" | sort -u >"$out/found.keys"
comm -23 "$out/found.keys" "$out/allow.txt" >"$out/new.keys"
# Allowlist entries that are documented (or gone) now: the list can shrink.
comm -13 "$out/found.keys" "$out/allow.txt" >"$out/stale.keys"

total="$(wc -l <"$out/found.keys")"
new="$(wc -l <"$out/new.keys")"
stale="$(wc -l <"$out/stale.keys")"

if [ "$stale" -gt 0 ]; then
  echo "check-docs: $stale allowlisted entr$( [ "$stale" -eq 1 ] && echo y || echo ies) now documented or gone; remove from $allow:"
  sed 's/^/  /' "$out/stale.keys"
fi

if [ "$new" -gt 0 ]; then
  echo "check-docs: FAILED: $new public function(s)/type(s) without a /// documentation comment:" >&2
  while IFS= read -r key; do
    where="$(awk -F'\t' -v k="$key" '$1 == k { print $2; exit }' "$out/found.tsv")"
    printf '  %s: %s\n' "$where" "$key" >&2
  done <"$out/new.keys"
  echo "Document each with a /// comment right above it (what it computes, its frames, its output order)." >&2
  exit 1
fi

echo "check-docs: OK ($total undocumented entit$( [ "$total" -eq 1 ] && echo y || echo ies) allowlisted in $allow, none new)"
