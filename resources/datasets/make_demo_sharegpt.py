#!/usr/bin/env python3
"""Writes the demo ShareGPT dataset (demo-sharegpt.json) deterministically.

ShareGPT format: a JSON array of {"id", "conversations": [{"from": "human"|"gpt", "value"}, ...]}.
Lengths (in whitespace-separated words, the simulator's tokens) follow log-normal distributions with a
long tail, as real chat traffic does: most prompts are short, a few are several hundred words; answers
are longer than questions. A few conversations have one turn or a very short prompt, so that the
reference's filters have something to drop.

Usage: make_demo_sharegpt.py [OUTPUT]   (default: demo-sharegpt.json next to this script)
Python 3 standard library only; the same output on every run and platform.
"""

import json
import math
import os
import random
import sys

SEED = 20261130
CONVERSATIONS = 320

WORDS = (
    "the a of to and in is it that for on with as this be are by not or from at have an was can which "
    "model server token batch cache queue request stream latency memory block kernel tensor layer vector "
    "answer question explain summarise list describe compare write short paragraph example code function "
    "python rust table data value error result report plan step load user system time rate knee curve "
    "history science music travel recipe garden budget email letter story poem translate french english "
    "network socket thread process file disk cloud price market energy water climate health sleep coffee"
).split()


def lognormal_words(rng, median, sigma, lo, hi):
    """A word count from a log-normal distribution with the given median, clipped to [lo, hi]."""
    value = int(round(math.exp(rng.gauss(math.log(median), sigma))))
    return max(lo, min(hi, value))


def text(rng, count):
    return " ".join(rng.choice(WORDS) for _ in range(count))


def conversation(rng, index):
    turns = []
    kind = rng.random()
    if kind < 0.03:  # one turn only: dropped
        turns.append(("human", text(rng, lognormal_words(rng, 30, 0.8, 4, 300))))
    else:
        if kind < 0.06:  # a greeting: prompt too short, dropped
            prompt_words = rng.randint(1, 3)
        else:
            prompt_words = lognormal_words(rng, 40, 1.2, 4, 1600)
        answer_words = lognormal_words(rng, 60, 0.8, 2, 900)
        turns.append(("human", text(rng, prompt_words)))
        turns.append(("gpt", text(rng, answer_words)))
        if rng.random() < 0.25:  # a follow-up exchange, ignored by the benchmark as by the reference
            turns.append(("human", text(rng, lognormal_words(rng, 15, 0.6, 2, 80))))
            turns.append(("gpt", text(rng, lognormal_words(rng, 40, 0.6, 2, 200))))
    return {
        "id": "demo-%04d" % index,
        "conversations": [{"from": who, "value": value} for who, value in turns],
    }


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "demo-sharegpt.json")
    rng = random.Random(SEED)
    data = [conversation(rng, i) for i in range(CONVERSATIONS)]
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        json.dump(data, f, ensure_ascii=False, indent=None, separators=(",", ":"))
        f.write("\n")
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
