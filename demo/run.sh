#!/usr/bin/env bash
# First version of the demo: creates a four-nation game and shows it.
# To be extended (orders, processing, reports) by whoever owns the demo.
# Usage: demo/run.sh OUT_DIR   (OUT_DIR is emptied and recreated each run)
set -euo pipefail

OUT="${1:?usage: demo/run.sh OUT_DIR}"
rm -rf "$OUT"
mkdir -p "$OUT"

antike-ref new "$OUT/game.json" --board antike-east \
    --nations persians,phoenicians,arabs,greeks --id demo
antike-ref show "$OUT/game.json"
