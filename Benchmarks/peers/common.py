"""Shared helpers for the peer drivers: timing and the summary every system reports.

The summary matches keychain-bench's (Sources/keychain-bench/Stats.swift): median, and
nearest-rank p10/p90/p99 (with fewer than 100 samples p99 is the maximum).
"""
import math
import subprocess
import sys
import time

NS = time.perf_counter_ns


def summarize(samples_ns):
    s = sorted(samples_ns)
    n = len(s)
    if n == 0:
        return {"n": 0}

    def rank(q):
        return s[min(max(math.ceil(q * n) - 1, 0), n - 1)] / 1000.0

    med = (s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2) / 1000.0
    return {"n": n, "median_us": round(med, 2), "p99_us": round(rank(0.99), 2),
            "p10_us": round(rank(0.10), 2), "p90_us": round(rank(0.90), 2),
            "mean_us": round(sum(s) / n / 1000.0, 2)}


def time_each(fn, inputs):
    lat = []
    for a in inputs:
        t = NS()
        fn(*a)
        lat.append(NS() - t)
    return summarize(lat)


def vm_hwm_kib(pid):
    """Peak resident set of another process (VmHWM), in KiB."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def run(cmd, inp=None, env=None, check=True):
    p = subprocess.run(cmd, input=inp, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and p.returncode != 0:
        raise RuntimeError(f"{cmd[0]} {cmd[1] if len(cmd) > 1 else ''} exited {p.returncode}: "
                           f"{p.stderr.decode(errors='replace')[-300:]}")
    return p


def log(msg):
    print(msg, file=sys.stderr, flush=True)


SERVICE = "com.example.bench"


def filler(i):
    return f"user-{i:07d}"


def fresh(i):
    return f"new-{i:07d}"


def secret(i, version=0):
    return f"pw{version}-{i:07d}-abcdefghijklm"[:24]


def existing_keys(n, m, seed):
    import random
    r = random.Random(seed)
    return [r.randrange(n) for _ in range(m)]
