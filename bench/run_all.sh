#!/bin/bash
# Client benchmarks, both transports and the reference client side by side, against kneepoint-sim on
# loopback; prints a table (the figures of docs/BENCHMARKS.md). A few minutes; run it on a quiet machine.
#   bench/run_all.sh [BUILD_DIR]         (default: build/dev; needs bench_client and kneepoint-sim built)
# The reference client needs Debian's python3-aiohttp; without it its column stays empty. wrk is used
# when installed. Raw JSON lines go to $OUT (default /tmp/kneepoint-bench.jsonl).
set -u
BUILD=${1:-build/dev}
OUT=${OUT:-/tmp/kneepoint-bench.jsonl}
HERE=$(cd "$(dirname "$0")" && pwd)
CLIENT=$BUILD/bench/bench_client
FLOOR=$BUILD/bench/bench_floor
SIM=$BUILD/app/sim/kneepoint-sim
PY=/usr/bin/python3
PORT_A=${PORT_A:-18471}
PORT_B=${PORT_B:-18472}
for f in "$CLIENT" "$FLOOR" "$SIM"; do
    [ -x "$f" ] || { echo "run_all.sh: $f is missing; build bench_client, bench_floor and kneepoint-sim first" >&2; exit 2; }
done
REF=1
$PY -c 'import aiohttp' 2>/dev/null || { REF=0; echo "run_all.sh: python3-aiohttp missing: no reference column" >&2; }
ulimit -n "$(ulimit -Hn)" 2>/dev/null

CONFIG_B=$(mktemp --suffix=.json)
# Room for 6,000 sequences in one batch, real time: every stream of the hold test is generating.
echo '{"preset": "large", "max_num_seqs": 6000, "max_num_batched_tokens": 65536,
       "kv_capacity_tokens": 50000000, "max_model_len": 32768, "time_scale": 1}' > "$CONFIG_B"
"$SIM" --port "$PORT_A" --time-scale 1000 >/dev/null 2>&1 & SIM_A=$!
"$SIM" --port "$PORT_B" --config "$CONFIG_B" >/dev/null 2>&1 & SIM_B=$!
trap 'kill $SIM_A $SIM_B 2>/dev/null; rm -f "$CONFIG_B"' EXIT
A=http://127.0.0.1:$PORT_A
B=http://127.0.0.1:$PORT_B
for u in $A $B; do
    for _ in $(seq 50); do curl -sf "$u/health" >/dev/null 2>&1 && break; sleep 0.1; done
done
: > "$OUT"
log() { echo "== $*" >&2; }

{
    echo "{\"scenario\": \"machine\", \"cpu\": \"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)\", \"cores\": $(nproc), \"load\": \"$(cut -d' ' -f1-3 /proc/loadavg)\", \"kernel\": \"$(uname -r)\"}"
    if command -v wrk >/dev/null; then
        log wrk
        rps=$(wrk -t1 -c64 -d3s "$A/health" 2>/dev/null | awk '/Requests\/sec/ {print $2}')
        echo "{\"scenario\": \"wrk\", \"client\": \"wrk\", \"rps\": ${rps:-0}}"
    fi
    for t in socket qnam; do
        log "$t: rate";   "$CLIENT" --scenario rate --transport $t --url $A --rates 100,250,500,1000,2000,4000,8000,16000 --seconds 2
        log "$t: stream"; "$CLIENT" --scenario stream --transport $t --url $A --users 200 --tokens 500 --prompts 400 --label saturating
        "$CLIENT" --scenario stream --transport $t --url $B --users 200 --tokens 200 --prompts 400 --label paced
        log "$t: timing"; "$CLIENT" --scenario timing --transport $t --url $B --rate 20 --prompts 100 --tokens 32 --label low
        "$CLIENT" --scenario timing --transport $t --url $B --rate 500 --prompts 1000 --tokens 32 --label high
        log "$t: hold";   "$CLIENT" --scenario hold --transport $t --url $B --users 5000 --seconds 5
    done
    # The floor: epoll + recv, bytes discarded, the same streams; the transports' CPU is read against it.
    model() { curl -sf "$1/v1/models" | $PY -c 'import json,sys; print(json.load(sys.stdin)["data"][0]["id"])'; }
    log "floor: stream"
    "$FLOOR" --port "$PORT_A" --model "$(model $A)" --users 200 --tokens 500 --prompts 400 --label saturating
    "$FLOOR" --port "$PORT_B" --model "$(model $B)" --users 200 --tokens 200 --prompts 400 --label paced
    if [ $REF = 1 ]; then
        R="$PY $HERE/reference_client.py"
        log "reference: rate";   $R --scenario rate --url $A --rates 100,250,500,1000,2000,4000,8000,16000 --seconds 2
        log "reference: stream"; $R --scenario stream --url $A --users 200 --tokens 500 --prompts 400 --label saturating
        $R --scenario stream --url $B --users 200 --tokens 200 --prompts 400 --label paced
        log "reference: timing"; $R --scenario timing --url $B --rate 20 --prompts 100 --tokens 32 --label low
        $R --scenario timing --url $B --rate 500 --prompts 1000 --tokens 32 --label high
        log "reference: hold";   $R --scenario hold --url $B --users 5000 --seconds 5
        $R --scenario parser --mb 32
    fi
    log parser; "$CLIENT" --scenario parser --mb 32
    log load;   "$CLIENT" --scenario load --profile "$HERE/../tests/data/profiles/kneepoint-full.json" \
                    --sharegpt "${SHAREGPT:-/tmp/kneepoint-bench-sharegpt.json}" --mb 650
} | tee -a "$OUT" >/dev/null

$PY "$HERE/bench_table.py" "$OUT"
