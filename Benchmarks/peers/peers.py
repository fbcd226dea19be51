"""Runs one group of peer systems through the shared workload and writes a JSON file.

usage: peers.py GROUP OUT.json SIZES QUICK WORKDIR
  GROUP: gnome-keyring (run inside private_bus.sh) | python-keyring | kernel-keyring | baseline
"""
import importlib.metadata
import json
import os
import sys

from common import log, run, time_each


def versions():
    out = {}
    for pkg in ("gnome-keyring", "libsecret-1-0", "keyutils", "libsqlite3-0"):
        p = run(["dpkg-query", "-W", "-f=${Version}", pkg], check=False)
        out[pkg] = p.stdout.decode() or None
    for dist in ("keyring", "keyrings.alt", "pycryptodome"):
        try:
            out[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            out[dist] = None
    return out


def main():
    group, out_path, sizes, quick, workdir = sys.argv[1:6]
    sizes = [int(x) for x in sizes.split(",")]
    quick = quick == "1"
    os.makedirs(workdir, exist_ok=True)
    python = sys.executable
    try:
        res = measure(group, sizes, quick, workdir, python)
    except Exception as error:  # a peer that cannot be measured is reported, never ends the run
        reason = f"not run: {type(error).__name__}: {error}"[:200]
        log(f"  {group}: {reason}")
        res = {group: {"label": f"{group} (not run)", "mode": "in-process", "sizes": {},
                       "not_run": {str(n): reason for n in sizes}}}
    with open(out_path, "w") as f:
        json.dump(res, f, indent=1)
    log(f"  wrote {out_path}")


def measure(group, sizes, quick, workdir, python):
    if group == "gnome-keyring":
        import gnome_keyring
        res = gnome_keyring.bench(sizes, quick, fill_budget_s=60 if quick else 240, python=python)
    elif group == "python-keyring":
        import python_keyring
        res = python_keyring.bench(sizes, quick, workdir, python)
    elif group == "kernel-keyring":
        import kernel_keyring
        res = kernel_keyring.bench(sizes, quick)
    elif group == "baseline":
        m = 50 if quick else 200
        res = {"_baseline": {
            "bin_true": time_each(lambda: run(["/bin/true"]), [()] * m),
            "python_startup": time_each(lambda: run([python, "-c", "pass"]), [()] * (m // 4)),
            "versions": versions()}}
    else:
        raise SystemExit(__doc__)
    return res


if __name__ == "__main__":
    main()
