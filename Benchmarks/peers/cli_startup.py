"""Command start-up, side by side: `keychainctl find-generic-password -w` against `/bin/true` and
`secret-tool lookup` (gnome-keyring-daemon on a private bus), at each size, in one run.
usage: cli_startup.py --keychainctl PATH --bench PATH --out JSON [--sizes 1000,100000] [--rounds N]

Each size: our keychain filled by `keychain-bench fill` (the engine's own adds, as the main run
fills it), gnome-keyring's login.keyring written directly with the same items in its own format
(gkr_file.py; filling it through D-Bus rewrites the whole file per store) and its daemon
restarted to load it. Then N rounds; each round runs every command once, the order rotated from
round to round, so a slow phase of a shared machine hits every row alike. Every command is
started the same way (subprocess.run, output captured) and timed from before the fork to after
its exit. Reported: median and p90 per row, and the ratios of the medians.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from common import NS, SERVICE, existing_keys, filler, fresh, log, secret  # noqa: E402
import secret_service  # noqa: E402  (the gnome-keyring provider on its own bus)


def timed(cmd, env, expect=None):
    t = NS()
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    elapsed = NS() - t
    if p.returncode != 0 or (expect is not None and p.stdout.strip() != expect):
        raise RuntimeError(f"{cmd[0]} {cmd[1] if len(cmd) > 1 else ''} exited {p.returncode}: "
                           f"{p.stderr.decode(errors='replace')[-300:]}")
    return elapsed


def summary(samples):
    s = sorted(samples)
    return {"median_us": round(statistics.median(s) / 1000, 1), "p90_us": round(s[int(len(s) * 0.9) - 1] / 1000, 1),
            "n": len(s)}


def measure_size(n, args, root):
    ours_dir = os.path.join(root, f"ours-{n}")
    os.makedirs(ours_dir)
    keychain, device_key = os.path.join(ours_dir, "k.keychain-db"), os.path.join(ours_dir, "device-key")
    t = NS()
    subprocess.run([args.bench, "fill", "--keychain", keychain, "--device-key", device_key, "--items", str(n)], check=True)
    log(f"  n={n}: our keychain filled in {(NS() - t) / 1e9:.1f} s")
    ours_env = dict(os.environ, SWIFT_KEYCHAIN_PATH=keychain, SWIFT_KEYCHAIN_DEVICE_KEY_FILE=device_key)

    rows = {}
    gkr = None
    not_run = None
    try:
        gkr = secret_service.Gkr(os.path.join(root, f"gkr-{n}"))
        t = NS()
        gkr.write_file(n)
        gkr.start()
        log(f"  n={n}: gnome-keyring's file written and loaded in {(NS() - t) / 1e9:.1f} s")
    except Exception as error:  # a peer that cannot be measured is reported, never ends the run
        not_run = f"not run: {type(error).__name__}: {error}"[:200]
        log(f"  n={n}: secret-tool {not_run}")
        if gkr is not None:
            gkr.stop()
        gkr = None

    keys = [filler(k) for k in existing_keys(n, args.rounds, n + 3)]
    commands = {
        "/bin/true": lambda r: timed(["/bin/true"], ours_env),
        "keychainctl find-generic-password -w": lambda r: timed(
            [args.keychainctl, "find-generic-password", "-s", SERVICE, "-a", keys[r], "-w"], ours_env,
            expect=secret(int(keys[r].split("-")[1])).encode()),
        "keychainctl add-generic-password": lambda r: timed(
            [args.keychainctl, "add-generic-password", "-s", SERVICE, "-a", fresh(n * 10 + r), "-w", "c" * 24], ours_env),
        "keychainctl --version": lambda r: timed([args.keychainctl, "--version"], ours_env),
    }
    if gkr is not None:
        commands["secret-tool lookup"] = lambda r: timed(
            ["secret-tool", "lookup", "service", SERVICE, "username", keys[r]], gkr.env,
            expect=secret(int(keys[r].split("-")[1])).encode())
    samples = {name: [] for name in commands}
    names = list(commands)
    try:
        for r in range(args.rounds):
            order = names[r % len(names):] + names[:r % len(names)]
            for name in order:
                samples[name].append(commands[name](r))
    finally:
        if gkr is not None:
            gkr.stop()
    for name in names:
        rows[name] = summary(samples[name])
    if not_run:
        rows["secret-tool lookup"] = {"not_run": not_run}
    return rows


def ratio(rows, a, b):
    if "median_us" not in rows.get(a, {}) or "median_us" not in rows.get(b, {}):
        return None
    return round(rows[a]["median_us"] / rows[b]["median_us"], 2)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--keychainctl", required=True)
    parser.add_argument("--bench", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--sizes", default="1000,100000")
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    result = {"keychainctl": args.keychainctl, "rounds": args.rounds, "loadavg_start": open("/proc/loadavg").read().split()[:3],
              "sizes": {}}
    with tempfile.TemporaryDirectory(dir="/var/tmp", prefix="cli-startup.") as root:
        try:
            for n in [int(x) for x in args.sizes.split(",")]:
                rows = measure_size(n, args, root)
                find = "keychainctl find-generic-password -w"
                rows["ratios"] = {"secret-tool / find -w": ratio(rows, "secret-tool lookup", find),
                                  "find -w / /bin/true": ratio(rows, find, "/bin/true"),
                                  "add / find -w": ratio(rows, "keychainctl add-generic-password", find)}
                result["sizes"][str(n)] = rows
        finally:
            secret_service.stop_all()
    result["loadavg_end"] = open("/proc/loadavg").read().split()[:3]
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
    print(f"keychainctl: {args.keychainctl}; {args.rounds} rounds per size, commands interleaved; "
          f"load average {' '.join(result['loadavg_start'])} -> {' '.join(result['loadavg_end'])}")
    print("| items | command | median | p90 |\n|---:|---|---:|---:|")
    for n, rows in result["sizes"].items():
        for name, row in rows.items():
            if name == "ratios":
                continue
            if "not_run" in row:
                print(f"| {int(n):,} | {name} | {row['not_run']} | |")
            else:
                print(f"| {int(n):,} | {name} | {row['median_us'] / 1000:.2f} ms | {row['p90_us'] / 1000:.2f} ms |")
    for n, rows in result["sizes"].items():
        r = rows["ratios"]
        print(f"{int(n):,} items: secret-tool lookup / keychainctl find -w = {r['secret-tool / find -w']} (target >= 3); "
              f"find -w / /bin/true = {r['find -w / /bin/true']} (target <= 5); add / find -w = {r['add / find -w']}")


if __name__ == "__main__":
    main()
