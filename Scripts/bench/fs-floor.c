/* The filesystem's own ceiling for a downloader's small-file rate: for every file of a served folder, write
 * a file of the same size into an empty output folder, from memory, with no network at all. Two ways:
 *   plain:  open(O_CREAT) + write + close                      (what curl -o does)
 *   atomic: open(NAME.part) + write + close + rename to NAME   (what a tool that never leaves a complete-
 *                                                                looking partial file must do)
 * Prints "plain FILES_PER_S" and "atomic FILES_PER_S", each the best of 3 runs.
 * Usage: fs-floor SOURCE_DIR OUT_DIR */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }

static void clear(const char *dir) {
    DIR *d = opendir(dir); struct dirent *e; char p[4096];
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name); unlink(p);
    }
    if (d) closedir(d);
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: fs-floor SOURCE_DIR OUT_DIR\n"); return 2; }
    DIR *d = opendir(argv[1]); if (!d) { perror(argv[1]); return 1; }
    size_t n = 0, cap = 1024; char **names = malloc(cap * sizeof *names); size_t *sizes = malloc(cap * sizeof *sizes);
    size_t largest = 0; struct dirent *e; char p[4096], q[4096];
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        struct stat st; snprintf(p, sizeof p, "%s/%s", argv[1], e->d_name);
        if (stat(p, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        if (n == cap) { cap *= 2; names = realloc(names, cap * sizeof *names); sizes = realloc(sizes, cap * sizeof *sizes); }
        names[n] = strdup(e->d_name); sizes[n] = st.st_size; if ((size_t)st.st_size > largest) largest = st.st_size; n++;
    }
    closedir(d);
    char *buf = malloc(largest + 1); memset(buf, 0x5a, largest + 1);
    mkdir(argv[2], 0755);
    for (int atomic = 0; atomic < 2; atomic++) {
        double best = 0;
        for (int round = 0; round < 3; round++) {
            clear(argv[2]); sync();
            double t0 = now();
            for (size_t i = 0; i < n; i++) {
                snprintf(p, sizeof p, "%s/%s", argv[2], names[i]);
                if (atomic) snprintf(q, sizeof q, "%s.part", p);
                int fd = open(atomic ? q : p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
                if (fd < 0 || write(fd, buf, sizes[i]) != (ssize_t)sizes[i]) { perror(p); return 1; }
                close(fd);
                if (atomic && rename(q, p) != 0) { perror(q); return 1; }
            }
            double rate = n / (now() - t0);
            if (rate > best) best = rate;
        }
        printf("%s %.0f\n", atomic ? "atomic" : "plain", best);
    }
    clear(argv[2]);
    return 0;
}
