#!/bin/bash
# Measures a hosted game on loopback (docs/network.md, "Measured"): the delay from a move at one
# seat to the other seat's waiting request, and the host's CPU and memory at rest and through a
# CTOR 10x10 2v2 game with secret squares, each member in its own process, with 50 spectators
# on the live feed. Needs curl and python3; builds the release binary without the table.
#
#   sh docs/network-bench.sh
set -eu
cargo build --release --no-default-features -q
B="${CARGO_TARGET_DIR:-target}/release/tablero"
D=$(mktemp -d)
trap 'pkill -P $$ 2>/dev/null || true; rm -rf "$D"' EXIT

# 1. The delay: 1v1 CTOR 10x10, both seats remote, driven by a script.
"$B" host ctor10 --headless --port 0 --record "$D/d.json" --linger 60 > "$D/d.out" 2>&1 &
sleep 1
addr=$(grep "invite first" "$D/d.out" | sed 's|.*http://||; s|/join.*||')
first=$(grep "invite first" "$D/d.out" | sed 's/.*token=//')
second=$(grep "invite second" "$D/d.out" | sed 's/.*token=//')
python3 - "$addr" "$first" "$second" <<'PY'
import http.client, json, statistics, sys, threading, time
host, port = sys.argv[1].split(':')
def req(token, method, path, body=None):
    while True:
        c = http.client.HTTPConnection(host, int(port), timeout=30)
        c.request(method, path, body=body, headers={"Authorization": "Bearer " + token})
        r = c.getresponse(); data = r.read(); c.close()
        if r.status != 429:  # over a seat's 100 requests a second: a moment, and again
            return r.status, data
        time.sleep(0.05)
delays, square = [], 1
for _ in range(200):
    v = json.loads(req(sys.argv[2], "GET", "/seat")[1])
    if v.get("result"): break
    mover, watcher = (sys.argv[2], sys.argv[3]) if v["your_turn"] else (sys.argv[3], sys.argv[2])
    v = json.loads(req(mover, "GET", "/seat")[1])
    seen = {}
    def watch():
        req(watcher, "GET", "/seat?wait=%d" % v["version"]); seen["t"] = time.perf_counter()
    t = threading.Thread(target=watch); t.start(); time.sleep(0.02)
    sent = time.perf_counter()
    status, _ = req(mover, "POST", "/seat/move", json.dumps({"seq": v["seq"], "move": "P%d" % square}))
    if status == 200:
        square += 1
    else:  # no Put left this turn: the end of the turn
        sent = time.perf_counter()
        status, _ = req(mover, "POST", "/seat/move", json.dumps({"seq": v["seq"], "move": "E"}))
    t.join()
    if status == 200: delays.append((seen["t"] - sent) * 1000)
delays.sort()
print("a move reaching the other seat: %d moves, median %.1f ms, 95th percentile %.1f ms"
      % (len(delays), statistics.median(delays), delays[int(len(delays) * 0.95)]))
PY
pkill -f "$D/d.json" || true

# 2. The host with 4 seats and 50 spectators.
empty=$(printf '%s/' .......... .......... .......... .......... .......... .......... .......... .......... .......... ..........)
"$B" host "ctor10 ${empty%/} b 1 P1M0L0 2v2 0" --headless --port 0 --feed=0 --secrets --record "$D/g.json" --linger 2 > "$D/g.out" 2>&1 &
HOST=$!
sleep 1
feed=$(grep "^feed:" "$D/g.out" | awk '{print $2}')
for _ in $(seq 50); do curl -sN "$feed/events" > /dev/null & done
sleep 2
ticks() { awk '{print $14+$15}' /proc/$HOST/stat; }
rss() { awk '/VmRSS/ {print int($2/1024)}' /proc/$HOST/status; }
t0=$(ticks); sleep 10; t1=$(ticks)
echo "at rest with 50 spectators: $((t1 - t0)) CPU ticks in 10 s, $(rss) MB resident"
start=$(date +%s.%N); c0=$(ticks); c1=$c0; peak=0; k=0
for link in $(grep invite "$D/g.out" | awk '{print $3}'); do
  if [ $((k % 2)) = 0 ]; then who=ai:easy; else who=random; fi
  "$B" join "$link" --as $who > /dev/null 2>&1 & k=$((k + 1))
done
while kill -0 $HOST 2>/dev/null; do
  r=$(rss 2>/dev/null || echo 0); [ "${r:-0}" -gt $peak ] && peak=$r
  c1=$(ticks 2>/dev/null || echo $c1); sleep 0.1
done
end=$(date +%s.%N)
moves=$(python3 -c "import json; print(len(json.load(open('$D/g.json'))['moves']))")
echo "a 2v2 game, 4 members in their own processes, 50 spectators: $moves operations in $(python3 -c "print(round($end - $start, 1))") s, $((c1 - c0)) CPU ticks, $peak MB resident at the peak"
