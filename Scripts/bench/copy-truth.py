#!/usr/bin/env python3
"""The duplicate check's verdicts and measurements against the truth, on Scripts/bench-cost's photos.

Each cost photo is a window cut from one of the demo photographs (Scripts/bench/cost-photos.c); this
replays that generator to know every window, so a pair's true alignment is known: one window in the
other's frame, or no alignment at all when they come from different photographs.

Usage: Scripts/bench/copy-truth.py GALLERY DUMP...
  GALLERY  a gallery of the cost photos (KEEP=1 Scripts/bench-cost keeps one; its photos' names are pNNNNN)
  DUMP     Scripts/bench-fingerprint --journal GALLERY --dump DUMP (one line a candidate pair), one per build
Prints per DUMP: verdicts against the true ones (a pair within 0.01 of a bound is left out as either),
and how far the measured scale lies from the truth, on pairs either side calls a copy.
"""
import glob, json, os, struct, sys

DEMO = os.path.join(os.path.dirname(__file__), "../../Sources/GalleryDemo/Resources/demo-photos")
BOUNDS = dict(outside=0.035, trim=0.07, coverage=0.85)  # CopyCheck.maxOutside, maxTrim, minCoverage


def jpeg_size(path):
    data = open(path, "rb").read()
    i = 2
    while i < len(data):
        marker, length = data[i + 1], struct.unpack(">H", data[i + 2:i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            h, w = struct.unpack(">HH", data[i + 5:i + 9])
            return w, h
        i += 2 + length
    raise ValueError(f"{path}: no frame header")


SOURCES = [jpeg_size(p) for p in sorted(glob.glob(os.path.join(DEMO, "*.jpg")))]


def window(k):
    """Photo k's source and window (cost-photos.c: the same generator and the same integer steps)."""
    state = 0x9E3779B97F4A7C15 ^ k
    def uniform():
        nonlocal state
        state = (state * 6364136223846793005 + 1442695040888963407) & ((1 << 64) - 1)
        return (state >> 33) / float(1 << 31)
    uniform(); uniform()
    sw, sh = SOURCES[k % len(SOURCES)]
    fraction = 0.35 + 0.65 * uniform()
    cw, ch = int(sw * fraction), int(sh * fraction)
    x0, y0 = int((sw - cw) * uniform()), int((sh - ch) * uniform())
    return k % len(SOURCES), cw, ch, x0, y0


def measures(sx, sy, ox, oy):
    """CopyCheck's coverage, outside and trim of B laid on A at (scale, offset) per axis."""
    overlap = max(0, min(1, ox + sx) - max(0, ox)) * max(0, min(1, oy + sy) - max(0, oy))
    x, w, y, h = (ox, sx, oy, sy) if sx * sy <= 1 else (-ox / sx, 1 / sx, -oy / sy, 1 / sy)
    return (overlap / max(1, sx * sy), max(0, -x, x + w - 1, -y, y + h - 1), max(0, x, 1 - x - w, y, 1 - y - h))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    gallery = json.load(open(os.path.join(sys.argv[1], "gallery.json")))
    number = {str(p["id"]): int(p["name"][1:]) for p in gallery["photos"]}
    for dump in sys.argv[2:]:
        counts = dict(tp=0, fp=0, fn=0, tn=0, near=0)
        errors = []
        for line in open(dump):
            f = line.split()
            if f[0] != "pair":
                continue
            a, b = window(number[f[1]]), window(number[f[2]])
            said = f[3] == "copy"
            true, margin = False, 1.0
            if a[0] == b[0]:
                truth = (b[1] / a[1], b[2] / a[2], (b[3] - a[3]) / a[1], (b[4] - a[4]) / a[2])
                coverage, outside, trim = measures(*truth)
                true = outside <= BOUNDS["outside"] and trim <= BOUNDS["trim"] and coverage >= BOUNDS["coverage"]
                margin = min(abs(outside - BOUNDS["outside"]), abs(trim - BOUNDS["trim"]), abs(coverage - BOUNDS["coverage"]) / 2)
                if said or true:
                    sx, sy = float(f[4]), float(f[5])
                    errors.append(max(abs(sx - truth[0]), abs(sy - truth[1])))
            if margin < 0.01:
                counts["near"] += 1
            else:
                counts[("t" if said == true else "f") + ("p" if said else "n")] += 1
        errors.sort()
        e = lambda q: errors[min(len(errors) - 1, int(q * len(errors)))]
        print(f"{os.path.basename(dump)}: copies right {counts['tp']}, others right {counts['tn']}, "
              f"wrongly copies {counts['fp']}, wrongly others {counts['fn']} ({counts['near']} within 0.01 of a bound left out); "
              f"scale off by median {e(0.5):.4f}, p90 {e(0.9):.4f}, max {errors[-1]:.3f}, over 0.03 on {sum(x > 0.03 for x in errors)} of {len(errors)}")


if __name__ == "__main__":
    main()
