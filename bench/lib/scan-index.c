// What the scan index of a JPEG without restart markers costs, against libjpeg's own passes over
// the same file in the same rounds (Sources/CJPEGTiles/jpegscanindex.c):
//
//   whole   every row decoded (Huffman, IDCT, colour): what a native row of tiles costs at most
//   eighth  every row at 1/8 (libjpeg's DCT scaling): the first stage's decode
//   skip    every row but the last passed over with jpeg_skip_scanlines (Huffman decoding, no IDCT)
//   index   the index built: one pass decoding the Huffman codes alone
//   band    the row of 256-pixel tiles in the middle of the photo, cut with the index and decoded
//
// One line a round, the passes in an order that turns each round so that none always meets the
// same moment of a busy machine: "round" and the five passes' wall seconds, then their CPU
// seconds (user and system; steadier than the wall on a machine shared with other work).
//
// Usage: scan-index PHOTO.jpg ROUNDS    (built by bench/gigapixel.sh, PARTS=scan)
#include <fcntl.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <vips/vips.h>
#include "CJPEGTiles.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec + (double) t.tv_nsec / 1e9;
}

static double cpu(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (double) (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + (double) (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

static void fail(const char *what) {
    fprintf(stderr, "scan-index: %s: %s\n", what, vips_error_buffer());
    exit(1);
}

// Decodes every row at 1/scale, 16 rows at a time into one strip.
static void decode_whole(int fd, int scale) {
    lseek(fd, 0, SEEK_SET);
    cjpeg_reader *reader = cjpeg_open(fd, scale);
    if (reader == NULL) fail("open");
    int width = cjpeg_width(reader), height = cjpeg_height(reader);
    unsigned char *strip = malloc((size_t) width * 3 * 16);
    for (int row = 0; row < height; row += 16) {
        if (cjpeg_read(reader, strip, (size_t) width * 3, height - row < 16 ? height - row : 16)) fail("read");
    }
    free(strip);
    cjpeg_close(reader);
}

// Every row but the last passed over, and the last decoded: libjpeg passes over the rows left
// to the end without reading them.
static void skip_whole(int fd) {
    lseek(fd, 0, SEEK_SET);
    cjpeg_reader *reader = cjpeg_open(fd, 1);
    if (reader == NULL || cjpeg_skip(reader, cjpeg_height(reader) - 1)) fail("skip");
    unsigned char *row = malloc((size_t) cjpeg_width(reader) * 3);
    if (cjpeg_read(reader, row, (size_t) cjpeg_width(reader) * 3, 1)) fail("skip read");
    free(row);
    cjpeg_close(reader);
}

static cjpeg_scan_index *index_whole(int fd) {
    cjpeg_scan_index *index = cjpeg_scan_index_build(fd, NULL);
    if (index == NULL) fail("index");
    return index;
}

// The middle row of tiles, cut with the index and decoded.
static void decode_band(int fd, const cjpeg_scan_index *index, int height) {
    int first = height / 512 * 256, top;
    cjpeg_reader *reader = cjpeg_open_indexed_band(fd, index, 1, first, first + 256, &top);
    if (reader == NULL) fail("band");
    int width = cjpeg_width(reader), rows = cjpeg_height(reader);
    unsigned char *band = malloc((size_t) width * 3 * (size_t) rows);
    if (cjpeg_read(reader, band, (size_t) width * 3, rows)) fail("band read");
    free(band);
    cjpeg_close(reader);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: scan-index PHOTO.jpg ROUNDS\n");
        return 2;
    }
    if (VIPS_INIT(argv[0])) fail("libvips");
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) {
        perror(argv[1]);
        return 1;
    }
    cjpeg_reader *header = cjpeg_open(fd, 8);
    if (header == NULL) fail("open");
    int height = cjpeg_height(header) * 8;
    cjpeg_close(header);
    for (int round = 1; round <= atoi(argv[2]); round++) {
        double took[5] = { 0 }, used[5] = { 0 };
        for (int turn = 0; turn < 4; turn++) {
            int pass = (turn + round) % 4;
            double start = now(), start_cpu = cpu();
            if (pass == 0) decode_whole(fd, 1);
            if (pass == 1) decode_whole(fd, 8);
            if (pass == 2) skip_whole(fd);
            if (pass == 3) {
                cjpeg_scan_index *index = index_whole(fd);
                took[3] = now() - start;
                used[3] = cpu() - start_cpu;
                start = now();
                start_cpu = cpu();
                decode_band(fd, index, height);
                took[4] = now() - start;
                used[4] = cpu() - start_cpu;
                cjpeg_scan_index_free(index);
                continue;
            }
            took[pass] = now() - start;
            used[pass] = cpu() - start_cpu;
        }
        printf("%d %.3f %.3f %.3f %.3f %.3f %.3f %.3f %.3f %.3f %.3f\n", round, took[0], took[1], took[2], took[3], took[4],
               used[0], used[1], used[2], used[3], used[4]);
        fflush(stdout);
    }
    return 0;
}
