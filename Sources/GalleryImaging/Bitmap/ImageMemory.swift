import CCodecs
import GallerySystem

/// Huge pages for a process's large image buffers: our bitmaps (``HugePages``) and libjpeg's own large blocks,
/// a progressive JPEG's whole-image coefficients (about 2 bytes a sample: 48 MB for the luma of a 24 MP photo),
/// which libjpeg takes from the `jpeg_get_large` that CCodecs defines in its place. The gallery and dataset
/// commands turn it on; a library user keeps malloc's defaults and no advice.
public enum ImageMemory {
    /// Buffers of `bytes` or more get a mapping of their own (malloc's mmap threshold, fixed) and are advised
    /// for huge pages before their first write, ours and libjpeg's alike; 0 turns the advice off.
    public static func adviseHugePages(forBuffersOf bytes: Int) {
        HugePages.enable(forBuffersOf: bytes)
        fg_jpeg_advise_large_buffers(max(0, bytes))
    }
}
