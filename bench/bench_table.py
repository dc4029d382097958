#!/usr/bin/python3
"""Turns bench/run_all.sh's JSON lines into the table of docs/BENCHMARKS.md."""
import json
import math
import sys

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]


def pick(scenario, client, **match):
    for r in rows:
        if r.get("scenario") == scenario and r.get("client", client) == client and all(r.get(k) == v for k, v in match.items()):
            return r
    return None


def get(scenario, client, key, **match):
    r = pick(scenario, client, **match)
    v = None if r is None else r.get(key)
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else v


def fmt(v, digits=1):
    if v is None:
        return "–"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int) or abs(v) >= 1000:
        return f"{v:,.0f}"
    return f"{v:.{digits}f}" if abs(v) >= 0.1 else f"{v:.3f}"


def ratio(a, b, higher_is_better=True):
    if a is None or b is None or a == 0 or b == 0:
        return "–"
    return f"{(a / b if higher_is_better else b / a):.1f}×"


machine = pick("machine", None) or {}
print(f"Machine: {machine.get('cpu', '?')}, {machine.get('cores', '?')} cores, load average {machine.get('load', '?')}")
w = pick("wrk", "wrk")
if w:
    print(f"wrk (GET /health, 1 thread, 64 connections): {fmt(w['rps'])} req/s")
print()
print("| Figure | socket | qnam | reference | socket / reference |")
print("|---|---|---|---|---|")
lines = [
    ("(1) highest open-loop rate with p99 dispatch lag < 1 ms (req/s)", "rate_best", "rate", {}, True),
    ("(1) dispatch lag p50 at 500 req/s (ms)", "rate", "dispatch_lag_p50_ms", {"rate": 500}, False),
    ("(1) dispatch lag p99 at 500 req/s (ms)", "rate", "dispatch_lag_p99_ms", {"rate": 500}, False),
    ("(1) client CPU per request at 500 req/s (µs)", "rate", "cpu_per_request_us", {"rate": 500}, False),
    ("(2) streamed events/s received (200 streams, saturating)", "stream", "events_per_s", {"load": "saturating"}, True),
    ("(2) events/s per core of client CPU (saturating)", "stream", "events_per_core_s", {"load": "saturating"}, True),
    ("(2) client CPU per event (µs, saturating)", "stream", "cpu_per_event_us", {"load": "saturating"}, False),
    ("(2) client CPU per request, 500-token streams (µs, saturating)", "stream", "cpu_per_request_us",
     {"load": "saturating"}, False),
    ("(2) streamed events/s received (200 streams paced by the server)", "stream", "events_per_s", {"load": "paced"}, True),
    ("(2) events/s per core of client CPU (paced)", "stream", "events_per_core_s", {"load": "paced"}, True),
    ("(2) client CPU per event (µs, paced)", "stream", "cpu_per_event_us", {"load": "paced"}, False),
    ("(3) streams generating at once (5,000 asked)", "hold", "streaming", {}, True),
    ("(3) resident memory per stream (KiB)", "hold", "rss_per_stream_kib", {}, False),
    ("(4) TTFT error p50 / low load 20 req/s (ms)", "timing", "ttft_err_p50_ms", {"load": "low"}, False),
    ("(4) TTFT error p99 / low load (ms)", "timing", "ttft_err_p99_ms", {"load": "low"}, False),
    ("(4) ITL error p50 / low load (ms)", "timing", "itl_err_p50_ms", {"load": "low"}, False),
    ("(4) ITL error p99 / low load (ms)", "timing", "itl_err_p99_ms", {"load": "low"}, False),
    ("(4) TTFT error p50 / high load 500 req/s (ms)", "timing", "ttft_err_p50_ms", {"load": "high"}, False),
    ("(4) TTFT error p99 / high load (ms)", "timing", "ttft_err_p99_ms", {"load": "high"}, False),
    ("(4) ITL error p50 / high load (ms)", "timing", "itl_err_p50_ms", {"load": "high"}, False),
    ("(4) ITL error p99 / high load (ms)", "timing", "itl_err_p99_ms", {"load": "high"}, False),
    ("(4) dispatch lag p99 / high load (ms)", "timing", "dispatch_lag_p99_ms", {"load": "high"}, False),
]
def best_rate(client, limit_ms):
    ok = [r["rate"] for r in rows if r.get("scenario") == "rate" and r.get("client") == client
          and r.get("failed") == 0 and r.get("dispatch_lag_p99_ms", 1e9) < limit_ms]
    return max(ok) if ok else None


b5 = [best_rate(c, 5.0) for c in ("socket", "qnam", "reference")]
print(f"| (1) highest open-loop rate with p99 dispatch lag < 5 ms (req/s) | {fmt(b5[0])} | {fmt(b5[1])} | {fmt(b5[2])} | "
      f"{ratio(b5[0], b5[2])} |")
for label, scenario, key, match, higher in lines:
    s = get(scenario, "socket", key, **match)
    q = get(scenario, "qnam", key, **match)
    r = get(scenario, "reference", key, **match)
    print(f"| {label} | {fmt(s)} | {fmt(q)} | {fmt(r)} | {ratio(s, r, higher)} |")
p = pick("parser", None)
rp = pick("parser", "reference")
if p:
    print(f"| (5) SSE parser alone (MB/s) | {fmt(p['parser_mb_s'])} | same | – | – |")
    print(f"| (5) parser + event JSON + record (MB/s) | {fmt(p['full_mb_s'])} | same | {fmt(rp and rp['full_mb_s'])} | "
          f"{ratio(p['full_mb_s'], rp and rp['full_mb_s'])} |")
if p and p.get("classify_ns"):
    print(f"| (5) one event's classification (ns of CPU): simdjson fast path / nlohmann DOM | {fmt(p['classify_ns'], 0)} / "
          f"{fmt(p['classify_dom_ns'], 0)} | same | – | {ratio(p['classify_ns'], p['classify_dom_ns'], False)} (fast / DOM) |")
for name, key in (("Responses", "responses"), ("Messages", "messages")):
    if p and p.get(f"classify_{key}_ns"):
        fast, dom = p[f"classify_{key}_ns"], p[f"classify_{key}_dom_ns"]
        print(f"| (5) one {name} text delta's classification (ns of CPU): fast path / nlohmann | {fmt(fast, 0)} / "
              f"{fmt(dom, 0)} | same | – | {ratio(fast, dom, False)} (fast / nlohmann) |")
ld = pick("load", None)
if ld:
    print(f"| (6) profile load (ms) | {fmt(ld['profile_ms'], 2)} | | | |")
    print(f"| (6) ShareGPT-layout file, {fmt(ld['sharegpt_mb'])} MB, {ld['sharegpt_prompts']} prompts (s; MB/s; peak RSS growth MiB) | "
          f"{fmt(ld['sharegpt_s'], 2)}; {fmt(ld['sharegpt_mb_s'])}; {fmt(ld['sharegpt_peak_rss_growth_mib'])} | | | |")
    print(f"| (6) result file, {fmt(ld['result_mb'])} MB, 10,000 requests with details (ms) | {fmt(ld['result_read_ms'])} | | | |")
if pick("stream", "floor"):
    print()
    print("Against the floor client (epoll + recv, bytes discarded; same streams, same run):")
    print()
    print("| Figure | floor | socket | qnam | socket / floor | qnam / floor |")
    print("|---|---|---|---|---|---|")
    for load in ("saturating", "paced"):
        for key, what in (("cpu_per_event_us", "CPU per event (µs)"), ("cpu_per_request_us", "CPU per request (µs)"),
                          ("events_per_s", "events/s received")):
            f_, s_, q_ = (get("stream", c, key, load=load) for c in ("floor", "socket", "qnam"))
            higher = key == "events_per_s"
            print(f"| {what}, {load} | {fmt(f_)} | {fmt(s_)} | {fmt(q_)} | "
                  f"{ratio(s_, f_) if higher else ratio(f_, s_, False)} | {ratio(q_, f_) if higher else ratio(f_, q_, False)} |")
print()
print("Client CPU per request on the rate ladder (µs; 1-token answers, not streamed):")
print()
print("| Rate (req/s) | socket | qnam | reference | socket / reference |")
print("|---|---|---|---|---|")
ladder = sorted({r["rate"] for r in rows if r.get("scenario") == "rate"})
for rate in ladder:
    s_, q_, r_ = (get("rate", c, "cpu_per_request_us", rate=rate) for c in ("socket", "qnam", "reference"))
    flags = "".join(" (client-bound)" if get("rate", c, "client_bound", rate=rate) else "" for c in ("socket",))
    print(f"| {rate:,} | {fmt(s_)}{flags} | {fmt(q_)} | {fmt(r_)} | {ratio(s_, r_, False)} |")
print()
print("Rate ladder (dispatch lag p50 / p99 ms, client-bound flag):")
for client in ("socket", "qnam", "reference"):
    steps = [r for r in rows if r.get("scenario") == "rate" and r.get("client") == client]
    cells = [f"{r['rate']}: {fmt(r['dispatch_lag_p50_ms'], 2)} / {fmt(r['dispatch_lag_p99_ms'], 2)}"
             + (" FLAGGED" if r.get("client_bound") else "") for r in steps]
    if cells:
        print(f"  {client}: " + "; ".join(cells))
