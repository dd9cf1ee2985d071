"""Test photos made at test time with the vips command line: nothing is read from outside the repo."""

import os
import shutil
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


# Where scripts/browser-test.py keeps the photos drawn in this run: every test process draws the
# same few, and a copy costs a millisecond where drawing one costs a second of vips.
CACHE = os.environ.get("PHOTOSCROLL_TEST_PHOTO_CACHE")


def make_photo(path, width, height, seed=0):
    """A colourful gradient with a fine zone plate in the middle, so every level and tile looks
    different. Drawn once per run when the runner gives a cache; each caller gets its own copy,
    and a photo appears at `path` whole, as a file copied in by hand would."""
    if not CACHE:
        return _draw(path, width, height, seed)
    kept = os.path.join(CACHE, f"{width}x{height}-{seed % 4}.jpg")
    if not os.path.exists(kept):
        # Drawn beside it and renamed: a process drawing the same photo at once loses nothing.
        drawing = f"{kept}.{os.getpid()}.jpg"
        _draw(drawing, width, height, seed)
        os.replace(drawing, kept)
    copy = os.path.join(CACHE, f".copy-{os.getpid()}-{os.path.basename(path)}")
    shutil.copyfile(kept, copy)
    try:
        os.replace(copy, path)
    except OSError:  # another file system
        os.remove(copy)
        shutil.copyfile(kept, path)


def _draw(path, width, height, seed):
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


def _exif_block(primary, exif=(), gps=()):
    """A big-endian TIFF structure: IFD0 entries, then an EXIF and a GPS sub-directory.
    Entries are (tag, type, values): type 2 a str, 3 shorts, 4 longs, 5 (numerator, denominator) pairs."""
    import struct

    def encode(kind, values):
        if kind == 2:
            data = values.encode() + b"\0"
            return len(data), data
        if kind == 3:
            return len(values), b"".join(struct.pack(">H", v) for v in values)
        if kind == 4:
            return len(values), b"".join(struct.pack(">I", v) for v in values)
        return len(values), b"".join(struct.pack(">II", n, d) for n, d in values)

    def directory(entries, start, extra=()):
        """Bytes of one IFD placed at `start`, its out-of-line values right after it."""
        entries = sorted(list(entries) + list(extra))
        size = 2 + 12 * len(entries) + 4
        head, tail = struct.pack(">H", len(entries)), b""
        for tag, kind, values in entries:
            count, data = encode(kind, values)
            if len(data) <= 4:
                head += struct.pack(">HHI", tag, kind, count) + data.ljust(4, b"\0")
            else:
                head += struct.pack(">HHII", tag, kind, count, start + size + len(tail))
                tail += data + (b"\0" if len(data) % 2 else b"")
        return head + struct.pack(">I", 0) + tail

    # Sizes first (pointers are 4 bytes whatever they hold), then the real offsets.
    ifd0_len = len(directory(primary, 8, [(0x8769, 4, [0]), (0x8825, 4, [0])]))
    exif_at = 8 + ifd0_len
    exif_len = len(directory(exif, exif_at))
    gps_at = exif_at + exif_len
    ifd0 = directory(primary, 8, [(0x8769, 4, [exif_at]), (0x8825, 4, [gps_at])])
    return b"MM\0*" + struct.pack(">I", 8) + ifd0 + directory(exif, exif_at) + directory(gps, gps_at)


def camera_exif(make=None, model=None, lens=None, taken=None, offset=None, aperture=None, exposure=None,
                iso=None, focal=None, focal35=None, flash=None, latitude=None, longitude=None):
    """EXIF fields as a camera writes them: aperture, exposure and focal as (numerator, denominator)."""
    primary, exif, gps = [], [], []
    if make: primary.append((0x010F, 2, make))
    if model: primary.append((0x0110, 2, model))
    if taken: exif.append((0x9003, 2, taken))
    if offset: exif.append((0x9011, 2, offset))
    if aperture: exif.append((0x829D, 5, [aperture]))
    if exposure: exif.append((0x829A, 5, [exposure]))
    if iso: exif.append((0x8827, 3, [iso]))
    if focal: exif.append((0x920A, 5, [focal]))
    if focal35: exif.append((0xA405, 3, [focal35]))
    if flash is not None: exif.append((0x9209, 3, [flash]))
    if lens: exif.append((0xA434, 2, lens))
    if latitude is not None:
        def dms(value):
            value = abs(value)
            d = int(value); m = int((value - d) * 60); s = round(((value - d) * 60 - m) * 60 * 100)
            return [(d, 1), (m, 1), (s, 100)]
        gps += [(1, 2, "N" if latitude >= 0 else "S"), (2, 5, dms(latitude)),
                (3, 2, "E" if longitude >= 0 else "W"), (4, 5, dms(longitude))]
    return _exif_block(primary, exif, gps)


def add_exif(path, block):
    """Makes an EXIF block (the TIFF structure) a JPEG's only APP1 EXIF segment, right after SOI."""
    import struct
    with open(path, "rb") as f:
        jpeg = f.read()
    assert jpeg[:2] == b"\xff\xd8", "not a JPEG"
    # Keep every segment up to the image data but an EXIF block libvips may have written.
    kept, i = b"", 2
    while i + 4 <= len(jpeg) and jpeg[i] == 0xFF and jpeg[i + 1] not in (0xDA, 0xD9):
        length = struct.unpack(">H", jpeg[i + 2:i + 4])[0]
        segment = jpeg[i:i + 2 + length]
        if not (jpeg[i + 1] == 0xE1 and segment[4:10] == b"Exif\0\0"):
            kept += segment
        i += 2 + length
    payload = b"Exif\0\0" + block
    with open(path, "wb") as f:
        f.write(b"\xff\xd8\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + kept + jpeg[i:])
