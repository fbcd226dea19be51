"""Our keychain end to end: `keychainctl` from process start, one process per operation.

Called by `keychain-bench core --hook` after each size, on the keychain the core run filled:
    ours_cli.py NAME=KEYCHAINCTL[,NAME=KEYCHAINCTL…] OUT_DIR QUICK N KEYCHAIN DEVICE_KEY
Writes OUT_DIR/NAME-N.json for each build of keychainctl given (e.g. the default build and
one linked with --static-swift-stdlib).
"""
import json
import os
import sys

from common import SERVICE, existing_keys, filler, fresh, log, run, time_each


def measure(ctl, n, quick, env):
    m = 20 if quick else 100
    new = [(fresh(n * 10 + 7000 + j),) for j in range(m)]
    old = [(filler(k),) for k in existing_keys(n, m, n + 1)]
    c = {}

    def lookup(a):
        assert len(run([ctl, "find-generic-password", "-s", SERVICE, "-a", a, "-w"], env=env).stdout.strip()) == 24

    c["lookup"] = time_each(lookup, old)
    c["update"] = time_each(lambda a: run([ctl, "add-generic-password", "-U", "-s", SERVICE, "-a", a, "-w", "u" * 24], env=env), old)
    c["add"] = time_each(lambda a: run([ctl, "add-generic-password", "-s", SERVICE, "-a", a, "-w", "c" * 24], env=env), new)
    c["delete"] = time_each(lambda a: run([ctl, "delete-generic-password", "-s", SERVICE, "-a", a], env=env), new)
    c["version_only"] = time_each(lambda: run([ctl, "--version"]), [()] * m)
    return c


def main():
    specs, out_dir, quick, n, keychain, device_key = sys.argv[1:7]
    n = int(n)
    quick = quick == "1"
    env = dict(os.environ, SWIFT_KEYCHAIN_PATH=keychain, SWIFT_KEYCHAIN_DEVICE_KEY_FILE=device_key)
    os.makedirs(out_dir, exist_ok=True)
    for spec in specs.split(","):
        name, ctl = spec.split("=", 1)
        c = measure(ctl, n, quick, env)
        with open(os.path.join(out_dir, f"{name}-{n}.json"), "w") as f:
            json.dump(c, f, indent=1)
        log(f"  {name} n={n}: find -w {c['lookup']['median_us']} us, --version {c['version_only']['median_us']} us")


if __name__ == "__main__":
    main()
