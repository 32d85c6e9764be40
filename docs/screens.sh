#!/bin/sh
# Screenshots of the window as a player sees it at 1280x720 (software profile): the menu, and
# each game's table twenty moves in (a seeded game pasted with Ctrl+V, as a player pastes a
# record). Under its own Xvfb display, with the data and settings of a fresh machine. From the
# repository root:
#
#   sh docs/screens.sh [path/to/tablero] [out-dir]
#
# Needs Xvfb, xdotool, xclip, ImageMagick's `import` and Mesa's lavapipe (Debian: apt-get
# install xvfb xdotool xclip imagemagick mesa-vulkan-drivers).
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
    start=$("$T" play "$1" "$("$T" moves "$1" | head -1)" | head -1)
    game=$start
    moves=""
    n=0
    while [ $n -lt "$2" ]; do
        count=$("$T" moves "$game" | wc -l)
        [ "$count" -gt 0 ] || break
        mv=$("$T" moves "$game" | sed -n "$(( (n * 7) % count + 1 ))p")
        next=$("$T" play "$game" "$mv" | head -1)
        moves="$moves${moves:+,}{ \"move\": \"$mv\", \"at_ms\": $((1796128180000 + n * 4000)) }"
        game=$next
        n=$((n + 1))
        case $("$T" play "$game" | sed -n 2p) in result*) break ;; esac
    done
    printf '{ "format": 2, "variant": "%s", "start": "%s", "players": [{ "name": "Ana", "kind": "human" }, { "name": "computer (medium)", "kind": "ai:medium" }], "moves": [%s], "result": null, "created_ms": 1796128170000 }' \
        "$(echo "$start" | cut -d' ' -f1)" "$start" "$moves"
}

# Waits for the window, lets it draw, optionally pastes the clipboard, takes the picture.
shot() {
    name=$1
    paste=$2
    shift 2
    "$T" "$@" >/dev/null 2>&1 &
    app=$!
    for _ in $(seq 90); do
        xdotool search --name tablero >/dev/null 2>&1 && break
        sleep 1
    done
    sleep 12
    if [ "$paste" = paste ]; then
        win=$(xdotool search --name tablero | head -1)
        xdotool windowfocus "$win" 2>/dev/null || true
        xdotool key --window "$win" ctrl+v
        sleep 10
    fi
    import -window root "$OUT/$name.png"
    kill $app 2>/dev/null || true
    wait $app 2>/dev/null || true
}

shot menu no
for v in ordo ordo-x crossings volterra volterra-free ctor8 ctor10; do
    record "$v" 20 > "$WORK/$v.json"
    xclip -selection clipboard -i "$WORK/$v.json"
    shot "table-$v" paste play "$v"
done
