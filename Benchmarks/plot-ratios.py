#!/usr/bin/python3
"""Draws our keychain's cost over the raw-SQLite floor's, per operation and store size, beside
the target for that operation, from the results the last full run wrote.

usage: plot-ratios.py [RESULTS_JSON [PNG]]
  defaults: Benchmarks/results/results.json and Benchmarks/results/ratios.png

The bars are the "ours / floor" column of BENCHMARKS.md's generated table (separate loops,
medians), so the picture and the table cannot tell different stories. Needs matplotlib
(Debian: python3-matplotlib).
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
# The stage-2 targets of BENCHMARKS.md ("Verdicts"): ours / floor at most this.
TARGETS = [("lookup", "lookup (SecItemCopyMatching)", 3.0), ("add", "add (SecItemAdd)", 1.3),
           ("update", "update (SecItemUpdate)", 1.5), ("delete", "delete (SecItemDelete)", 1.5)]


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "results", "results.json")
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "results", "ratios.png")
    with open(src) as f:
        results = json.load(f)
    ours = results["systems"]["swift-keychain"]["sizes"]
    floor = results["systems"]["sqlite-floor"]["sizes"]
    sizes = sorted((n for n in ours if n in floor), key=int)
    fig, axes = plt.subplots(1, len(TARGETS), figsize=(13, 3.6), layout="constrained")
    for ax, (op, title, target) in zip(axes, TARGETS):
        ratios = [ours[n][op]["median_us"] / floor[n][op]["median_us"] for n in sizes]
        colors = ["tab:green" if r <= target else "tab:red" for r in ratios]
        bars = ax.bar([f"{int(n):,}" for n in sizes], ratios, color=colors)
        ax.bar_label(bars, labels=[f"{r:.2f}×" for r in ratios], fontsize=8)
        ax.axhline(target, color="black", linestyle="--", linewidth=1)
        ax.axhline(1.0, color="gray", linewidth=0.8)
        ax.set_ylim(0, max(max(ratios), target) * 1.18)
        ax.set_title(f"{title}\ntarget (dashed): ≤ {target:g}×", fontsize=10)
        ax.set_xlabel("items in the store")
    axes[0].set_ylabel("ours / raw SQLite floor (median)")
    m = results["machine"]
    fig.suptitle(f"Our keychain's cost over a plaintext durable SQLite floor, by operation "
                 f"(green: within the target, red: not)\nrun of {m.get('date', '?')}, {m.get('cpu', '?')}, "
                 f"{m.get('cores', '?')} cores", fontsize=10)
    fig.savefig(out, dpi=90)
    print(out)


if __name__ == "__main__":
    main()
