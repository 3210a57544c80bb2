// The driver Scripts/fuzz-replay links each harness with instead of libFuzzer: it runs
// LLVMFuzzerTestOneInput once on the empty input (libFuzzer's first execution) and once on each
// file named on the command line, and prints how many ran. A harness whose invariant fails stops
// the process (fatalError), which fails the replay, naming the input first.
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *current = "the empty input";

// A failed invariant (fatalError: SIGILL or SIGTRAP) or a crash: name the input, then die of the signal.
static void on_crash(int sig) {
    const char *prefix = "fuzz-replay: FAILED on ";
    write(2, prefix, strlen(prefix));
    write(2, current, strlen(current));
    write(2, "\n", 1);
    signal(sig, SIG_DFL);
    raise(sig);
}

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "fuzz-replay: cannot open %s\n", path); return 1; }
    size_t cap = 1 << 16, len = 0;
    uint8_t *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) { cap *= 2; buf = realloc(buf, cap); }
    }
    fclose(f);
    if (!buf) { fprintf(stderr, "fuzz-replay: out of memory reading %s\n", path); return 1; }
    current = path;
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 0;
}

int main(int argc, char **argv) {
    int failed = 0;
    int signals[] = {SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) signal(signals[i], on_crash);
    LLVMFuzzerTestOneInput((const uint8_t *)"", 0);
    for (int i = 1; i < argc; i++) failed |= run_file(argv[i]);
    printf("fuzz-replay: %d inputs passed\n", argc);
    return failed;
}
