#!/usr/bin/env python3
"""Writes the GIFs of this folder byte by byte, so each tests one thing giflib and our compositing must
get right (the pixels are known: index (x // 3 + y // 2) % 4 of a 4-colour table, unless said). The LZW
stream is the simplest valid one: 9-bit codes with a clear code every 254 codes, so the table never
grows. photo.gif is made by ImageMagick from libjpeg-turbo/testorig.jpg (see make.sh)."""
import os, struct

HERE = os.path.dirname(os.path.abspath(__file__))
GLOBAL = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
LOCAL = [(255, 255, 0), (0, 255, 255), (255, 0, 255), (0, 0, 0)]


def table(colours):
    out = b"".join(bytes(c) for c in colours)
    return out + b"\0" * (3 * 256 - len(out))  # 256 entries: the table's size field says 7


def lzw(indices):
    """Min code size 8: clear = 256, end = 257, codes of 9 bits, a clear every 254 literals."""
    codes, run = [256], 0
    for i in indices:
        if run == 254:
            codes.append(256); run = 0
        codes.append(i); run += 1
    codes.append(257)
    bits, nbits, data = 0, 0, bytearray()
    for c in codes:
        bits |= c << nbits; nbits += 9
        while nbits >= 8:
            data.append(bits & 0xFF); bits >>= 8; nbits -= 8
    if nbits:
        data.append(bits & 0xFF)
    blocks = bytearray([8])
    for i in range(0, len(data), 255):
        chunk = data[i:i + 255]
        blocks += bytes([len(chunk)]) + chunk
    return bytes(blocks + b"\0")


def pattern(w, h):
    return [[(x // 3 + y // 2) % 4 for x in range(w)] for y in range(h)]


def image(left, top, rows, local=None, interlaced=False):
    h, w = len(rows), len(rows[0])
    order = list(range(h))
    if interlaced:
        order = list(range(0, h, 8)) + list(range(4, h, 8)) + list(range(2, h, 4)) + list(range(1, h, 2))
    flags = (0x80 | 7 if local else 0) | (0x40 if interlaced else 0)
    out = b"," + struct.pack("<HHHHB", left, top, w, h, flags)
    if local:
        out += table(local)
    return out + lzw([i for y in order for i in rows[y]])


def gce(transparent=None, delay=0):
    flags = 1 if transparent is not None else 0
    return b"!\xf9\x04" + struct.pack("<BHB", flags, delay, transparent or 0) + b"\0"


def gif(width, height, *parts, global_table=GLOBAL):
    flags = (0x80 | 0x70 | 7) if global_table else 0x70
    head = b"GIF89a" + struct.pack("<HHBBB", width, height, flags, 0, 0)
    if global_table:
        head += table(global_table)
    return head + b"".join(parts) + b";"


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


W, H = 24, 16
write("global-palette.gif", gif(W, H, image(0, 0, pattern(W, H))))
write("local-palette.gif", gif(W, H, image(0, 0, pattern(W, H), local=LOCAL)))
write("transparent-index.gif", gif(W, H, gce(transparent=3), image(0, 0, pattern(W, H))))
write("interlaced.gif", gif(W, H, image(0, 0, pattern(W, H), interlaced=True)))
write("interlaced-tall.gif", gif(5, 37, image(0, 0, pattern(5, 37), interlaced=True)))
write("offset-frame.gif", gif(30, 20, image(7, 5, pattern(10, 6))))
animated = [b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"]
animated += [gce(delay=10), image(0, 0, pattern(W, H))]
animated += [gce(delay=10), image(0, 0, [[3 - i for i in row] for row in pattern(W, H)], local=LOCAL)]
write("animated.gif", gif(W, H, *animated))
# Frames that must be refused.
whole = gif(W, H, image(0, 0, pattern(W, H)))
# Cut 60 bytes into the second data sub-block: giflib reads whole sub-blocks, so the rows of the
# first (about 9 of the 16) are there and the rest are not.
write("x-truncated.gif", whole[: 13 + 768 + 10 + 2 + 255 + 60])
write("x-huge-screen.gif", gif(65535, 65535, image(0, 0, pattern(4, 4))))
write("x-huge-frame.gif", gif(4, 4, b"," + struct.pack("<HHHHB", 0, 0, 60000, 60000, 0) + lzw([0] * 4)))
write("x-no-colour-table.gif", gif(W, H, image(0, 0, pattern(W, H)), global_table=None))
write("x-no-image.gif", gif(W, H))
