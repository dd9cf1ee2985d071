"""A large collection of distinct small JPEGs in year/month folders, made at test time.

A dozen base photos are drawn with the vips command line; every file is one of them with a JPEG
comment segment naming it, so each has its own bytes (its own content hash, version and pyramid)
at the cost of a file write. Modification times step evenly over three years, in name order, so
the photos' dates fill the months their folders say. Used by the browser tests (thousands) and
bench/library.sh (up to 100,000)."""

import os
import struct
import subprocess
import tempfile
import time

from photos import make_photo

BASES = [(320, 240), (240, 320), (360, 240), (300, 300), (400, 225), (240, 360)]
YEARS = 3


def _bases():
    with tempfile.TemporaryDirectory() as work:
        made = []
        for i, (width, height) in enumerate(BASES * 2):
            drawn, path = os.path.join(work, f"drawn{i}.jpg"), os.path.join(work, f"base{i}.jpg")
            make_photo(drawn, width * 4, height * 4, seed=i)
            # Shrunk, the zone plate's rings make each base look its own, in a few kilobytes.
            subprocess.run(["vips", "thumbnail", drawn, f"{path}[Q=80,strip]", str(max(width, height))], check=True)
            with open(path, "rb") as f:
                made.append(f.read())
        return made


def make_collection(folder, count, start=None):
    """Writes `count` distinct JPEGs below `folder` as YYYY/MM/IMG_NNNNNN.jpg; returns their relative paths."""
    bases = _bases()
    start = start if start is not None else time.time() - YEARS * 365 * 86400
    step = YEARS * 365 * 86400 / max(1, count)
    paths = []
    made_folders = set()
    for n in range(count):
        when = start + n * step
        stamp = time.gmtime(when)
        relative = f"{stamp.tm_year}/{stamp.tm_mon:02d}/IMG_{n:06d}.jpg"
        directory = os.path.join(folder, os.path.dirname(relative))
        if directory not in made_folders:
            os.makedirs(directory, exist_ok=True)
            made_folders.add(directory)
        base = bases[n % len(bases)]
        comment = f"photoscroll collection photo {n}".encode()
        segment = b"\xff\xfe" + struct.pack(">H", len(comment) + 2) + comment
        path = os.path.join(folder, relative)
        with open(path, "wb") as f:
            f.write(base[:2] + segment + base[2:])
        os.utime(path, (when, when))
        paths.append(relative)
    return paths
