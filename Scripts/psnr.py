#!/usr/bin/env python3
"""PSNR between two images, and careful full-resolution reference thumbnails.

  Scripts/psnr.py A B                      PSNR in dB between A and B (same size; colour channels
                                           only, alpha ignored). Prints e.g. "34.872".
  Scripts/psnr.py --reference SRC WxH OUT  Writes OUT, an exact area-average of SRC down to W x H:
                                           full decode (no shrink-on-load), every output pixel the
                                           mean of the source rectangle it covers, fractional edge
                                           pixels weighted by their covered fraction, in float64.
                                           Values stay gamma-encoded sRGB like the thumbnails under
                                           test (no linear light). OUT is PPM, or any format
                                           ImageMagick writes (chosen by its extension).

Images are read through ImageMagick (`convert X -depth 8 ppm:-`), which decodes JPEG with libjpeg's
defaults (islow DCT, fancy upsampling) like `djpeg`, and does not apply EXIF orientation.
"""
import re
import subprocess
import sys

import numpy as np


def read_rgb(path):
    """Decodes any image ImageMagick reads into an (H, W, 3) uint8 array."""
    data = subprocess.run(["convert", path, "-depth", "8", "ppm:-"], check=True,
                          capture_output=True).stdout
    # P6 header: magic, width, height, maxval, each separated by whitespace (comments allowed).
    tokens, pos = [], 0
    while len(tokens) < 4:
        m = re.compile(rb"\s*(#[^\n]*\n\s*)*(\S+)").match(data, pos)
        tokens.append(m.group(2))
        pos = m.end()
    if tokens[0] != b"P6" or tokens[3] != b"255":
        raise SystemExit(f"psnr.py: {path}: unexpected PPM header {tokens}")
    width, height = int(tokens[1]), int(tokens[2])
    pixels = np.frombuffer(data, dtype=np.uint8, count=width * height * 3, offset=pos + 1)
    return pixels.reshape(height, width, 3)


def write_image(path, rgb):
    height, width, _ = rgb.shape
    ppm = b"P6\n%d %d\n255\n" % (width, height) + np.ascontiguousarray(rgb, dtype=np.uint8).tobytes()
    if path.lower().endswith(".ppm"):
        with open(path, "wb") as f:
            f.write(ppm)
    else:
        subprocess.run(["convert", "ppm:-", path], input=ppm, check=True)


def psnr(a, b):
    if a.shape != b.shape:
        raise SystemExit(f"psnr.py: sizes differ: {a.shape[1]}x{a.shape[0]} vs {b.shape[1]}x{b.shape[0]}")
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return float("inf") if mse == 0 else 10 * np.log10(255.0 ** 2 / mse)


def area_average_axis(a, n_out, axis):
    """Exact box average of `a` along `axis` onto n_out equal intervals.

    With F(t) the integral of the piecewise-constant signal from 0 to t (prefix sums plus the
    covered fraction of the pixel t falls in), output i is (F(e[i+1]) - F(e[i])) / step, where
    e[i] = i * step and step = n / n_out. O(n) per line and exact up to float64 rounding.
    """
    a = np.moveaxis(a, axis, 0)
    n = a.shape[0]
    prefix = np.concatenate([np.zeros((1,) + a.shape[1:]), np.cumsum(a, axis=0)])
    step = n / n_out
    edges = np.arange(n_out + 1) * step
    index = np.minimum(np.floor(edges).astype(np.int64), n - 1)
    frac = (edges - index).reshape((-1,) + (1,) * (a.ndim - 1))
    integral = prefix[index] + frac * a[index]
    return np.moveaxis((integral[1:] - integral[:-1]) / step, 0, axis)


def reference(src, size, out):
    m = re.fullmatch(r"(\d+)x(\d+)", size)
    if not m:
        raise SystemExit(f"psnr.py: SIZE must be WxH, got {size!r}")
    width, height = int(m.group(1)), int(m.group(2))
    rgb = read_rgb(src).astype(np.float64)
    scaled = area_average_axis(area_average_axis(rgb, height, 0), width, 1)
    write_image(out, np.clip(np.rint(scaled), 0, 255).astype(np.uint8))


def main(argv):
    if len(argv) == 5 and argv[1] == "--reference":
        reference(argv[2], argv[3], argv[4])
    elif len(argv) == 3:
        print(f"{psnr(read_rgb(argv[1]), read_rgb(argv[2])):.3f}")
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
