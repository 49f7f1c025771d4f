#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Make a synthetic fleet of blkqual run results for blkqual fleet's tests.

usage: fleet_gen.py OUTDIR HOSTS DEVICES_PER_HOST SEED [--noise PCT]
                    [--plant HOST/DEV:PCT]... [--firmware-drift PCT]
                    [--other-job HOST/DEV]... [--full]

Every device runs the same job (selftests/fixtures/fleet/run-outlier's
template); its read IOPS, bandwidth and latencies get Gaussian noise of
NOISE per cent (default 3), seeded, so a fleet is the same every time.
A planted device is PCT per cent off (IOPS and bandwidth down, latency
up).  With --firmware-drift, half the hosts run firmware "2.0", whose
devices are PCT per cent slower: a group of their own.  A device given
with --other-job ran the job with bs=8k instead of 4k.  With --full, each
file also carries what a real 30-second run writes and fleet never reads
(a latency histogram, per-second intervals, two threads' figures), about
40 KB laid out as blkqual writes it, where the plain file is 2 KB.
"""
import argparse
import copy
import json
import os
import random
import sys


def add_unread_parts(job, rng):
    """What a real run's result holds beyond the figures fleet compares."""
    rd = job["total"]["read"]
    lo = 20000
    buckets = []
    for _ in range(160):
        hi = int(lo * 1.04) + 1
        buckets.append([lo, hi, rng.randrange(1, 50000)])
        lo = hi
    rd["lat_ns"]["histogram"] = {"unit": "ns", "buckets": buckets}
    job["intervals"] = [{"t_ns": i * 1000000000, "read": {"ios": rng.randrange(90000, 110000),
                                                          "lat_ns_mean": rng.random() * 4e5}}
                        for i in range(30)]
    job["threads"] = [copy.deepcopy(job["total"]) for _ in range(2)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("hosts", type=int)
    ap.add_argument("devices", type=int)
    ap.add_argument("seed", type=int)
    ap.add_argument("--noise", type=float, default=3.0)
    ap.add_argument("--plant", action="append", default=[])
    ap.add_argument("--firmware-drift", type=float, default=0.0)
    ap.add_argument("--other-job", action="append", default=[])
    ap.add_argument("--full", action="store_true")
    a = ap.parse_args()

    here = os.path.dirname(os.path.abspath(__file__))
    tmpl_path = os.path.join(here, "..", "fixtures", "fleet", "run-outlier", "hostA",
                             "nvme0n1.json")
    with open(tmpl_path) as f:
        tmpl = json.load(f)
    planted = {}
    for p in a.plant:
        dev, pct = p.rsplit(":", 1)
        planted[dev] = float(pct) / 100
    rng = random.Random(a.seed)
    # Its own stream: a --full fleet has the same figures as a plain one.
    unread_rng = random.Random(a.seed + 1000003)
    for h in range(a.hosts):
        host = "host%05d" % h
        os.makedirs(os.path.join(a.outdir, host), exist_ok=True)
        slow = a.firmware_drift and h % 2
        for d in range(a.devices):
            name = "nvme%dn1" % d
            doc = copy.deepcopy(tmpl)
            doc["host"]["hostname"] = host
            job = doc["jobs"][0]
            dev = job["targets"][0]["device"]
            dev["name"] = name
            dev["serial"] = "S%05d%02d" % (h, d)
            dev["firmware"] = "2.0" if slow else "1.0"
            job["targets"][0]["path"] = "/dev/" + name
            f = 1 + rng.gauss(0, a.noise / 100)
            f *= 1 - (a.firmware_drift / 100 if slow else 0)
            f *= 1 + planted.get("%s/%s" % (host, name), 0)
            rd = job["total"]["read"]
            rd["iops"] = round(100000 * f, 1)
            rd["bytes_per_second"] = round(409600000 * f, 1)
            lat = rd["lat_ns"]
            lat["mean"] = round(320000 / f, 1)
            lat["percentiles"]["99"] = round(900000 / f)
            if "%s/%s" % (host, name) in a.other_job:
                job["job_args"] = [x.replace("--bs=4096,4096", "--bs=8192,8192")
                                   for x in job["job_args"]]
            if a.full:
                add_unread_parts(job, unread_rng)
            with open(os.path.join(a.outdir, host, name + ".json"), "w") as out:
                json.dump(doc, out, indent=2 if a.full else None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
