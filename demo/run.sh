#!/usr/bin/env bash
# The bundled demo: create a 4-nation game on the East board and play the order files
# in demo/orders/ one by one, as a GM would, writing the game file and its reports.
# Usage: demo/run.sh OUT_DIR   (antike-ref must be on PATH; `make demo` arranges that)
set -euo pipefail
OUT=${1:-out/demo}
HERE=$(cd "$(dirname "$0")" && pwd)
rm -rf "$OUT"
mkdir -p "$OUT"
GAME="$OUT/demo.json"

antike-ref new "$GAME" --id demo --board antike-east \
  --nations persians,phoenicians,arabs,greeks \
  --player "persians=Darius <darius@example.org>" --player "phoenicians=Dido <dido@example.org>" \
  --player "arabs=Zenobia <zenobia@example.org>" --player "greeks=Pericles <pericles@example.org>" \
  --password persians=demo-persians --password phoenicians=demo-phoenicians \
  --password arabs=demo-arabs --password greeks=demo-greeks \
  --seed demo-seed

REPORTS=(--report-dir "$OUT/reports")

for orders in "$HERE"/orders/*.json; do
  echo "== $(basename "$orders")"
  antike-ref check "$GAME" "$orders" > /dev/null
  antike-ref process "$GAME" "$orders" "${REPORTS[@]}" | sed -n '1p;/^reports:/p'
done

antike-ref render "$GAME" --turn 0 --out "$OUT/reports" > /dev/null
antike-ref site "$GAME" "$OUT/site" > /dev/null
antike-ref verify "$GAME"
antike-ref show "$GAME"
echo
echo "Game file: $GAME"
echo "Reports:   $OUT/reports/ (one set per turn: svg, pdf, png, txt, md, bbcode)"
echo "Latest:    $(ls "$OUT"/reports/*.pdf | tail -n 1)"
echo "Website:   $OUT/site/index.html (antike-ref site: open it in a browser)"
