/* One JPEG encoded as two parts at once, one per thread, and joined. A baseline scan may restart
 * its entropy coding every so many blocks (a DRI segment says how many; RST0 to RST7 markers, in
 * turn, mark each restart), and each block is coded alike whether it follows a restart or not.
 * So the image is cut at a whole number of block rows, each part is encoded alone with a restart
 * every `split` rows, and the lower part's coded data follows the upper part's after a marker:
 * the result decodes to exactly the pixels of the image encoded in one go, and the one restart
 * costs a few bytes. */
#include <stdlib.h>
#include <string.h>
#include <vips/vips.h>
#include "CJPEGTiles.h"
#include "internal.h"

int cjpeg_split_rows(int width, int height, int quality) {
    int block = block_rows(quality);
    /* The upper part's block rows; the marker's interval is counted in blocks, at most 65535. */
    int rows = height / block / 2;
    long interval = (long) rows * ((width + block - 1) / block);
    return rows >= 1 && interval <= 65535 ? rows * block : 0;
}

/* Where the coded data starts (after the SOS segment) and where the frame's height is (in the
 * SOF0 segment), in a JPEG of this encoder's: 0, or -1 when it is not laid out as one. */
static int find_scan(const unsigned char *jpeg, unsigned long length, unsigned long *data, unsigned long *height_at) {
    *height_at = 0;
    if (length < 4 || jpeg[0] != 0xFF || jpeg[1] != 0xD8 || jpeg[length - 2] != 0xFF || jpeg[length - 1] != 0xD9) return -1;
    unsigned long at = 2;
    while (at + 4 <= length && jpeg[at] == 0xFF) {
        int marker = jpeg[at + 1];
        unsigned long size = (unsigned long) jpeg[at + 2] << 8 | jpeg[at + 3];
        if (size < 2 || at + 2 + size > length - 2) return -1;
        /* SOF0: its length, the sample precision, then the height. */
        if (marker == 0xC0 && size >= 8) *height_at = at + 5;
        at += 2 + size;
        if (marker == 0xDA) {
            *data = at;
            return *height_at ? 0 : -1;
        }
    }
    return -1;
}

int cjpeg_join(const unsigned char *upper, unsigned long upper_length, const unsigned char *lower,
               unsigned long lower_length, int height, unsigned char **buffer, unsigned long *length) {
    *buffer = NULL;
    *length = 0;
    unsigned long upper_data, upper_height, lower_data, lower_height;
    if (find_scan(upper, upper_length, &upper_data, &upper_height)
        || find_scan(lower, lower_length, &lower_data, &lower_height) || height < 1 || height > 65535) {
        vips_error("jpeg", "%s", "the parts of the image cannot be joined");
        return -1;
    }
    /* The upper part's headers and data (its tables are the lower part's too), a marker, the
     * lower part's data and its end. */
    unsigned long size = upper_length + lower_length - lower_data;
    unsigned char *joined = malloc(size);
    if (joined == NULL) {
        vips_error("jpeg", "%s", "out of memory");
        return -1;
    }
    unsigned long at = upper_length - 2;
    memcpy(joined, upper, at);
    joined[upper_height] = (unsigned char) (height >> 8);
    joined[upper_height + 1] = (unsigned char) height;
    /* The upper part is one interval: its end is the scan's first restart. */
    joined[at++] = 0xFF;
    joined[at++] = 0xD0;
    /* The lower part's markers come one later in turn. In coded data a 0xFF byte is followed
     * by 0x00 (stuffing) or by a marker, so every marker is found this way. */
    const unsigned char *from = lower + lower_data, *end = lower + lower_length;
    while (from < end) {
        const unsigned char *mark = memchr(from, 0xFF, (size_t) (end - from));
        size_t run = mark == NULL ? (size_t) (end - from) : (size_t) (mark - from) + 1;
        memcpy(joined + at, from, run);
        at += run;
        from += run;
        if (mark != NULL && from < end) {
            unsigned char code = *from++;
            joined[at++] = code >= 0xD0 && code <= 0xD7 ? (unsigned char) (0xD0 + ((code - 0xD0 + 1) & 7)) : code;
        }
    }
    *buffer = joined;
    *length = at;
    return 0;
}
