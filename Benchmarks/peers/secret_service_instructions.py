"""What one libsecret lookup costs each Secret Service daemon, in messages and in instructions.

usage: secret_service_instructions.py --keychaind PATH [--items 1000] [--lookups 300] [--gkr]
                                      [--trace-only] [--strace] [--callgrind-out FILE]

Not timed, so the shared machine's load does not move the figures:

- **messages**: `dbus-monitor` (text, and `--pcap` for each message's size on the wire) records
  the private bus while the long-lived libsecret client of secret_service.py does three lookups
  (`secret_password_lookup_sync`, after a warm-up lookup that opened its session); printed per
  provider, so an extra round trip, property read or signal one daemon causes shows;
- **instructions**: keychaind runs under valgrind's callgrind; after the fill and a warm-up the
  counters are zeroed (`callgrind_control -z`), the client does --lookups lookups, and the counters
  are dumped (`callgrind_control -d`): instructions in the daemon (every thread, libdbus, SQLite,
  the Swift runtime and swift-crypto included) divided by the lookups.

The providers, buses and client are the ones of secret_service.py (private dbus-daemon with no
service directories, throw-away HOME under /var/tmp).
"""
import argparse
import glob
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import secret_service as ss  # noqa: E402
from common import filler, log, secret  # noqa: E402


def pcap_sizes(path):
    """The length of every message in a dbus-monitor --pcap file, in order."""
    with open(path, "rb") as f:
        data = f.read()
    sizes, at = [], 24  # global header
    while at + 16 <= len(data):
        _, _, incl, _ = struct.unpack_from("<IIII", data, at)
        sizes.append(incl)
        at += 16 + incl
    return sizes


def trace(provider, pairs):
    """The messages on the provider's bus during the lookups of `pairs`: [(line, size)]."""
    text = os.path.join(provider.root, "monitor.txt")
    pcap = os.path.join(provider.root, "monitor.pcap")
    mons = [ss.start(["dbus-monitor", "--session"], env=provider.env, stdout=open(text, "w"),
                     stderr=subprocess.DEVNULL),
            ss.start(["dbus-monitor", "--session", "--pcap"], env=provider.env, stdout=open(pcap, "wb"),
                     stderr=subprocess.DEVNULL)]
    time.sleep(1.0)
    provider.ask(op="lookup", pairs=pairs)
    time.sleep(1.0)
    for m in mons:
        ss.stop(m)
    headers = [ln.rstrip() for ln in open(text) if ln and not ln.startswith((" ", "\t"))]
    sizes = pcap_sizes(pcap)
    # Both monitors begin with their own BecomeMonitor traffic; keep the lookups' part.
    return headers, sizes


def show(label, headers, sizes):
    print(f"\n## {label}: messages for {LOOKUPS_TRACED} lookups")
    keep = [h for h in headers if "org.freedesktop.Secret" in h or "member=" not in h]
    for h in keep:
        print("  " + h)
    print(f"  (pcap message sizes, in order, monitor set-up included: {sizes})")


LOOKUPS_TRACED = 3


def callgrind(ours, args):
    """Restarts keychaind under callgrind and counts its instructions over the lookups."""
    out = args.callgrind_out or os.path.join(ours.root, "callgrind.out")
    ours.stop_client()
    ss.stop(ours.daemon)
    # valgrind 3.19 cannot read the debug information Swift 6.3 writes; symbols stay.
    stripped = os.path.join(ours.root, "keychaind")
    subprocess.run(["strip", "--strip-debug", "-o", stripped, ours.keychaind], check=True)
    ours.daemon = ss.start(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, stripped,
                            "--log-level", "warning"], env=ours.env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=open(os.path.join(ours.root, "daemon.err"), "ab"))
    ours.wait_for_name(timeout=300)
    ours.start_client(sys.executable)
    warm = [[filler(i), secret(i)] for i in range(0, args.items, max(1, args.items // 50))]
    ours.ask(op="lookup", pairs=warm)
    pid = str(ours.daemon.pid)
    subprocess.run(["callgrind_control", "-z", pid], check=True, stdout=subprocess.DEVNULL)
    step = max(1, args.items // args.lookups)
    pairs = [[filler((i * step + 7) % args.items), secret((i * step + 7) % args.items)] for i in range(args.lookups)]
    ours.ask(op="lookup", pairs=pairs)
    subprocess.run(["callgrind_control", "-d", pid], check=True, stdout=subprocess.DEVNULL)
    dumps = sorted(glob.glob(out + ".*"), key=os.path.getmtime)
    total = None
    with open(dumps[-1]) as f:
        for line in f:
            if line.startswith(("summary:", "totals:")):
                total = int(line.split()[1])
                break
    print(f"\nkeychaind under callgrind: {total:,} instructions over {args.lookups} lookups at "
          f"{args.items:,} items = {total // args.lookups:,} per lookup (dump {dumps[-1]})")
    return total // args.lookups


def syscalls(ours, args):
    """System calls keychaind makes per lookup: `strace -c` attached for the lookups only."""
    warm = [[filler(i), secret(i)] for i in range(0, args.items, max(1, args.items // 50))]
    ours.ask(op="lookup", pairs=warm)
    out = os.path.join(ours.root, "strace.txt")
    tracer = ss.start(["strace", "-c", "-f", "-p", str(ours.daemon.pid), "-o", out],
                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)
    step = max(1, args.items // args.lookups)
    pairs = [[filler((i * step + 7) % args.items), secret((i * step + 7) % args.items)] for i in range(args.lookups)]
    ours.ask(op="lookup", pairs=pairs)
    tracer.send_signal(2)
    tracer.wait(30)
    print(f"\nkeychaind's system calls over {args.lookups} lookups (strace -c):")
    print(open(out).read())


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--keychaind", required=True)
    p.add_argument("--items", type=int, default=1000)
    p.add_argument("--lookups", type=int, default=300)
    p.add_argument("--gkr", action="store_true", help="also trace gnome-keyring-daemon")
    p.add_argument("--trace-only", action="store_true")
    p.add_argument("--callgrind-out")
    p.add_argument("--strace", action="store_true", help="also count keychaind's system calls per lookup")
    p.add_argument("--keep", action="store_true", help="keep the work folder")
    args = p.parse_args()
    work = tempfile.mkdtemp(prefix="swift-keychain-ssi.", dir="/var/tmp")
    ours = ss.Ours(os.path.join(work, "ours"), args.keychaind)
    gkr = ss.Gkr(os.path.join(work, "gkr")) if args.gkr else None
    try:
        providers = [ours] + ([gkr] if gkr else [])
        for prov in providers:
            prov.start()
            prov.start_client(sys.executable)
            n = args.items if prov is ours else min(args.items, 300)
            log(f"filling {prov.label} to {n} items")
            prov.ask(op="fill", start=0, end=n)
            prov.ask(op="lookup", pairs=[[filler(0), secret(0)]])  # opens the client's session
            headers, sizes = trace(prov, [[filler(i), secret(i)] for i in range(1, 1 + LOOKUPS_TRACED)])
            show(prov.label, headers, sizes)
        if gkr:
            gkr.stop()
        if args.strace:
            syscalls(ours, args)
        if not args.trace_only:
            callgrind(ours, args)
    finally:
        ours.stop()
        if gkr:
            gkr.stop()
        ss.stop_all()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
