#!/usr/bin/env bash
# Checks that the C/C++ files under scripts/formatted-paths.txt are formatted by clang-format
# (.clang-format); prints the files that are not and what clang-format would change.
#   scripts/check-format.sh            # check (exit 1 when a file is not formatted)
#   scripts/check-format.sh --fix      # reformat them in place
set -euo pipefail
cd "$(dirname "$0")/.."
format=${CLANG_FORMAT:-clang-format-22}
command -v "$format" >/dev/null || { echo "check-format: $format not found (apt: clang-format-22)"; exit 2; }
files=()
while read -r path; do
  [[ -z "$path" || "$path" == \#* ]] && continue
  [ -e "$path" ] || { echo "check-format: $path (scripts/formatted-paths.txt) does not exist"; exit 2; }
  while IFS= read -r -d '' file; do files+=("$file"); done < <(find "$path" -type f \( -name '*.c' -o -name '*.cpp' -o -name '*.h' -o -name '*.m' \) -print0 | sort -z)
done < scripts/formatted-paths.txt
if [ "${1:-}" = --fix ]; then
  "$format" -i "${files[@]}"
  exit 0
fi
bad=0
for file in "${files[@]}"; do
  if ! diff -u "$file" <("$format" "$file") > /tmp/check-format.$$ 2>&1; then
    echo "check-format: $file is not formatted:"; head -40 /tmp/check-format.$$; bad=$((bad + 1))
  fi
done
rm -f /tmp/check-format.$$
echo "check-format: ${#files[@]} files checked, $bad not formatted"
[ "$bad" -eq 0 ]
