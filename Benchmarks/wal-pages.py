#!/usr/bin/python3
"""Which B-trees a durable add writes: ours (through SecItemAdd) and the raw-SQLite floor's.

    Benchmarks/wal-pages.py [KEYCHAIN_BENCH] [--items 1000] [--adds 200]

KEYCHAIN_BENCH is the release bench (default: Benchmarks/.build/release/keychain-bench). Each
store is filled to --items items, its WAL emptied (wal_checkpoint(TRUNCATE)), then --adds items
are added, one durable transaction each. Every frame left in the WAL names the page it holds;
SQLite's dbstat table says which table or index owns that page. Prints frames per add by
owner. Runs on tmpfs when /dev/shm exists (fsync is not what is counted here).
"""
import argparse
import collections
import os
import sqlite3
import struct
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def wal_pages(path, commits):
    """The page number of every frame of the WAL's current generation, in order. Stops with an
    error unless exactly `commits` transactions are in it: a checkpoint that restarted the WAL
    during the adds would otherwise leave some of them out of the count."""
    with open(path + "-wal", "rb") as wal:
        data = wal.read()
    page_size = struct.unpack(">I", data[8:12])[0]
    salts = data[16:24]
    pages, committed, offset = [], 0, 32
    # A frame belongs to the current generation when its header repeats the WAL header's salts;
    # frames left from before a restart carry older ones.
    while offset + 24 + page_size <= len(data) and data[offset + 8:offset + 16] == salts:
        page, size_after_commit = struct.unpack(">II", data[offset:offset + 8])
        pages.append(page)
        committed += 1 if size_after_commit else 0
        offset += 24 + page_size
    if committed != commits:
        raise SystemExit(f"{path}: {committed} commits in the WAL, not {commits}: a checkpoint restarted it; use fewer --adds")
    return pages


def report(name, path, adds):
    # The WAL is read before any connection of ours opens the file: the last connection to close
    # checkpoints it and deletes it. (keychain-bench leaves its keychain open when it exits, so
    # its WAL stays.)
    pages = wal_pages(path, adds)
    db = sqlite3.connect(path)
    owners = {page: owner for owner, page in db.execute("SELECT name, pageno FROM dbstat")}
    db.close()
    counts = collections.Counter(owners.get(page, "free or header") if page != 1 else "header (page 1)" for page in pages)
    print(f"{name}: {len(pages)} frames for {adds} adds, {len(pages) / adds:.2f} per add")
    for owner, count in counts.most_common():
        print(f"  {owner:32} {count / adds:.2f} per add")


def checkpoint(path):
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def ours(bench, folder, items, adds):
    keychain, device_key = os.path.join(folder, "k.keychain-db"), os.path.join(folder, "device-key")
    fill = [bench, "fill", "--keychain", keychain, "--device-key", device_key]
    subprocess.run(fill + ["--items", str(items)], check=True)
    checkpoint(keychain)
    subprocess.run(fill + ["--from", str(items), "--items", str(items + adds)], check=True)
    report("swift-keychain (SecItemAdd)", keychain, adds)


def floor(folder, items, adds):
    # The schema and names of Benchmarks/Sources/keychain-bench/SQLiteFloorSystem.swift and
    # Workload.swift: one transaction for the fill, one per add.
    path = os.path.join(folder, "floor.sqlite")
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("PRAGMA wal_autocheckpoint = 0")  # every add's frames stay in the WAL to be counted
    db.execute("CREATE TABLE items (rowid INTEGER PRIMARY KEY, service TEXT NOT NULL, account TEXT NOT NULL, "
               "data BLOB NOT NULL, cdat REAL NOT NULL, mdat REAL NOT NULL, UNIQUE (service, account))")
    insert = "INSERT INTO items (service, account, data, cdat, mdat) VALUES (?, ?, ?, ?, ?)"
    def row(account):
        return ("com.example.bench", account, bytes(24), time.time(), time.time())
    db.execute("BEGIN")
    for i in range(items):
        db.execute(insert, row("user-%07d" % i))
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for i in range(adds):
        db.execute(insert, row("new-%07d" % (90_000_000 + items + i)))
    report("raw-SQLite floor", path, adds)  # before closing: see report()
    db.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bench", nargs="?", default=os.path.join(HERE, ".build/release/keychain-bench"))
    parser.add_argument("--items", type=int, default=1000)
    parser.add_argument("--adds", type=int, default=200)
    options = parser.parse_args()
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(dir=base) as folder:
        ours(options.bench, folder, options.items, options.adds)
        floor(folder, options.items, options.adds)


if __name__ == "__main__":
    main()
