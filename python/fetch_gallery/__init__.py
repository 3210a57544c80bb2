"""img2dataset's Python entry point, run by ``fetch-gallery dataset``.

A script that calls ``img2dataset.download(...)`` switches with one import::

    from fetch_gallery import download   # was: from img2dataset import download

``download`` takes img2dataset 1.47's keyword arguments, with the same meanings and defaults, and runs
the ``fetch-gallery`` command (``FETCH_GALLERY_BIN``, else ``fetch-gallery`` on ``PATH``). An unknown
keyword is a ``TypeError`` naming it; a failed run raises ``FetchGalleryError`` with the end of the
command's standard error. Arguments that only tune img2dataset's own processes (``processes_count``,
``thread_count``, ``distributor``, ``subjob_size``, ``max_shard_retry``, ``enable_wandb``...) are accepted
and passed on; the command says what it does with them.
"""
import math
import os
import shutil
import subprocess

__all__ = ["download", "command_line", "FetchGalleryError"]


class FetchGalleryError(RuntimeError):
    """The command failed (its exit status and the last lines of its standard error), or is missing."""


# img2dataset 1.47's download() parameters and defaults.
_DEFAULTS = dict(
    image_size=256, output_folder="images", processes_count=1, resize_mode="border", resize_only_if_bigger=False,
    upscale_interpolation="lanczos", downscale_interpolation="area", encode_quality=95, encode_format="jpg",
    skip_reencode=False, output_format="files", input_format="txt", url_col="url", caption_col=None, bbox_col=None,
    thread_count=256, number_sample_per_shard=10000, extract_exif=True, save_additional_columns=None, timeout=10,
    enable_wandb=False, wandb_project="img2dataset", oom_shard_count=5, compute_hash="sha256", verify_hash=None,
    distributor="multiprocessing", subjob_size=1000, retries=0, disable_all_reencoding=False, min_image_size=0,
    max_image_area=float("inf"), max_aspect_ratio=float("inf"), incremental_mode="incremental", max_shard_retry=1,
    user_agent_token=None, disallowed_header_directives=None,
)
_BOOLEANS = {"resize_only_if_bigger", "skip_reencode", "extract_exif", "enable_wandb", "disable_all_reencoding"}
# fetch-gallery's checks beyond img2dataset's (docs/DATASETS.md): passed on when given.
_OURS = dict(verify_phash=None, phash_distance=None, compute_phash=False, detect_placeholders=False, placeholder_urls=None)
_OUR_FLAGS = {"compute_phash", "detect_placeholders"}


def _binary():
    path = os.environ.get("FETCH_GALLERY_BIN") or shutil.which("fetch-gallery")
    if not path or not os.access(path, os.X_OK):
        raise FetchGalleryError(
            "the fetch-gallery command was not found: set FETCH_GALLERY_BIN to the built binary "
            "(e.g. .build/release/fetch-gallery) or put fetch-gallery on PATH"
            + (f" (FETCH_GALLERY_BIN={os.environ['FETCH_GALLERY_BIN']} is not an executable file)" if os.environ.get("FETCH_GALLERY_BIN") else ""))
    return path


def _value(name, value):
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(str(v) for v in value) + "]"
    if isinstance(value, float) and math.isinf(value):
        return "inf"
    return str(value)


def command_line(url_list, **kwargs):
    """The ``fetch-gallery dataset`` arguments for img2dataset's ``download(url_list, **kwargs)``."""
    unknown = sorted(set(kwargs) - set(_DEFAULTS) - set(_OURS))
    if unknown:
        raise TypeError(f"download() got an unexpected keyword argument '{unknown[0]}'"
                        + (f" (and {', '.join(repr(u) for u in unknown[1:])})" if len(unknown) > 1 else ""))
    args = ["dataset", "--url-list", str(url_list)]
    for name, default in _DEFAULTS.items():
        value = kwargs.get(name, default)
        if name == "compute_hash" and name in kwargs and value is None:
            args += ["--compute-hash", "None"]
            continue
        if name not in kwargs or value is None:
            continue
        flag = "--" + name.replace("_", "-")
        if name == "disable_all_reencoding":
            if value:
                raise ValueError("disable_all_reencoding=True is not supported by fetch-gallery (use skip_reencode=True)")
            continue
        if name in _BOOLEANS:
            args.append(flag if value else "--no-" + name.replace("_", "-"))
        elif name == "disallowed_header_directives":
            args += [flag, _value(name, list(value))]
        else:
            args += [flag, _value(name, value)]
    for name in _OURS:
        value = kwargs.get(name)
        if value is None or value is False:
            continue
        flag = "--" + name.replace("_", "-")
        args += [flag] if name in _OUR_FLAGS else [flag, _value(name, value)]
    return args


def download(url_list, **kwargs):
    """Runs ``fetch-gallery dataset`` with img2dataset's keyword arguments; returns when the dataset is written."""
    args = [_binary()] + command_line(url_list, **kwargs)
    process = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if process.returncode != 0:
        tail = "\n".join(process.stderr.strip().splitlines()[-12:])
        raise FetchGalleryError(f"fetch-gallery dataset failed (exit status {process.returncode}):\n{tail}")
    return None
