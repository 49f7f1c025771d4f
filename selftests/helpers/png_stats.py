#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# What a screenshot shows, for report_test: decode a PNG (8-bit RGB or
# RGBA, non-interlaced, as chromium writes them) with the standard library
# only and print
#   size W H
#   nonwhite N        pixels that are not white
#   colours N         distinct colours
#   colour #rrggbb N  pixels of each colour asked for on the command line
#
# usage: png_stats.py FILE.png [#rrggbb ...]

import collections
import struct
import sys
import zlib


def fail(msg):
    print(f"png_stats: {msg}", file=sys.stderr)
    sys.exit(2)


def add_rows(a, b):
    """Bytewise (a + b) mod 256 of two equal-length rows, without a loop:
    add the low seven bits of each byte as one big integer (no carry can
    cross a byte), then put the top bits back with xor."""
    n = len(a)
    low = int.from_bytes(b"\x7f" * n, "big")
    x, y = int.from_bytes(a, "big"), int.from_bytes(b, "big")
    s = ((x & low) + (y & low)) ^ ((x ^ y) & ~low & ((1 << (8 * n)) - 1))
    return bytearray(s.to_bytes(n, "big"))


def unfilter(raw, width, height, bpp):
    stride = width * bpp
    prev = bytearray(stride)
    rows = []
    pos = 0
    for _ in range(height):
        ftype = raw[pos]
        line = bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        if ftype == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xFF
        elif ftype == 2:
            line = add_rows(line, prev)
        elif ftype == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xFF
        elif ftype == 4:
            # Paeth: the first pixel has no left neighbours, then inline.
            for i in range(min(bpp, stride)):
                line[i] = (line[i] + prev[i]) & 0xFF
            for i in range(bpp, stride):
                a, b, c = line[i - bpp], prev[i], prev[i - bpp]
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - c - c)
                if pa <= pb and pa <= pc:
                    line[i] = (line[i] + a) & 0xFF
                elif pb <= pc:
                    line[i] = (line[i] + b) & 0xFF
                else:
                    line[i] = (line[i] + c) & 0xFF
        elif ftype != 0:
            fail(f"unknown filter type {ftype}")
        rows.append(bytes(line))
        prev = line
    return rows


def main():
    if len(sys.argv) < 2:
        fail("usage: png_stats.py FILE.png [#rrggbb ...]")
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("not a PNG")
    pos, idat, hdr = 8, [], None
    while pos + 8 <= len(data):
        length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if ctype == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif ctype == b"IDAT":
            idat.append(body)
        elif ctype == b"IEND":
            break
    if not hdr:
        fail("no IHDR")
    width, height, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        fail(f"unsupported PNG: depth {depth}, colour type {ctype}, interlace {interlace}")
    bpp = 4 if ctype == 6 else 3
    rows = unfilter(zlib.decompress(b"".join(idat)), width, height, bpp)

    counts = collections.Counter()
    for row in rows:
        # Whole pixels as (r, g, b); alpha is ignored (screenshots are opaque).
        it = iter(row)
        if bpp == 4:
            counts.update((r, g, b) for r, g, b, _ in zip(it, it, it, it))
        else:
            counts.update(zip(it, it, it))
    white = counts.get((255, 255, 255), 0)
    print(f"size {width} {height}")
    print(f"nonwhite {width * height - white}")
    print(f"colours {len(counts)}")
    for want in sys.argv[2:]:
        key = tuple(bytes.fromhex(want.lstrip("#")))
        print(f"colour {want} {counts.get(key, 0)}")


if __name__ == "__main__":
    main()
