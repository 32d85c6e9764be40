#!/bin/sh
# Screenshots (JPEG) of the window as a player sees it at 1280x720 (software profile): the menu, and
# each game's table twenty moves in (a seeded unfinished game, resumed from the menu). Under
# its own Xvfb display, with the data and settings of a fresh machine. From the repository
# root:
#
#   sh docs/screens.sh [path/to/tablero] [out-dir] [game ...]
#
# (only those games' tables and not the menu when games are named).
#
# Needs Xvfb, xdotool, ImageMagick's `import` and Mesa's lavapipe (Debian: apt-get
# install xvfb xdotool imagemagick mesa-vulkan-drivers).
set -eu
T=$(realpath "${1:-target/release/tablero}")
OUT=${2:-docs/screens}
mkdir -p "$OUT"
WORK=$(mktemp -d)
export XDG_DATA_HOME="$WORK/data" XDG_CONFIG_HOME="$WORK/config" XDG_RUNTIME_DIR="$WORK"
Xvfb :91 -screen 0 1280x720x24 -nolisten tcp >/dev/null 2>&1 &
XVFB=$!
trap 'kill $XVFB 2>/dev/null; rm -rf "$WORK"' EXIT
export DISPLAY=:91
sleep 2

# A seeded game of VARIANT, N moves: each the ((n * 7) mod count + 1)th of `tablero moves`
# (from the position after the first move, which `tablero play` prints).
record() {
    "$T" moves "$1" > "$WORK/moves"
    start=$("$T" play "$1" "$(head -1 "$WORK/moves")" | head -1)
    game=$start
    moves=""
    n=0
    while [ $n -lt "$2" ]; do
        "$T" moves "$game" > "$WORK/moves"
        count=$(wc -l < "$WORK/moves")
        [ "$count" -gt 0 ] || break
        mv=$(sed -n "$(( (n * 7) % count + 1 ))p" "$WORK/moves")
        after=$("$T" play "$game" "$mv")
        # The game stays unfinished: a move that would end it is left out.
        case $(echo "$after" | sed -n 2p) in result*) break ;; esac
        moves="$moves${moves:+,}{ \"move\": \"$mv\", \"at_ms\": $((1796128180000 + n * 4000)) }"
        game=$(echo "$after" | head -1)
        n=$((n + 1))
    done
    printf '{ "format": 2, "variant": "%s", "start": "%s", "players": [{ "name": "Ana", "kind": "human" }, { "name": "computer (medium)", "kind": "ai:medium" }], "moves": [%s], "result": null, "created_ms": 1796128170000 }' \
        "$(echo "$start" | cut -d' ' -f1)" "$start" "$moves"
}

# Opens the window (the menu), waits for it to draw, clicks at X Y if given (the menu's
# *Resume* card), waits again, presses a key if given, and takes the picture.
shot() {
    name=$1
    click=$2
    key=${3:-}
    "$T" >/dev/null 2>&1 &
    app=$!
    for _ in $(seq 90); do
        xdotool search --name tablero >/dev/null 2>&1 && break
        sleep 1
    done
    sleep 20
    if [ -n "$click" ]; then
        # shellcheck disable=SC2086
        xdotool mousemove $click
        sleep 1
        xdotool mousedown 1
        sleep 0.3
        xdotool mouseup 1
        # (The pine set's wood is baked the first time it is drawn: a while in a debug build.)
        sleep 40
    fi
    if [ -n "$key" ]; then
        xdotool windowfocus "$(xdotool search --name tablero | head -1)" 2>/dev/null || true
        sleep 1
        xdotool key "$key"
        sleep 4
    fi
    import -window root -quality 88 "$OUT/$name.jpg"
    kill $app 2>/dev/null || true
    wait $app 2>/dev/null || true
}

shift 2 2>/dev/null || shift $#
GAMES=${*:-ordo ordo-x crossings volterra volterra-free ctor8 ctor10}
# The menu of a fresh machine.
if [ $# -eq 0 ]; then
    export TABLERO_DATA_DIR="$WORK/fresh"
    shot menu ""
fi
# Each game resumed from the menu's *Resume* card (where RESUME_AT says it is: "X Y").
for v in $GAMES; do
    export TABLERO_DATA_DIR="$WORK/$v"
    mkdir -p "$TABLERO_DATA_DIR/games"
    record "$v" 20 > "$TABLERO_DATA_DIR/games/1796128170000-$v.json"
    shot "table-$v" "${RESUME_AT:-560 110}"
done
# The rules panel (F1) and the table's menu (K), over games resumed as above.
if [ $# -eq 0 ]; then
    export TABLERO_DATA_DIR="$WORK/crossings"
    shot rules "${RESUME_AT:-560 110}" F1
    export TABLERO_DATA_DIR="$WORK/ordo"
    shot actions "${RESUME_AT:-560 110}" k
fi
