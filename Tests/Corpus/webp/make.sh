#!/usr/bin/env bash
# Makes this folder's WebP files with libwebp's own tools (cwebp, img2webp, webpmux; Debian's `webp`
# package, installed by Scripts/bootstrap) from images of this corpus whose licence is known:
# libjpeg-turbo's IJG-licensed testorig.jpg, PngSuite images, and the MIT-licensed EXIF orientation
# photos. The corrupt files are cut or patched copies. Remaking them may change bytes, not what the
# files are.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
corpus="$here/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$here"

cwebp -quiet -q 80 "$corpus/libjpeg-turbo/testorig.jpg" -o lossy.webp
# PngSuite files carry gAMA 1.0, which cwebp's PNG reader (and ImageMagick) apply; copies without
# that chunk, the pixel data untouched, make lossless WebPs that hold exactly a PNG decoder's values.
without_gama() {
  python3 - "$1" "$2" <<'PY'
import struct, sys
data, out, i = open(sys.argv[1], "rb").read(), bytearray(), 8
out += data[:8]
while i < len(data):
    n, kind = struct.unpack(">I4s", data[i:i + 8])
    if kind != b"gAMA":
        out += data[i:i + 12 + n]
    i += 12 + n
open(sys.argv[2], "wb").write(out)
PY
}
without_gama "$corpus/png-suite/basn2c08.png" "$work/rgb.png"
without_gama "$corpus/png-suite/basn6a08.png" "$work/rgba.png"
cwebp -quiet -lossless "$work/rgb.png" -o lossless.webp
cwebp -quiet -lossless -exact "$work/rgba.png" -o lossless-alpha.webp
cwebp -quiet -q 90 -alpha_q 100 "$work/rgba.png" -o lossy-alpha.webp
# A camera photo, for the scaled decode (1800x1200).
cwebp -quiet -q 70 "$corpus/exif-orientation/Landscape_1.jpg" -o photo-1800x1200.webp
# Stored 240x360 with EXIF Orientation 6 in the container's EXIF chunk (shown 360x240).
/usr/bin/convert "$corpus/exif-orientation/Landscape_6.jpg" -resize 240x360 -strip "$work/six.png"
cwebp -quiet -q 80 "$work/six.png" -o "$work/six.webp"
/usr/bin/convert "$corpus/exif-orientation/Landscape_6.jpg" "$work/six.exif"
webpmux -set exif "$work/six.exif" "$work/six.webp" -o exif-orientation-6.webp
# An animation of two 32x32 frames; the first is basn2c08.png, the second its negative.
/usr/bin/convert "$work/rgb.png" -negate -strip PNG24:"$work/negative.png"
img2webp -lossless "$work/rgb.png" -d 100 "$work/negative.png" -o animated.webp

# Refused: cut in the middle of the bitstream; the bitstream overwritten; a canvas of 16384 x 16384
# (268 MP, over the default 100 MP guard) with no image.
head -c $(( $(stat -c %s lossy.webp) / 2 )) lossy.webp > x-truncated.webp
python3 - "$here" <<'PY'
import sys, struct, os
here = sys.argv[1]
data = bytearray(open(os.path.join(here, "lossy.webp"), "rb").read())
for i in range(40, len(data) - 8):
    data[i] = 0xFF
open(os.path.join(here, "x-bitstream.webp"), "wb").write(data)
vp8x = b"VP8X" + struct.pack("<I", 10) + bytes([0, 0, 0, 0]) + (16383).to_bytes(3, "little") * 2
open(os.path.join(here, "x-huge-canvas.webp"), "wb").write(b"RIFF" + struct.pack("<I", 4 + len(vp8x)) + b"WEBP" + vp8x)
PY
