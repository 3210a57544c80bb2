// Private to CCodecs: the JPEG decode context shared by jpeg_decode.c (errors, header) and
// jpeg_read.c (scaling, pixels).
#ifndef FG_JPEG_INTERNAL_H
#define FG_JPEG_INTERNAL_H
#include "ccodecs.h"
#include <setjmp.h>
#include <stdio.h>
#include <jpeglib.h>

enum { ST_NEW, ST_HEADER, ST_STARTED, ST_DONE, ST_FAILED };

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
};

/// Records the error and longjmps to the setjmp of the entry point that is running.
_Noreturn void fg_jpeg_fail(fg_jpeg *ctx, fg_status status, const char *message);
/// Fails with FG_ERR_TOO_LARGE once the input has gone past limits.max_scans.
void fg_jpeg_check_scans(fg_jpeg *ctx);
/// After the data ran out: fails with FG_ERR_TRUNCATED unless every coefficient of the image was
/// read (or truncation is allowed); otherwise records a missing EOI.
void fg_jpeg_check_complete(fg_jpeg *ctx);
#endif
