#!/usr/bin/env bash
# Makes this folder's HEIC and AVIF files with libheif's heif-enc (x265; Debian's `libheif-examples`) and
# libavif's avifenc (aom; `libavif-bin`), both installed by Scripts/bootstrap, from the MIT-licensed EXIF
# orientation photos and a PngSuite image. The refused files are cut or patched copies. Remaking them
# may change bytes, not what the files are.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
corpus="$here/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$here"

# A camera photo (Landscape_1, 1800x1200) at 600x400, 8-bit and 16-bit PNG.
/usr/bin/convert "$corpus/exif-orientation/Landscape_1.jpg" -resize 600x400 -strip "$work/photo.png"
# The 16-bit one is resized at 16 bits from the JPEG, so its samples fall between the 8-bit levels: the
# deep files made from it hold real 10- and 12-bit detail (where truncating to 8 bits loses ~0.4 level).
/usr/bin/convert "$corpus/exif-orientation/Landscape_1.jpg" -resize 600x400 -strip -depth 16 PNG48:"$work/photo16.png"
heif-enc -q 60 "$work/photo.png" -o photo.heic
# The same with a 240x160 thumbnail item (heif-enc -t: longest edge 240).
heif-enc -q 60 -t 240 "$work/photo.png" -o photo-thumbnail.heic
heif-enc -q 60 -b 10 "$work/photo16.png" -o photo-10bit.heic
avifenc -s 8 --min 18 --max 28 "$work/photo.png" photo.avif >/dev/null
avifenc -s 8 --min 18 --max 28 -d 10 "$work/photo16.png" photo-10bit.avif >/dev/null
avifenc -s 8 --min 18 --max 28 -d 12 "$work/photo16.png" photo-12bit.avif >/dev/null
# Every 10-bit (32x32) and 12-bit (64x64) value, losslessly (identity matrix, full range, from Y4M
# planes G, B, R): pixel i holds G = i, B = max - i, R = 7i mod (max + 1).
python3 - "$work" <<'PY'
import struct, sys
for bits, side in [(10, 32), (12, 64)]:
    n, top = side * side, (1 << bits) - 1
    g = list(range(n)); b = [top - v for v in g]; r = [(7 * v) % (top + 1) for v in g]
    header = f"YUV4MPEG2 W{side} H{side} F25:1 Ip A1:1 C444p{bits} XCOLORRANGE=FULL\n".encode()
    planes = b"".join(struct.pack(f"<{n}H", *plane) for plane in (g, b, r))
    open(f"{sys.argv[1]}/ramp{bits}.y4m", "wb").write(header + b"FRAME\n" + planes)
PY
avifenc -s 8 -l --cicp 1/13/0 "$work/ramp10.y4m" ramp-10bit.avif >/dev/null
avifenc -s 8 -l --cicp 1/13/0 "$work/ramp12.y4m" ramp-12bit.avif >/dev/null
# Tiled: a 2x2 grid of 300x200 cells.
avifenc -s 8 --min 18 --max 28 --grid 2x2 "$work/photo.png" photo-grid.avif >/dev/null
# Stored 600x400 with irot 1 (90 degrees anticlockwise) then imir 0 (avifenc 0.11: "top-to-bottom"
# mirroring): shows 400x600.
avifenc -s 8 --min 18 --max 28 --irot 1 --imir 0 "$work/photo.png" photo-irot-imir.avif >/dev/null
# As a phone writes it: Landscape_6 (stored 1200x1800 with EXIF Orientation 6) at 400x600, the rotation
# in irot 3 (270 degrees anticlockwise) and the EXIF block (Orientation 6) kept: it shows 600x400, and
# turning it again for the EXIF tag would show it 400x600, on its side.
/usr/bin/convert "$corpus/exif-orientation/Landscape_6.jpg" -resize 400x600 "$work/six.jpg"
avifenc -s 8 --min 18 --max 28 --irot 3 "$work/six.jpg" exif-orientation-6.avif >/dev/null
# Alpha: PngSuite's basn6a08 (32x32 RGBA), lossless AVIF and HEIC.
avifenc -s 8 -l "$corpus/png-suite/basn6a08.png" alpha.avif >/dev/null
heif-enc -q 90 "$corpus/png-suite/basn6a08.png" -o alpha.heic

# Read although libheif refuses it: the ftyp names 'avif' only as the major brand (its compatible
# 'avif' and 'mif1' overwritten with 'xxxx'); libavif's avifdec reads such a file.
python3 - "$here" <<'PY'
import os, sys
here = sys.argv[1]
data = bytearray(open(os.path.join(here, "photo.avif"), "rb").read())
size = int.from_bytes(data[0:4], "big")
for at in range(16, size, 4):
    if data[at:at + 4] in (b"avif", b"mif1"):
        data[at:at + 4] = b"xxxx"
open(os.path.join(here, "brands-major-only.avif"), "wb").write(data)
PY

# Refused: cut in the middle of the image data; cut inside the meta box; the image data overwritten;
# the primary image's ispe patched to 20000 x 20000 (400 MP, over the default 100 MP guard).
head -c $(( $(stat -c %s photo.heic) / 2 )) photo.heic > x-truncated.heic
head -c 200 photo.avif > x-truncated-header.avif
python3 - "$here" <<'PY'
import os, struct, sys
here = sys.argv[1]
data = bytearray(open(os.path.join(here, "photo.heic"), "rb").read())
mdat = data.find(b"mdat") + 4
for i in range(mdat + 4, len(data)):  # the first NAL unit's length kept, its bytes overwritten
    data[i] = 0xFF
open(os.path.join(here, "x-corrupt.heic"), "wb").write(data)
data = bytearray(open(os.path.join(here, "photo.avif"), "rb").read())
ispe = data.find(b"ispe")
data[ispe + 8:ispe + 16] = struct.pack(">II", 20000, 20000)
open(os.path.join(here, "x-huge.avif"), "wb").write(data)
PY
