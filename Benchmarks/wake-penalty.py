#!/usr/bin/python3
"""Does work done right after a durable commit's fsync run slower than the same work warm?

    Benchmarks/wake-penalty.py [--dir /var/tmp] [--rounds 20]

A raw SQLite table in WAL with synchronous = FULL (the floor's durability) on the real disk.
Blocks of 25 durable inserts alone alternate with blocks of 25 where each insert is preceded
by a fixed busy loop (a few kilobytes of the interpreter's code, calibrated to take ~30 µs
warm). Prints the medians: the insert alone, the loop plus the insert, and the loop itself as
timed right after the previous insert's fsync. If the loop takes its warm time there and adds
only that to the insert, a processor that slept in fsync does not run slowly when it wakes.
That is all it shows: a small loop, run after the interpreter's own code has warmed up again,
cannot measure what a call with a large footprint pays for cold caches (BENCHMARKS.md,
"SecItemAdd and SecItemUpdate, bounded", for the experiment that does).
"""
import argparse
import os
import sqlite3
import statistics
import tempfile
import time


def spin(iterations):
    total = 0
    for i in range(iterations):
        total += i
    return total


def calibrate(target_seconds):
    """Iterations of spin() taking about target_seconds on a warm processor, and their time."""
    iterations = 1000
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(200):
            spin(iterations)
        each = (time.perf_counter() - start) / 200
        iterations = max(1, int(iterations * target_seconds / each))
    start = time.perf_counter()
    for _ in range(2000):
        spin(iterations)
    return iterations, (time.perf_counter() - start) / 2000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", default="/var/tmp")
    parser.add_argument("--rounds", type=int, default=20)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=options.dir) as folder:
        db = sqlite3.connect(os.path.join(folder, "floor.sqlite"), isolation_level=None)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        db.execute("CREATE TABLE items (rowid INTEGER PRIMARY KEY, service TEXT NOT NULL, "
                   "account TEXT NOT NULL, data BLOB NOT NULL, UNIQUE (service, account))")
        db.execute("BEGIN")
        for i in range(3000):
            db.execute("INSERT INTO items (service, account, data) VALUES (?, ?, ?)", ("s", "user-%07d" % i, bytes(24)))
        db.execute("COMMIT")
        iterations, warm = calibrate(30e-6)
        counter = 0

        def insert():
            nonlocal counter
            counter += 1
            db.execute("INSERT INTO items (service, account, data) VALUES (?, ?, ?)", ("s", "new-%09d" % counter, bytes(24)))

        alone, with_loop, loop_after_fsync = [], [], []
        for _ in range(options.rounds):
            for _ in range(25):
                start = time.perf_counter()
                insert()
                alone.append(time.perf_counter() - start)
            for _ in range(25):
                start = time.perf_counter()
                spin(iterations)
                looped = time.perf_counter()
                insert()
                with_loop.append(time.perf_counter() - start)
                loop_after_fsync.append(looped - start)
        db.close()
    median = lambda values: statistics.median(values) * 1e6
    print(f"insert alone {median(alone):.1f} µs; loop + insert {median(with_loop):.1f} µs "
          f"(+{median(with_loop) - median(alone):.1f}); the loop right after an fsync "
          f"{median(loop_after_fsync):.1f} µs, warm {warm * 1e6:.1f} µs")


if __name__ == "__main__":
    main()
