/* A band of rows of a baseline JPEG cut out at its restart markers, as a JPEG of its own. An
 * encoder may restart the entropy coding every so many MCUs (a DRI segment says how many; RST0
 * to RST7, in turn, mark each restart), and after a restart nothing depends on what came before.
 * So the coded data from a restart at the start of an MCU row to a restart at the start of a
 * later one, behind the file's own headers with the frame's height made the band's, decodes to
 * the band's pixels: a row of tiles of a gigapixel photo without decoding the hundreds of
 * megabytes above it. A file without such restarts is decoded whole. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"

/* What the headers say, up to the scan's coded data. */
typedef struct {
    long data;       /* where the coded data starts */
    long height_at;  /* where the frame's height is */
    long width, height;
    long mcu_width, mcu_height;
    long interval;   /* MCUs between restarts; 0: none */
} ScanLayout;

static int read_all(int fd, unsigned char *into, size_t size, off_t at) {
    while (size > 0) {
        ssize_t got = pread(fd, into, size, at);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return -1;
        into += got;
        size -= (size_t) got;
        at += got;
    }
    return 0;
}

/* 0 when the headers are those of one baseline or extended sequential scan of every component
 * with restarts; -1 otherwise. */
static int read_layout(const unsigned char *head, long length, ScanLayout *layout) {
    memset(layout, 0, sizeof *layout);
    if (length < 4 || head[0] != 0xFF || head[1] != 0xD8) return -1;
    long at = 2, components = 0, max_h = 1, max_v = 1;
    while (at + 4 <= length) {
        if (head[at] != 0xFF) return -1;
        int marker = head[at + 1];
        if (marker == 0xFF) { at++; continue; }
        long size = (long) head[at + 2] << 8 | head[at + 3];
        if (size < 2 || at + 2 + size > length) return -1;
        const unsigned char *segment = head + at + 4;
        if (marker == 0xC0 || marker == 0xC1) {
            if (size < 8) return -1;
            layout->height_at = at + 5;
            layout->height = (long) segment[1] << 8 | segment[2];
            layout->width = (long) segment[3] << 8 | segment[4];
            components = segment[5];
            if (components < 1 || size < 8 + 3 * components) return -1;
            for (long c = 0; c < components; c++) {
                long h = segment[6 + 3 * c + 1] >> 4, v = segment[6 + 3 * c + 1] & 15;
                if (h < 1 || v < 1) return -1;
                if (h > max_h) max_h = h;
                if (v > max_v) max_v = v;
            }
        } else if (marker >= 0xC2 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
            return -1;  /* progressive, lossless or arithmetic: not cut */
        } else if (marker == 0xDD) {
            if (size < 4) return -1;
            layout->interval = (long) segment[0] << 8 | segment[1];
        } else if (marker == 0xDA) {
            /* One scan of every component; a single component's MCU is one block. */
            if (layout->height_at == 0 || segment[0] != components) return -1;
            layout->mcu_width = components == 1 ? 8 : 8 * max_h;
            layout->mcu_height = components == 1 ? 8 : 8 * max_v;
            layout->data = at + 2 + size;
            return layout->width > 0 && layout->height > 0 && layout->interval > 0 ? 0 : -1;
        }
        at += 2 + size;
    }
    return -1;
}

/* Where restart interval `first` starts and where interval `last` - 1 ends (before its marker,
 * or before the end of the scan when it is the last), reading the coded data from `data` in
 * chunks; -1 when the markers are not where the layout says. */
static int find_intervals(int fd, off_t data, off_t length, long first, long last, long intervals, off_t *start,
                          off_t *end) {
    enum { CHUNK = 1 << 20 };
    unsigned char *buffer = malloc(CHUNK + 1);
    if (buffer == NULL) return -1;
    *start = first == 0 ? data : -1;
    *end = -1;
    long seen = 0;  /* restarts passed: the interval the data is in */
    for (off_t at = data; at + 1 < length && *end < 0;) {
        /* One byte more than is scanned, so that a marker across chunks is read whole. */
        size_t size = (size_t) (length - at < CHUNK + 1 ? length - at : CHUNK + 1);
        if (read_all(fd, buffer, size, at)) break;
        const unsigned char *from = buffer, *limit = buffer + size - 1;
        while (from < limit) {
            const unsigned char *mark = memchr(from, 0xFF, (size_t) (limit - from));
            if (mark == NULL) break;
            int code = mark[1];
            off_t position = at + (mark - buffer);
            if (code == 0x00 || code == 0xFF) {
                from = mark + 1;
            } else if (code >= 0xD0 && code <= 0xD7) {
                if (code - 0xD0 != (seen & 7)) goto out;
                seen++;
                if (seen == first) *start = position + 2;
                if (seen == last) { *end = position; goto out; }
                from = mark + 2;
            } else {
                /* The end of the scan (EOI, or whatever follows it). */
                if (last == intervals && seen == intervals - 1) *end = position;
                goto out;
            }
        }
        at += (off_t) (size - 1);
    }
out:
    free(buffer);
    return *start >= 0 && *end > *start ? 0 : -1;
}

int cjpeg_restarts_at_rows(int fd) {
    unsigned char head[65536];
    struct stat status;
    if (fstat(fd, &status) || status.st_size < 4) return 0;
    long length = status.st_size < (off_t) sizeof head ? (long) status.st_size : (long) sizeof head;
    ScanLayout layout;
    if (read_all(fd, head, (size_t) length, 0) || read_layout(head, length, &layout)) return 0;
    /* A restart starts an MCU row every so many rows: at most four, so that a band is at most
     * that much more than a row of tiles needs. */
    long columns = (layout.width + layout.mcu_width - 1) / layout.mcu_width, a = layout.interval, b = columns;
    while (b != 0) { long r = a % b; a = b; b = r; }
    return layout.interval / a <= 4;
}

int cjpeg_restart_cut(int fd, int first_row, int last_row, unsigned char **buffer, size_t *size, int *top) {
    *buffer = NULL;
    *size = 0;
    *top = 0;
    struct stat status;
    if (fstat(fd, &status) || status.st_size < 4) return -1;
    /* The headers come first; 64 kB holds those of nearly any file (a large EXIF block excepted:
     * that file is decoded whole). */
    long head_length = status.st_size < 65536 ? (long) status.st_size : 65536;
    unsigned char *head = malloc((size_t) head_length);
    ScanLayout layout;
    if (head == NULL || read_all(fd, head, (size_t) head_length, 0) || read_layout(head, head_length, &layout)) {
        free(head);
        return -1;
    }
    long columns = (layout.width + layout.mcu_width - 1) / layout.mcu_width;
    long rows = (layout.height + layout.mcu_height - 1) / layout.mcu_height;
    long intervals = (columns * rows + layout.interval - 1) / layout.interval;
    /* An MCU row more on either side: chroma is upsampled from the rows beside it, which the band
     * must have for its pixels to be the whole decode's. */
    long from_row = first_row / layout.mcu_height - 1, to_row = (last_row + layout.mcu_height - 1) / layout.mcu_height + 1;
    if (from_row < 0) from_row = 0;
    if (to_row > rows) to_row = rows;
    /* The band starts and ends where a restart starts an MCU row (or at the scan's ends). */
    long first = from_row * columns / layout.interval;
    while (first > 0 && first * layout.interval % columns != 0) first--;
    long last = (to_row * columns + layout.interval - 1) / layout.interval;
    while (last < intervals && last * layout.interval % columns != 0) last++;
    long band_top = first * layout.interval / columns;
    long band_bottom = last >= intervals ? rows : last * layout.interval / columns;
    off_t start, end;
    if (band_top >= band_bottom
        || find_intervals(fd, (off_t) layout.data, (off_t) status.st_size, first, last, intervals, &start, &end)) {
        free(head);
        return -1;
    }
    long height = (band_bottom * layout.mcu_height < layout.height ? band_bottom * layout.mcu_height : layout.height)
        - band_top * layout.mcu_height;
    size_t length = (size_t) layout.data + (size_t) (end - start) + 2;
    unsigned char *cut = malloc(length);
    if (cut == NULL || read_all(fd, cut + layout.data, (size_t) (end - start), start)) {
        free(cut);
        free(head);
        return -1;
    }
    memcpy(cut, head, (size_t) layout.data);
    free(head);
    cut[layout.height_at] = (unsigned char) (height >> 8);
    cut[layout.height_at + 1] = (unsigned char) height;
    /* The band's restarts are numbered from RST0 again. */
    unsigned char *from = cut + layout.data, *limit = cut + length - 2;
    while (from + 1 < limit) {
        unsigned char *mark = memchr(from, 0xFF, (size_t) (limit - from - 1));
        if (mark == NULL) break;
        if (mark[1] >= 0xD0 && mark[1] <= 0xD7) mark[1] = (unsigned char) (0xD0 + ((mark[1] - 0xD0 - first) & 7));
        from = mark[1] == 0xFF ? mark + 1 : mark + 2;
    }
    cut[length - 2] = 0xFF;
    cut[length - 1] = 0xD9;
    *buffer = cut;
    *size = length;
    *top = (int) (band_top * layout.mcu_height);
    return 0;
}
