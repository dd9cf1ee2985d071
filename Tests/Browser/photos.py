"""Test photos made at test time with the vips command line: nothing is read from outside the repo."""

import os
import subprocess
import tempfile

# name, width, height: landscape, portrait, panorama, and one large enough for deep zoom.
SHAPES = [
    ("landscape", 1600, 1000),
    ("portrait", 900, 1400),
    ("panorama", 3000, 700),
    ("large", 4000, 3000),
]


def _vips(*args):
    subprocess.run(["vips", *map(str, args)], check=True, stdout=subprocess.DEVNULL)


def make_photo(path, width, height, seed=0):
    """A colourful gradient with a fine zone plate in the middle, so every level and tile looks different."""
    with tempfile.TemporaryDirectory() as work:
        xy, rg, zone, blue, rgb, cast = (os.path.join(work, n + ".v") for n in ("xy", "rg", "z", "b", "rgb", "u"))
        _vips("xyz", xy, width, height)
        gx, gy = 255 / width, 255 / height
        coefficients = [(gx, gy, 0, 0), (-gx, gy, 255, 0), (gx, -gy, 0, 255), (-gx, -gy, 255, 255)][seed % 4]
        _vips("linear", "--", xy, rg, f"{coefficients[0]} {coefficients[1]}", f"{coefficients[2]} {coefficients[3]}")
        _vips("zone", zone, width, height)
        _vips("linear", zone, blue, 110, 128)
        _vips("bandjoin", f"{rg} {blue}", rgb)
        _vips("cast", rgb, cast, "uchar")
        _vips("copy", cast, f"{path}[Q=90]", "--interpretation", "srgb")


def make_library(folder, shapes=SHAPES):
    """Writes one JPEG per shape into `folder`; returns {name: (width, height)}."""
    os.makedirs(folder, exist_ok=True)
    made = {}
    for seed, (name, width, height) in enumerate(shapes):
        make_photo(os.path.join(folder, f"{name}.jpg"), width, height, seed)
        made[name] = (width, height)
    return made


def make_many(folder, count, width=96, height=64):
    """`count` small photos, each a different file: one JPEG made once, then written again with its
    number in a comment segment, so a library of thousands is made in a moment."""
    import struct
    os.makedirs(folder, exist_ok=True)
    base = os.path.join(folder, ".base.jpg")
    make_photo(base, width, height)
    with open(base, "rb") as f:
        jpeg = f.read()
    os.remove(base)
    for i in range(count):
        text = f"photo {i}".encode()
        segment = b"\xff\xfe" + struct.pack(">H", len(text) + 2) + text
        with open(os.path.join(folder, f"p{i:05d}.jpg"), "wb") as f:
            f.write(jpeg[:2] + segment + jpeg[2:])
