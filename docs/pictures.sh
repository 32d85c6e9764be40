#!/bin/sh
# Makes the pictures of README.md and docs/ again, with tablero itself: photos (`tablero photo`),
# a frame of the broadcast's film (`tablero film`) and the live feed's overlay page in headless
# Chromium (`tablero feed`). Off-screen: a Vulkan device, or Mesa's lavapipe (under Xvfb where
# there is no display). From the repository root:
#
#   sh docs/pictures.sh [path/to/tablero]
#
# The overlay page needs Chromium (Debian: apt-get install chromium); without it that picture is
# left as it is.
set -eu
T=${1:-target/release/tablero}
OUT=docs/pictures
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"

VOLTERRA="volterra LDLDL,D,-,-/L,D,-,-/-,Ll,Dd,-/-,-,L,D/-,-,DL,LDLDLD l"
CTOR="ctor8 ......../..BBB.../..BW..../..BB..../......../......W./.....WW./........ w 6 P2M2L1 1v1 0"
ORDO="ordo ..BB..BB../BBBBBBBBBB/BB..BB..BB/........../........../WW..WW..WW/WWWWWWWWWW/..WW..WW.. w"

# The README: a Volterra game on the pine set.
"$T" photo "$VOLTERRA" --out "$OUT/table.png" --size 1280x720 --view first
# The showcase: the towers from close by, and CTOR's field on the doughnut.
"$T" photo "$VOLTERRA" --out "$OUT/pine-set.png" --size 960x540 --view macro
"$T" photo "$VOLTERRA" --out "$OUT/pine-set-top.png" --size 960x540 --view top
# Two light tiles of the start, each alone: every tile its own wood.
"$T" photo volterra --inspect b5 --out "$OUT/inspect-b5.png" --size 640x360
"$T" photo volterra --inspect a4 --out "$OUT/inspect-a4.png" --size 640x360
"$T" photo "$CTOR" --out "$OUT/doughnut.png" --size 960x540 --view doughnut

# A short Ordo game for the streaming pictures: each move the first of `tablero moves` after
# skipping as many as the move's number, so the same game each time.
record() {
    game=$ORDO
    moves=""
    n=0
    while [ $n -lt 16 ]; do
        count=$("$T" moves "$game" | wc -l)
        [ "$count" -gt 0 ] || break
        mv=$("$T" moves "$game" | sed -n "$(( (n * 7) % count + 1 ))p")
        game=$("$T" play "$game" "$mv" | head -1)
        moves="$moves${moves:+,}{ \"move\": \"$mv\", \"at_ms\": $((1796128180000 + n * 4000)) }"
        n=$((n + 1))
    done
    cat <<EOF
{
  "format": 2,
  "variant": "ordo",
  "start": "$ORDO",
  "players": [{ "name": "Ana", "kind": "human" }, { "name": "computer (hard)", "kind": "ai:hard" }],
  "moves": [$moves],
  "result": null,
  "created_ms": 1796128170000
}
EOF
}
record > "$WORK/game.json"
"$T" check "$WORK/game.json" > /dev/null

# The broadcast window with its overlays: the film's frame after the last move.
"$T" film "$WORK/game.json" --out "$WORK/film.gif" --size 960x540 --fps 2 --pace 1 --frames-dir "$WORK/frames" > /dev/null
cp "$(ls "$WORK"/frames/*.png | tail -1)" "$OUT/broadcast.png"

# The overlay page in a browser, over a plain background, while the feed shows the game.
if command -v chromium > /dev/null; then
    "$T" feed "$WORK/game.json" --pace 0.1 --port 7979 --linger 30 > "$WORK/feed.log" &
    feed=$!
    sleep 4
    chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
        --disable-component-update --disable-sync --user-data-dir="$WORK/chromium" \
        --hide-scrollbars --window-size=480,640 --default-background-color=303030ff \
        --screenshot="$OUT/overlay.png" \
        "http://127.0.0.1:7979/overlay?show=title,names,score,clock,last,moves,result&theme=dark" 2> /dev/null
    kill "$feed" 2> /dev/null || true
fi
ls -l "$OUT"
