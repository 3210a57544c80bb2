// Private to CCodecs: the JPEG decode context shared by jpeg_decode.c (errors, header) and
// jpeg_read.c (scaling, pixels).
#ifndef FG_JPEG_INTERNAL_H
#define FG_JPEG_INTERNAL_H
#include "ccodecs.h"
#include <setjmp.h>
#include <stdio.h>
#include <jpeglib.h>

enum { ST_NEW, ST_HEADER, ST_STARTED, ST_DONE, ST_FAILED };

/// jpeg_dc.c's source manager: the file's bytes without the AC scans.
struct fg_jpeg_dc_source {
    struct jpeg_source_mgr pub;
    const uint8_t *pos, *end;  // the bytes not yet handed to libjpeg
    int in_entropy;            // pos is inside a kept scan's entropy-coded data
    int scans_seen;            // scans met in the data, kept or skipped (max_scans applies)
};

/// jpeg_dc.c's coefficient store: the DC of every block, instead of libjpeg's whole-image arrays.
struct fg_jpeg_dc_coefs {
    JCOEF *dc[MAX_COMPS_IN_SCAN];   // per component, stride[c] x rows[c] (padded to whole MCUs)
    JDIMENSION stride[MAX_COMPS_IN_SCAN], rows[MAX_COMPS_IN_SCAN];
    JDIMENSION mcu_ctr;             // where consume_data stands in the iMCU row (as jdcoefct.c)
    int mcu_vert_offset, mcu_rows_per_imcu_row;
    JBLOCK blocks[D_MAX_BLOCKS_IN_MCU];
};

struct fg_jpeg {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr err;
    struct jpeg_progress_mgr progress;
    jmp_buf jmp;
    fg_limits limits;
    fg_status status;
    char message[JMSG_LENGTH_MAX + 96];
    int state;
    int created;
    int cmyk;           // output needs CMYK -> RGB in our code
    int cmyk_inverted;  // Adobe APP14 files store inverted CMYK
    int dc_only;
    int warnings;
    int scans;          // scans consumed, kept past jpeg_abort_decompress
    int keep_cmyk;      // CMYK goes out as CMYK (a colour profile converts it), not through our RGB
    JSAMPARRAY cmyk_row;
    JOCTET *icc;        // the assembled APP2 ICC profile (malloc'd by libjpeg), or NULL
    unsigned icc_length;
    // The end of the data: libjpeg warns (JWRN_JPEG_EOF) and feeds a fake EOI. Whether that is a
    // missing end marker or a cut image is decided from where the decoder was, not from the warning.
    int eof;            // the data ran out after the header
    long eof_row;       // input_iMCU_row of the scan being read when it did
    int starved;        // after that, the entropy decoder needed bits that were not there
    int missing_eoi;    // decoded in full although the data had no EOI
    int dc_planes;      // the DC-only path with our own chroma upsampling (jpeg_dc.c)
    struct fg_jpeg_dc_source dc_source;
    struct fg_jpeg_dc_coefs dc_coefs;
};

/// Records the error and longjmps to the setjmp of the entry point that is running.
_Noreturn void fg_jpeg_fail(fg_jpeg *ctx, fg_status status, const char *message);
/// Fails with FG_ERR_TOO_LARGE once the input has gone past limits.max_scans.
void fg_jpeg_check_scans(fg_jpeg *ctx);
/// After the data ran out: fails with FG_ERR_TRUNCATED unless every coefficient of the image was
/// read (or truncation is allowed); otherwise records a missing EOI.
void fg_jpeg_check_complete(fg_jpeg *ctx);

// jpeg_dc.c: progressive 4:2:0 / 4:2:2 / 4:4:0 YCbCr at 1/8 from the DC scans alone.
/// 1 when the file is progressive YCbCr with chroma subsampled by 1 or 2 per axis at this scale.
int fg_jpeg_dc_wanted(const struct jpeg_decompress_struct *ci, int scale_denom);
/// 1 once every component's DC coefficients have all their bits.
int fg_jpeg_dc_complete(const struct jpeg_decompress_struct *ci);
/// After jpeg_start_decompress in buffered-image mode: reads the DC scans only (AC scans skipped).
void fg_jpeg_dc_consume(fg_jpeg *ctx);
/// jpeg_dc_source.c: swaps jpeg_mem_src for the source that leaves out the AC scans, at the first scan's data.
void fg_jpeg_dc_install_source(fg_jpeg *ctx);
/// Writes output_width x output_height RGB pixels made from the DC coefficients.
void fg_jpeg_dc_render(fg_jpeg *ctx, uint8_t *dst, size_t stride);
#endif
