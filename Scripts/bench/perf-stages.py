#!/usr/bin/env python3
"""Where a photo's CPU goes: reads `perf script -F comm,tid,period,ip,sym,dso` (a profile recorded with call
graphs, best --call-graph dwarf: libjpeg and libc have no frame pointers) on stdin and prints one row per stage
of the pipeline: CPU-ms per photo, share of all samples, and how much of the stage is the kernel's and how much
is Swift's runtime and the allocator (retain/release, malloc/free, metadata), the two costs that run through
every stage.

Each sample goes to one stage: the stage of the innermost frame of its call chain that names one (so a malloc
inside the JPEG decoder is the decoder's, a NumberFormatter inside a page is the pages'); a file system call is
its own stage (file creation and writing, renames) whoever made it. Samples with no stage frame go to 'other'.

Usage: perf script ... | perf-stages.py PHOTOS
       perf-stages.py --compare PHOTOS NAME_A SCRIPT_A NAME_B SCRIPT_B   (two runs' `perf script` outputs, side by side)
"""
import collections
import re
import sys

# (stage, test on one frame (symbol, dso)), innermost frame first; the first stage whose test a frame passes.
# Swift names are mangled: module and type names appear as NNName (e.g. 12PhotoGallery, 13ThumbnailWork; a word repeated is a substitution: 0B6OutputC is GalleryOutput in PhotoGallery).
SYSCALL_RENAME = re.compile(r"__x64_sys_rename|do_renameat2")
SYSCALL_CREATE = re.compile(r"__x64_sys_(openat|open|creat|mkdir|mkdirat|linkat|link|unlink|unlinkat|write|pwrite64|"
                            r"close|close_range|ftruncate|fsync|fdatasync|newfstatat|statx|newstat|newlstat|fstat)\b")
SYSCALL_NET = re.compile(r"__x64_sys_(sendto|recvfrom|poll|ppoll|epoll_wait|epoll_pwait|connect|socket|setsockopt|"
                         r"getsockopt|getsockname|getpeername|sendmsg|recvmsg|accept4?|shutdown)\b")
STAGES = [
    ("renames", lambda s, d: SYSCALL_RENAME.search(s)),
    ("file creation, writes, stats (syscalls)", lambda s, d: SYSCALL_CREATE.search(s)),
    ("transfer: sockets (syscalls)", lambda s, d: SYSCALL_NET.search(s)),
    ("fingerprint: pHash + ThumbHash", lambda s, d: re.search(r"16ImageFingerprint|14PerceptualHash|9ThumbHash|13GreyReduction", s)),
    ("hashing (SHA-256)", lambda s, d: "libcrypto" in d or re.search(r"13GalleryRunner6SHA256|6DigestO|SHA256_", s)),
    ("header probe, sniff, EXIF", lambda s, d: re.search(r"12ImageDecoderO5probe|11ImageFormatO5sniff|10ExifReader|"
                                                         r"fg_jpeg_probe|fg_png_probe|12ImageDecoderO4info", s)),
    ("resample (+ colour, orientation)", lambda s, d: re.search(r"9Resampler|11ResampleJob|15ResampleWeights|"
                                                                 r"10DecodePlanV6finish|14ColorTransform|6BitmapV8oriented", s)),
    ("encode (JPEG)", lambda s, d: re.search(r"12ImageEncoder|fg_jpeg_encode|fg_png_encode|fg_webp_encode|"
                                             r"jpeg_finish_compress|jpeg_write_scanlines|jpeg_start_compress|"
                                             r"jpeg_set_quality|jpeg_set_defaults|jpeg_CreateCompress", s)),
    ("decode", lambda s, d: re.search(r"10DecodePlanV6decode|11JPEGDecoder|10PNGDecoder|12ImageDecoderO6decode|"
                                      r"fg_jpeg_decode|fg_jpeg_start|fg_jpeg_read|fg_png_|jpeg_read_scanlines|"
                                      r"jpeg_start_decompress|jpeg_read_header|jpeg_CreateDecompress|jpeg_idct", s)),
    ("journal records", lambda s, d: re.search(r"12PhotoGallery7JournalC|13JournalRecord|12PhotoGallery12OriginalFileV|8JSONScanV", s)),
    ("gallery pages (render, diff, write)", lambda s, d: re.search(r"12PhotoGallery0B6OutputC|15PhotoDetailPage|9IndexPage|"
                                                                   r"12PhotoGallery4NodeV|12HTMLEscaping|0B8DocumentO|"
                                                                   r"10ShownImage|0B6WriterV|11RunFinisher|7SafeURL|"
                                                                   r"14PictureSources|0B8ManifestV|0B15Manifest", s)),
    ("dataset: rows, shards (tar, Parquet, metadata)", lambda s, d: re.search(r"14DatasetFormats|14GalleryDataset", s)),
    ("original: write/publish", lambda s, d: re.search(r"19UnpublishedDownloadV7publish", s)),
    ("thumbnail files: write", lambda s, d: re.search(r"10AtomicFile|16RenditionWriter", s)),
    ("transfer: curl, engine, callbacks", lambda s, d: "libcurl" in d or "libnghttp" in d or "libssl" in d
                                                        or re.search(r"15GalleryTransfer|on_emit_message|curl_", s)),
    # The LRU tables behind the decoded-image cache and the resample weights cache (GallerySync, as the
    # scheduling's locks and pools are: matched first).
    ("caches (image, resample weights)", lambda s, d: re.search(r"11GallerySync8LRUTable|14GalleryImaging5CacheC|"
                                                                 r"20ResampleWeightsCache", s)),
    ("task scheduling, thread hand-off", lambda s, d: "libdispatch" in d or "libswift_Concurrency" in d
                                                      or re.search(r"10WorkerPool|16HandOffContinuation|11GallerySync|"
                                                                   r"futex|__x64_sys_sched_yield|schedule\b", s)),
    ("process start (dynamic loading)", lambda s, d: "ld-linux" in d or s.startswith("_dl_")),
    ("run bookkeeping (plan, queue, paths, events)", lambda s, d: re.search(r"12PhotoGallery0B3RunC|17URLListFileSource|"
                                                                            r"0A6NamingO|16LocalFolderStore|13ProgressRouter|"
                                                                            r"0A6EventsO|14CommandLineApp|12fetch_gallery", s)),
]
RUNTIME = re.compile(r"^(swift_|_swift_|\$ss|swift::|malloc|free|_int_malloc|_int_free|cfree|realloc|calloc|"
                     r"__libc_malloc|__libc_free|malloc_consolidate|tcache|__memmove|__memset|__memcpy)")


def frames(stream):
    sample = None
    for line in stream:
        if not line.strip():
            if sample:
                yield sample
            sample = None
            continue
        if not line[0].isspace():
            parts = line.split()
            sample = {"comm": parts[0], "period": int(parts[-1]) if parts[-1].isdigit() else 1, "frames": []}
            continue
        m = re.match(r"\s*[0-9a-f]+ (.*) \((.*)\)$", line.rstrip())
        if m and sample is not None:
            sym = re.sub(r"\+0x[0-9a-f]+$", "", m.group(1))
            sample["frames"].append((sym, m.group(2).rsplit("/", 1)[-1]))
    if sample:
        yield sample


def tally(stream):
    """Samples by stage: (by_stage, kernel, runtime, threads, total), each a Counter of periods."""
    by_stage = collections.Counter()
    kernel = collections.Counter()
    runtime = collections.Counter()
    threads = collections.Counter()
    total = 0
    for s in frames(stream):
        period, chain = s["period"], s["frames"]
        total += period
        stage = "other"
        for sym, dso in chain:
            hit = next((name for name, test in STAGES if test(sym, dso)), None)
            if hit:
                stage = hit
                break
        if stage == "other" and any("libjpeg" in dso for _, dso in chain):
            # libjpeg-turbo's SIMD kernels (assembly) carry no unwind tables: the chain stops in them.
            stage = "libjpeg SIMD, chain lost (decode or encode)"
        by_stage[stage] += period
        leaf_sym, leaf_dso = chain[0] if chain else ("", "")
        if "kernel" in leaf_dso:
            kernel[stage] += period
        elif RUNTIME.search(leaf_sym) and ("libswiftCore" in leaf_dso or "libc.so" in leaf_dso):
            runtime[stage] += period
        comm = re.sub(r"-\d+$", "", s["comm"])
        threads[comm if comm.startswith("fg-") else "Swift's threads / main"] += period
    return by_stage, kernel, runtime, threads, total


UNIT = 1e6  # periods are nanoseconds of CPU (cpu-clock) or cycles; shown as ms when cpu-clock


def compare(photos, name_a, file_a, name_b, file_b):
    """Two profiles of runs over the same photos, stage by stage: ms a photo in each and the difference."""
    with open(file_a) as f:
        a = tally(f)[0]
    with open(file_b) as f:
        b = tally(f)[0]
    if not sum(a.values()) or not sum(b.values()):
        sys.exit("perf-stages: a profile has no samples")
    print(f"  {'stage':<46} {name_a:>10} {name_b:>10} {'difference':>11}")
    for stage in sorted(set(a) | set(b), key=lambda k: -(a[k] - b[k])):
        print(f"  {stage:<46} {a[stage] / UNIT / photos:10.3f} {b[stage] / UNIT / photos:10.3f} "
              f"{(a[stage] - b[stage]) / UNIT / photos:+11.3f}")
    ta, tb = sum(a.values()), sum(b.values())
    print(f"  {'all':<46} {ta / UNIT / photos:10.3f} {tb / UNIT / photos:10.3f} {(ta - tb) / UNIT / photos:+11.3f}")
    print("  (CPU-ms a photo under perf, by stage; sorted by the difference)")


def main():
    if len(sys.argv) == 7 and sys.argv[1] == "--compare":
        compare(int(sys.argv[2]), *sys.argv[3:7])
        return
    photos = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    by_stage, kernel, runtime, threads, total = tally(sys.stdin)
    if not total:
        sys.exit("perf-stages: no samples")
    unit = UNIT
    print(f"  {'stage':<46} {'ms/photo':>9} {'share':>7} {'kernel':>7} {'runtime':>8}")
    for stage, p in by_stage.most_common():
        print(f"  {stage:<46} {p / unit / photos:9.3f} {100 * p / total:6.1f}% {100 * kernel[stage] / p:6.0f}% "
              f"{100 * runtime[stage] / p:7.0f}%")
    print(f"  {'all':<46} {total / unit / photos:9.3f} {100.0:6.1f}% {100 * sum(kernel.values()) / total:6.0f}% "
          f"{100 * sum(runtime.values()) / total:7.0f}%")
    print("  (kernel: samples in the kernel; runtime: leaf in Swift's runtime or libc's allocator/memcpy; both as a share of the stage)")
    print("  by thread: " + ", ".join(f"{t} {100 * p / total:.1f}%" for t, p in threads.most_common()))


if __name__ == "__main__":
    main()
