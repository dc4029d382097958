#!/usr/bin/python3
"""A long soak against kneepoint-sim at a high time scale: kneepoint-cli's resident memory against the
requests done, sampled every second (the RSS curve of docs/BENCHMARKS.md, "Soak").

  bench/bench_soak.py [--build build/dev] [--rate 2000] [--duration 300] [--window 10] [--tokens 16]

Prints one JSON object per sample ({"elapsed_s", "requests", "rss_mib"}), then a summary line with the RSS
at the first sample past 100,000 requests and at the end, their ratio, and the lines of the step's
metrics file (the server samples kept). Figures, never assertions."""
import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        return None
    return None


class Windows:
    """Reads steps/000.windows.jsonl as it grows: requests ended so far."""

    def __init__(self, path):
        self.path, self.offset, self.requests, self.windows = path, 0, 0, 0

    def poll(self):
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                data = f.read()
        except OSError:
            return self.requests
        end = data.rfind(b"\n") + 1
        for line in data[:end].splitlines():
            w = json.loads(line)
            self.requests += w["completed"] + w["failed"]
            self.windows += 1
        self.offset += end
        return self.requests


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build/dev")
    ap.add_argument("--rate", type=float, default=2000)
    ap.add_argument("--duration", type=float, default=300)
    ap.add_argument("--window", type=float, default=10)
    ap.add_argument("--tokens", type=int, default=16)
    ap.add_argument("--time-scale", type=float, default=1000)
    ap.add_argument("--no-telemetry", action="store_true",
                    help="do not scrape the server's /metrics")
    a = ap.parse_args()
    sim_bin = os.path.join(a.build, "app/sim/kneepoint-sim")
    cli_bin = os.path.join(a.build, "app/cli/kneepoint-cli")
    if not os.access(cli_bin, os.X_OK):  # the build without the desktop libraries runs the same soak
        cli_bin += "-headless"
    port = free_port()
    sim = subprocess.Popen([sim_bin, "--port", str(port), "--time-scale", str(a.time_scale)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/health", timeout=1)
            break
        except OSError:
            time.sleep(0.1)
    model = json.load(urllib.request.urlopen(base + "/v1/models", timeout=5))["data"][0]["id"]
    out = tempfile.mkdtemp(prefix="kneepoint-soak-")
    run_dir = os.path.join(out, "run")
    no_metrics = os.path.join(out, "no-metrics.json")
    with open(no_metrics, "w") as f:
        json.dump({"schema": "kneepoint.profile/1", "target": {"base_url": base, "metrics_url": "off"}}, f)
    cli = subprocess.Popen([cli_bin, "soak", "--base-url", base, "--model", model, "--request-rate", str(a.rate),
                            "--duration", f"{a.duration}s", "--window", f"{a.window}s",
                            "--random-input-len", "8", "--random-output-len", str(a.tokens),
                            "--random-range-ratio", "0", "--ignore-eos", "--no-preflight", "--allow-high-load",
                            "--quiet", "--out", run_dir]
                           + (["--profile", no_metrics] if a.no_telemetry else []), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    windows = Windows(os.path.join(run_dir, "steps/000.windows.jsonl"))
    start = time.monotonic()
    samples = []
    while cli.poll() is None:
        time.sleep(1.0)
        rss = rss_mib(cli.pid)
        if rss is None:
            break
        s = {"elapsed_s": round(time.monotonic() - start, 1), "requests": windows.poll(), "rss_mib": round(rss, 1)}
        samples.append(s)
        print(json.dumps(s), flush=True)
    cli.wait()
    sim.terminate()
    sim.wait()
    requests = windows.poll()
    lines = 0
    try:
        with open(os.path.join(run_dir, "steps/000.requests.jsonl"), "rb") as f:
            for _ in f:
                lines += 1
    except OSError:
        pass
    scrapes = 0  # the server samples the step's metrics file kept (a long step's are thinned)
    try:
        with open(os.path.join(run_dir, "steps/000.metrics.jsonl"), "rb") as f:
            for _ in f:
                scrapes += 1
    except OSError:
        pass
    at_100k = next((s for s in samples if s["requests"] >= 100000), None)
    last = samples[-1] if samples else None
    summary = {"scenario": "soak", "rate": a.rate, "telemetry": not a.no_telemetry, "duration_s": a.duration, "tokens": a.tokens,
               "requests": requests, "records_written": lines, "windows": windows.windows, "metrics_lines": scrapes,
               "exit": cli.returncode, "stderr": cli.stderr.read().decode()[-400:],
               "rss_at_100k_mib": at_100k and at_100k["rss_mib"], "rss_at_end_mib": last and last["rss_mib"],
               "requests_at_end_sample": last and last["requests"],
               "peak_rss_mib": max((s["rss_mib"] for s in samples), default=None)}
    if at_100k and last:
        summary["end_over_100k"] = round(last["rss_mib"] / at_100k["rss_mib"], 3)
    print(json.dumps(summary), flush=True)
    print(f"run directory: {run_dir}", file=sys.stderr)


if __name__ == "__main__":
    main()
