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
    JSAMPARRAY cmyk_row;
};

/// Records the error and longjmps to the setjmp of the entry point that is running.
_Noreturn void fg_jpeg_fail(fg_jpeg *ctx, fg_status status, const char *message);
/// Fails with FG_ERR_TOO_LARGE once the input has gone past limits.max_scans.
void fg_jpeg_check_scans(fg_jpeg *ctx);
#endif
