#!/usr/bin/python3
"""The reference client for bench/run_all.sh: vLLM benchmark_serving's request algorithm (asyncio +
aiohttp, one ClientSession per request, SSE read line by line, json.loads per event, time.perf_counter
stamps) driving the same simulator with the same schedules as bench_client. Prints one JSON object per
line, with the keys bench_client uses. Needs Debian's python3-aiohttp (a benchmark dependency only)."""

import argparse
import asyncio
import json
import random
import resource
import sys
import time
import urllib.request

import aiohttp

TIMEOUT = aiohttp.ClientTimeout(total=6 * 60 * 60)


def cpu_s():
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime


def rss_mib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / (1024 * 1024)


def pct(values, p):
    if not values:
        return float("nan")
    v = sorted(values)
    rank = p / 100 * (len(v) - 1)
    lo = int(rank)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (rank - lo)


def http(method, url):
    req = urllib.request.Request(url, method=method)
    with urllib.request.urlopen(req) as r:
        return r.read()


class Result:
    __slots__ = ("ok", "ttft", "itl", "start", "scheduled", "end", "events", "request_id", "error")

    def __init__(self):
        self.ok = False
        self.ttft = 0.0
        self.itl = []
        self.start = self.scheduled = self.end = 0.0
        self.events = 0
        self.request_id = ""
        self.error = ""


async def request(url, model, prompt, max_tokens, stream, request_id, scheduled):
    """async_request_openai_completions, as the reference writes it."""
    out = Result()
    out.scheduled = scheduled
    out.request_id = request_id
    payload = {"model": model, "prompt": prompt, "temperature": 0.0, "max_tokens": max_tokens,
               "stream": stream, "ignore_eos": True}
    if stream:
        payload["stream_options"] = {"include_usage": True}
    headers = {"x-request-id": request_id}
    async with aiohttp.ClientSession(trust_env=True, timeout=TIMEOUT) as session:
        st = time.perf_counter()
        out.start = st
        most_recent = st
        try:
            async with session.post(url=url, json=payload, headers=headers) as response:
                if response.status == 200:
                    if not stream:
                        body = await response.read()
                        data = json.loads(body)
                        if data.get("choices"):
                            out.ttft = time.perf_counter() - st
                            out.events = 1
                        out.ok = True
                    else:
                        async for chunk_bytes in response.content:
                            chunk_bytes = chunk_bytes.strip()
                            if not chunk_bytes:
                                continue
                            chunk = chunk_bytes.decode("utf-8").removeprefix("data: ")
                            if chunk != "[DONE]":
                                data = json.loads(chunk)
                                if choices := data.get("choices"):
                                    text = choices[0].get("text")
                                    timestamp = time.perf_counter()
                                    if out.ttft == 0.0:
                                        out.ttft = timestamp - st
                                    else:
                                        out.itl.append(timestamp - most_recent)
                                    most_recent = timestamp
                                    out.events += 1
                                    del text
                        out.ok = True
                else:
                    out.error = response.reason or str(response.status)
        except Exception as e:  # the reference records the exception text and goes on
            out.error = repr(e)
    out.end = time.perf_counter()
    return out


def words(n, seed):
    rng = random.Random(seed)
    pool = ["alpha", "beta", "gamma", "delta", "kappa", "sigma", "omega", "theta"]
    return " ".join(rng.choice(pool) for _ in range(n))


async def open_loop(args, url, rate, count, input_len, tokens, stream, tag, constant=True, seed=3, stop_after=None):
    """get_request + create_task per request; intervals 1/rate (constant) or exponential (Poisson)."""
    rng = random.Random(seed)
    prompts = [words(input_len, i) for i in range(min(count, 1000))]
    tasks = []
    t0 = time.perf_counter()
    next_at = 0.0
    for i in range(count):
        if rate != float("inf"):
            next_at += 1.0 / rate if constant else rng.expovariate(rate)
            delay = t0 + next_at - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
        scheduled = t0 + next_at
        tasks.append(asyncio.create_task(
            request(url, args.model, prompts[i % len(prompts)], tokens, stream, f"ref-{tag}-{i}", scheduled)))
    if stop_after is not None:
        return tasks, t0
    return await asyncio.gather(*tasks), t0


def summary(results, t0, cpu, scenario, extra):
    done = [r for r in results if r.ok]
    lag = [(r.start - r.scheduled) * 1000 for r in results]
    events = sum(r.events for r in results)
    duration = max((r.end for r in results), default=t0) - t0
    o = {"scenario": scenario, "client": "reference", "completed": len(done), "failed": len(results) - len(done),
         "dispatch_lag_p50_ms": pct(lag, 50), "dispatch_lag_p99_ms": pct(lag, 99),
         "cpu_cores": cpu / duration if duration > 0 else 0.0,
         "cpu_per_request_us": cpu * 1e6 / max(1, len(results)),
         "cpu_per_event_us": cpu * 1e6 / max(1, events), "achieved_rps": len(done) / duration if duration else 0.0}
    o.update(extra)
    return o


def emit(o):
    print(json.dumps(o), flush=True)


async def scenario_rate(args, url):
    await open_loop(args, url, float("inf"), 200, 8, 1, False, "warm")
    best, misses = 0, 0
    for i, rate in enumerate(int(r) for r in args.rates.split(",")):
        count = max(200, int(rate * args.seconds))
        c0 = cpu_s()
        results, t0 = await open_loop(args, url, rate, count, 8, 1, False, f"rate{i}")
        o = summary(results, t0, cpu_s() - c0, "rate", {"rate": rate})
        emit(o)
        if o["failed"] == 0 and o["dispatch_lag_p99_ms"] < 1.0:
            best = max(best, rate)
        # The ladder goes on while the client keeps up at all; two rungs far behind end it.
        if o["failed"] == 0 and o["dispatch_lag_p99_ms"] < 20.0:
            misses = 0
        else:
            misses += 1
            if misses >= 2:
                break
    emit({"scenario": "rate_best", "client": "reference", "rate": best})


async def scenario_stream(args, url):
    """Closed loop: `users` coroutines, each sending its next request when the previous ends."""
    prompts = [words(8, i) for i in range(100)]
    counter = iter(range(args.prompts))
    results = []

    async def user():
        for i in counter:
            results.append(await request(url, args.model, prompts[i % 100], args.tokens, True, f"stream-{i}",
                                         time.perf_counter()))

    c0 = cpu_s()
    t0 = time.perf_counter()
    await asyncio.gather(*(user() for _ in range(args.users)))
    cpu = cpu_s() - c0
    duration = time.perf_counter() - t0
    events = sum(r.events for r in results)
    load = args.label or "saturating"
    o = summary(results, t0, cpu, "stream", {"load": load, "users": args.users, "events": events,
                                             "events_per_s": events / duration,
                                             "events_per_core_s": events / cpu if cpu > 0 else 0.0})
    emit(o)


async def scenario_hold(args, url):
    await open_loop(args, url, float("inf"), 4, 8, 2, True, "holdwarm")
    http("DELETE", args.url + "/debug/requests")
    base = rss_mib()
    c0 = cpu_s()
    tasks, t0 = await open_loop(args, url, float("inf"), args.users, 8, 20000, True, "hold", stop_after=True)
    loop = asyncio.get_running_loop()

    async def streaming_now():
        stats = json.loads(await loop.run_in_executor(None, http, "GET", args.url + "/debug/requests"))
        return sum(1 for r in stats["requests"]
                   if (r.get("request_id") or "").startswith("ref-hold-") and r.get("first_token_ms") is not None)

    # Until every stream generates (or 60 s pass, or requests fail), then hold.
    deadline = time.perf_counter() + 60
    while time.perf_counter() < deadline and not any(t.done() for t in tasks):
        if await streaming_now() >= args.users:
            break
        await asyncio.sleep(0.5)
    await asyncio.sleep(args.seconds)
    peak = rss_mib()
    streaming = await streaming_now()
    failed = [t.result().error for t in tasks if t.done() and not t.cancelled() and t.result().error]
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    if failed:
        print(f"reference hold: {len(failed)} requests failed, e.g. {failed[0]}", file=sys.stderr)
    emit({"scenario": "hold", "client": "reference", "requested": args.users, "streaming": streaming,
          "rss_base_mib": base, "rss_peak_mib": peak,
          "rss_per_stream_kib": (peak - base) * 1024 / streaming if streaming else 0.0,
          "cpu_cores": (cpu_s() - c0) / (time.perf_counter() - t0)})
    http("DELETE", args.url + "/debug/requests")


async def scenario_timing(args, url):
    await open_loop(args, url, float("inf"), 8, 8, 2, True, "timewarm")
    http("DELETE", args.url + "/debug/requests")
    label = args.label or "low"
    tag = "timing" + label
    c0 = cpu_s()
    results, t0 = await open_loop(args, url, args.rate, args.prompts, 32, args.tokens, True, tag, constant=False)
    cpu = cpu_s() - c0
    truth = json.loads(http("GET", args.url + "/debug/requests"))
    scale = truth.get("time_scale", 1.0)
    by_id = {r.get("request_id"): r for r in truth["requests"]}
    ttft_err, itl_err = [], []
    for r in results:
        g = by_id.get(r.request_id)
        if not g or not r.ok or g.get("first_token_ms") is None:
            continue
        ttft_err.append(abs(r.ttft * 1000 - (g["first_token_ms"] - g["accepted_ms"]) / scale))
        tok = g["token_ms"]
        if len(tok) == len(r.itl) + 1:
            for k in range(1, len(tok)):
                itl_err.append(abs(r.itl[k - 1] * 1000 - (tok[k] - tok[k - 1]) / scale))
    o = summary(results, t0, cpu, "timing", {"load": label, "rate": args.rate, "matched": len(ttft_err),
                                             "ttft_err_p50_ms": pct(ttft_err, 50), "ttft_err_p99_ms": pct(ttft_err, 99),
                                             "itl_err_p50_ms": pct(itl_err, 50), "itl_err_p99_ms": pct(itl_err, 99)})
    emit(o)


def scenario_parser(args):
    event = (b'data: {"id":"cmpl-1","object":"text_completion","created":1700000000,"model":'
             b'"kneepoint/sim-default","choices":[{"index":0,"text":" word","logprobs":null,'
             b'"finish_reason":null}],"usage":null}\n\n')
    n = args.mb * 1024 * 1024 // len(event) + 1
    stream = event * n + b"data: [DONE]\n\n"
    # aiohttp's StreamReader yields lines; the reference strips, decodes, drops the prefix, parses.
    lines = stream.split(b"\n")
    t = time.perf_counter()
    events = 0
    for chunk_bytes in lines:
        chunk_bytes = chunk_bytes.strip()
        if not chunk_bytes:
            continue
        chunk = chunk_bytes.decode("utf-8").removeprefix("data: ")
        if chunk != "[DONE]":
            data = json.loads(chunk)
            if data.get("choices"):
                events += 1
    s = time.perf_counter() - t
    emit({"scenario": "parser", "client": "reference", "mb": len(stream) / 1e6, "events": events,
          "full_mb_s": len(stream) / 1e6 / s, "full_events_s": events / s})


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--scenario", required=True)
    p.add_argument("--url", default="")
    p.add_argument("--rates", default="500,1000,2000")
    p.add_argument("--seconds", type=float, default=2)
    p.add_argument("--users", type=int, default=200)
    p.add_argument("--tokens", type=int, default=500)
    p.add_argument("--prompts", type=int, default=400)
    p.add_argument("--rate", type=float, default=20)
    p.add_argument("--label", default=None, help="timing: low|high (default low); stream: saturating|paced")
    p.add_argument("--mb", type=int, default=64)
    args = p.parse_args()
    if args.scenario == "parser":
        scenario_parser(args)
        return
    args.model = json.loads(http("GET", args.url + "/v1/models"))["data"][0]["id"]
    url = args.url + "/v1/completions"
    run = {"rate": scenario_rate, "stream": scenario_stream, "hold": scenario_hold, "timing": scenario_timing}
    if args.scenario not in run:
        sys.exit(f"reference_client.py: unknown --scenario {args.scenario}")
    asyncio.run(run[args.scenario](args, url))


if __name__ == "__main__":
    main()
