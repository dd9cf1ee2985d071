/* A band of rows of a baseline JPEG without restart markers, cut out with an index of its
 * entropy code. Such a file's coded data is one bit stream from the first MCU to the last, and
 * each block's DC coefficient is coded as the difference from the one before: a row in its middle
 * cannot be decoded without reading everything above it. One pass that decodes the Huffman codes
 * alone (no coefficients kept, no IDCT, no colour) records, at the start of every MCU row, where
 * the row's bits start (byte and bit) and the DC value each component's next block is coded
 * against. A band is then made into a JPEG of its own, as jpegrestarts.c does at restarts: the
 * file's headers with the frame's height made the band's, and the band's bits moved to start on
 * a byte, its first MCU coded again so that each component's first DC difference is taken from
 * 0, as at the start of a scan. libjpeg decodes it to the same pixels as those rows of the whole.
 *
 * The pass records its rows one call at a time (cjpeg_scan_index_advance), and a band is cut as
 * soon as the rows it needs are recorded: the upper rows of a gigapixel photo are served while the
 * pass is still reading its lower ones. Each row start is written once, by the pass alone, before
 * the count of recorded starts is stored with release order; a cut loads that count with acquire
 * order and reads only the starts below it, so it never sees a start being written. */
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "entropycode.h"
#include "internal.h"

enum { MAX_COMPONENTS = 4, HEAD_LIMIT = 1 << 20 };

typedef struct {
    int blocks;      /* in an MCU: h × v when interleaved, 1 alone */
    int dc, ac;      /* table numbers */
} ScanComponent;

/* What the headers say, up to the scan's coded data. */
typedef struct {
    long data;       /* where the coded data starts */
    long scan_at;    /* where the SOS segment starts */
    long height_at;  /* where the frame's height is */
    long width, height;
    long mcu_width, mcu_height, columns, rows;
    int components;
    ScanComponent scan[MAX_COMPONENTS];
    HuffTable dc[4], ac[4];
} IndexLayout;

/* Where an MCU row's coded data starts. */
typedef struct {
    off_t byte;   /* the file's byte holding its first bit */
    int bit;      /* bits of that byte before it, 0 to 7 */
    int32_t dc[MAX_COMPONENTS];  /* each component's DC value its first block is coded against */
} RowStart;

struct cjpeg_scan_index {
    IndexLayout layout;
    unsigned char *head;  /* the headers, layout.data bytes */
    RowStart *starts;     /* rows + 1: the last is where the scan's data ends */
    atomic_int recorded;  /* starts written so far, 0 to rows + 1 (see the top of this file) */
    /* The pass, touched only by the one thread that advances it: where it is in the coded data
     * (reader.chunk NULL once it ended), the DC values the next MCU is coded against, and whether
     * it failed (a failed pass records nothing more). */
    BitReader reader;
    int32_t dc[MAX_COMPONENTS];
    int failed;
};

static int read_tables(IndexLayout *layout, const unsigned char *segment, long size) {
    long at = 0;
    while (at < size) {
        if (at + 17 > size) return -1;
        int type = segment[at] >> 4, number = segment[at] & 15;
        if (type > 1 || number > 3) return -1;
        int total = 0;
        for (int i = 0; i < 16; i++) total += segment[at + 1 + i];
        if (total > 256 || at + 17 + total > size) return -1;
        if (entropy_table_build(type == 0 ? &layout->dc[number] : &layout->ac[number], segment + at + 1, segment + at + 17, total)) {
            return -1;
        }
        at += 17 + total;
    }
    return 0;
}

/* 0 when the headers are those of one 8-bit baseline or extended sequential scan of every
 * component, Huffman coded, without restarts; -1 otherwise. */
static int read_index_layout(const unsigned char *head, long length, IndexLayout *layout) {
    memset(layout, 0, sizeof *layout);
    if (length < 4 || head[0] != 0xFF || head[1] != 0xD8) return -1;
    long at = 2;
    int ids[MAX_COMPONENTS], h[MAX_COMPONENTS], v[MAX_COMPONENTS], max_h = 1, max_v = 1;
    while (at + 4 <= length) {
        if (head[at] != 0xFF) return -1;
        int marker = head[at + 1];
        if (marker == 0xFF) { at++; continue; }
        long size = (long) head[at + 2] << 8 | head[at + 3];
        if (size < 2 || at + 2 + size > length) return -1;
        const unsigned char *segment = head + at + 4;
        if (marker == 0xC0 || marker == 0xC1) {
            if (size < 8 || segment[0] != 8 || layout->height_at) return -1;
            layout->height_at = at + 5;
            layout->height = (long) segment[1] << 8 | segment[2];
            layout->width = (long) segment[3] << 8 | segment[4];
            layout->components = segment[5];
            if (layout->components < 1 || layout->components > MAX_COMPONENTS || size < 8 + 3 * layout->components) return -1;
            for (int c = 0; c < layout->components; c++) {
                ids[c] = segment[6 + 3 * c];
                h[c] = segment[7 + 3 * c] >> 4;
                v[c] = segment[7 + 3 * c] & 15;
                if (h[c] < 1 || h[c] > 4 || v[c] < 1 || v[c] > 4) return -1;
                if (h[c] > max_h) max_h = h[c];
                if (v[c] > max_v) max_v = v[c];
            }
        } else if (marker >= 0xC2 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
            return -1;  /* progressive, lossless or arithmetic */
        } else if (marker == 0xC4) {
            if (read_tables(layout, segment, size - 2)) return -1;
        } else if (marker == 0xDD) {
            if (size < 4 || (segment[0] | segment[1])) return -1;  /* restarts: jpegrestarts.c */
        } else if (marker == 0xDA) {
            int count = layout->height_at ? segment[0] : 0;
            if (count != layout->components || size < 6 + 2 * count) return -1;
            const unsigned char *spectral = segment + 1 + 2 * count;
            if (spectral[0] != 0 || spectral[1] != 63 || spectral[2] != 0) return -1;
            int blocks = 0;
            for (int s = 0; s < count; s++) {
                int c = 0;
                while (c < layout->components && ids[c] != segment[1 + 2 * s]) c++;
                if (c == layout->components) return -1;
                ScanComponent *component = &layout->scan[s];
                /* A scan of a single component has blocks for MCUs, whatever its sampling. */
                component->blocks = count == 1 ? 1 : h[c] * v[c];
                component->dc = segment[2 + 2 * s] >> 4;
                component->ac = segment[2 + 2 * s] & 15;
                if (component->dc > 3 || component->ac > 3 || !layout->dc[component->dc].defined
                    || !layout->ac[component->ac].defined) {
                    return -1;
                }
                blocks += component->blocks;
            }
            if (blocks > 10) return -1;
            layout->mcu_width = count == 1 ? 8 : 8 * max_h;
            layout->mcu_height = count == 1 ? 8 : 8 * max_v;
            layout->scan_at = at;
            layout->data = at + 2 + size;
            if (layout->width <= 0 || layout->height <= 0) return -1;
            layout->columns = (layout->width + layout->mcu_width - 1) / layout->mcu_width;
            layout->rows = (layout->height + layout->mcu_height - 1) / layout->mcu_height;
            return 0;
        }
        at += 2 + size;
    }
    return -1;
}

/* One MCU read: each component's DC values moved on (its first block's value in first[s] when
 * `first` is not NULL); its bits copied to `writer` (NULL: none), each component's first DC
 * difference coded from 0 with `restated`'s DC tables when it is not NULL. -1 when its bits are
 * no block's. */
static int read_mcu(BitReader *reader, const IndexLayout *layout, int32_t *dc, int32_t *first, BitWriter *writer,
                    const HuffTable *restated) {
    for (int s = 0; s < layout->components; s++) {
        const ScanComponent *component = &layout->scan[s];
        const HuffTable *dc_table = &layout->dc[component->dc], *ac_table = &layout->ac[component->ac];
        for (int b = 0; b < component->blocks; b++) {
            int length, category = decode_symbol(reader, dc_table, &length);
            if (category < 0 || category > 11) return -1;
            uint32_t raw = peek(reader, length + category);
            reader->count -= length + category;
            int32_t value = (int32_t) ((uint32_t) dc[s] + (uint32_t) extend(raw & ((1u << category) - 1), category));
            if (first && b == 0) first[s] = value;
            if (writer && restated && b == 0) {
                /* Coded from 0: the category of the value itself, which the table must have. */
                const HuffTable *table = &restated[component->dc];
                int size = dc_category(value);
                if (size > 11 || table->size[size] == 0) return -1;
                put_bits(writer, table->code[size], table->size[size]);
                put_bits(writer, value < 0 ? (uint32_t) (value - 1) : (uint32_t) value, size);
            } else if (writer) {
                put_bits(writer, raw, length + category);
            }
            dc[s] = value;
            for (int k = 1; k < 64;) {
                int symbol = decode_symbol(reader, ac_table, &length);
                if (symbol < 0) return -1;
                int size = symbol & 15, run = symbol >> 4;
                if (writer) put_bits(writer, peek(reader, length + size), length + size);
                reader->count -= length + size;
                if (size == 0 && run != 15) break;  /* end of block */
                k += run + 1;
                if (k > 64) return -1;
            }
        }
    }
    return 0;
}

/* One MCU passed over for the index: each component's DC values moved on, nothing else kept.
 * The same reading as read_mcu's, through the tables' fast entries. */
static int skip_mcu(BitReader *reader, const IndexLayout *layout, int32_t *dc) {
    for (int s = 0; s < layout->components; s++) {
        const ScanComponent *component = &layout->scan[s];
        const HuffTable *dc_table = &layout->dc[component->dc], *ac_table = &layout->ac[component->ac];
        for (int b = 0; b < component->blocks; b++) {
            if (reader->count < 32) fill(reader);
            uint16_t entry = dc_table->look[peek(reader, LOOKAHEAD)];
            int length = entry >> 8, category = entry & 0xFF;
            if (entry == 0) category = decode_symbol(reader, dc_table, &length);
            if (category < 0 || category > 11) return -1;
            uint32_t raw = peek(reader, length + category);
            reader->count -= length + category;
            dc[s] = (int32_t) ((uint32_t) dc[s] + (uint32_t) extend(raw & ((1u << category) - 1), category));
            for (int k = 1; k < 64;) {
                if (reader->count < 32) fill(reader);
                uint16_t fast = ac_table->fast[peek(reader, LOOKAHEAD)];
                if (fast) {
                    reader->count -= fast & FAST_BITS;
                    if (fast & FAST_END) break;
                    k += (fast >> FAST_STEP_SHIFT) & 31;
                    if (k > 64) return -1;
                } else {
                    int symbol = decode_symbol(reader, ac_table, &length);
                    if (symbol < 0) return -1;
                    int size = symbol & 15, run = symbol >> 4;
                    reader->count -= length + size;
                    if (size == 0 && run != 15) break;
                    k += run + 1;
                    if (k > 64) return -1;
                }
            }
        }
    }
    return 0;
}

void cjpeg_scan_index_free(cjpeg_scan_index *index) {
    if (index == NULL) return;
    free(index->reader.chunk);
    free(index->head);
    free(index->starts);
    free(index);
}

/* The headers of the JPEG open on `fd`, up to its scan's coded data; 0, or -1 when they are not
 * one scan the index takes. *head (malloc'd) holds them on success. */
static int read_head(int fd, off_t file_size, unsigned char **head, IndexLayout *layout) {
    long length = file_size < HEAD_LIMIT ? (long) file_size : HEAD_LIMIT;
    *head = length >= 4 ? malloc((size_t) length) : NULL;
    if (*head == NULL || entropy_pread_all(fd, *head, (size_t) length, 0) || read_index_layout(*head, length, layout)) {
        free(*head);
        *head = NULL;
        return -1;
    }
    return 0;
}

int cjpeg_scan_indexable(int fd) {
    struct stat status;
    unsigned char *head;
    IndexLayout *layout = malloc(sizeof *layout);
    int indexable = layout && !fstat(fd, &status) && !read_head(fd, status.st_size, &head, layout);
    if (indexable) free(head);
    free(layout);
    return indexable;
}

cjpeg_scan_index *cjpeg_scan_index_new(int fd) {
    struct stat status;
    if (fstat(fd, &status)) {
        vips_error("jpeg", "%s", "cannot read the file");
        return NULL;
    }
    cjpeg_scan_index *index = calloc(1, sizeof *index);
    if (index == NULL || read_head(fd, status.st_size, &index->head, &index->layout)) {
        vips_error("jpeg", "%s", "not one baseline scan without restarts");
        cjpeg_scan_index_free(index);
        return NULL;
    }
    index->starts = calloc((size_t) index->layout.rows + 1, sizeof(RowStart));
    index->reader = (BitReader) { .fd = -1, .file_end = status.st_size, .real = UINT64_MAX };
    index->reader.chunk = malloc(CHUNK);
    if (index->starts == NULL || index->reader.chunk == NULL) {
        vips_error("jpeg", "%s", "out of memory");
        cjpeg_scan_index_free(index);
        return NULL;
    }
    index->reader.chunk_offset = (off_t) index->layout.data;
    atomic_init(&index->recorded, 0);
    return index;
}

/* The pass ended, whole or not: its reading buffer is not needed any more. */
static int pass_end(cjpeg_scan_index *index, int result) {
    free(index->reader.chunk);
    index->reader.chunk = NULL;
    if (result < 0) index->failed = 1;
    return result;
}

int cjpeg_scan_index_advance(cjpeg_scan_index *index, int fd, CVipsStop *stop) {
    const IndexLayout *layout = &index->layout;
    int recorded = atomic_load_explicit(&index->recorded, memory_order_relaxed);
    if (index->failed) {
        vips_error("jpeg", "%s", "damaged or incomplete");
        return -1;
    }
    if (recorded == layout->rows + 1) return 1;
    if (cvips_stop_check(stop)) return pass_end(index, -1);
    BitReader *reader = &index->reader;
    reader->fd = fd;
    /* Row recorded - 1 read through (none before the first start), its end the next row's start. */
    if (recorded > 0) {
        for (long column = 0; column < layout->columns; column++) {
            if (skip_mcu(reader, layout, index->dc) || !within(reader)) {
                vips_error("jpeg", "%s", "damaged or incomplete");
                return pass_end(index, -1);
            }
        }
    }
    fill(reader);
    RowStart *start = &index->starts[recorded];
    entropy_position(reader, &start->byte, &start->bit);
    memcpy(start->dc, index->dc, sizeof index->dc);
    atomic_store_explicit(&index->recorded, recorded + 1, memory_order_release);
    if (recorded + 1 < layout->rows + 1) return 0;
    return pass_end(index, 1);
}

int cjpeg_scan_index_recorded(const cjpeg_scan_index *index) {
    return atomic_load_explicit(&index->recorded, memory_order_acquire);
}

cjpeg_scan_index *cjpeg_scan_index_build(int fd, CVipsStop *stop) {
    cjpeg_scan_index *index = cjpeg_scan_index_new(fd);
    if (index == NULL) return NULL;
    int result;
    while ((result = cjpeg_scan_index_advance(index, fd, stop)) == 0) {}
    if (result < 0) {
        cjpeg_scan_index_free(index);
        return NULL;
    }
    return index;
}

int cjpeg_scan_index_rows(const cjpeg_scan_index *index) { return (int) index->layout.rows; }

/* The DC tables the band's first MCU is coded again with: the file's own, and where one lacks the
 * category a first block's value falls in from 0 (an optimized table has only the categories of
 * the differences it codes), the same with the missing categories added as 16-bit codes after
 * every code it has, which leaves the codes the rest of the data uses as they are; a DHT segment
 * defining each such table again is appended to `segments`. -1 when a table has no room left. */
static int restate_tables(const IndexLayout *layout, const int32_t *first, HuffTable *restated, unsigned char *segments,
                          size_t *length) {
    *length = 0;
    for (int t = 0; t < 4; t++) {
        if (!layout->dc[t].defined) continue;
        restated[t] = layout->dc[t];
        unsigned char counts[16], values[256 + MAX_COMPONENTS];
        memcpy(counts, layout->dc[t].counts, 16);
        memcpy(values, layout->dc[t].values, (size_t) layout->dc[t].total);
        int total = layout->dc[t].total;
        for (int s = 0; s < layout->components; s++) {
            int category = dc_category(first[s]);
            if (layout->scan[s].dc != t || category > 11 || restated[t].size[category]) continue;
            int added = 0;
            for (int i = layout->dc[t].total; i < total; i++) added |= values[i] == category;
            if (added) continue;
            if (total == 256) return -1;
            values[total++] = (unsigned char) category;
            counts[15]++;
        }
        if (total == layout->dc[t].total) continue;
        if (entropy_table_build(&restated[t], counts, values, total)) return -1;
        unsigned char *segment = segments + *length;
        long size = 2 + 1 + 16 + total;
        segment[0] = 0xFF;
        segment[1] = 0xC4;
        segment[2] = (unsigned char) (size >> 8);
        segment[3] = (unsigned char) size;
        segment[4] = (unsigned char) t;
        memcpy(segment + 5, counts, 16);
        memcpy(segment + 21, values, (size_t) total);
        *length += (size_t) (2 + size);
    }
    return 0;
}

/* The MCU rows [*from_row, *to_row) of the band holding image rows first_row to last_row
 * (exclusive); -1 when there are none. */
static int band_rows(const IndexLayout *layout, int first_row, int last_row, long *from_row, long *to_row) {
    /* An MCU row more on either side: chroma is upsampled from the rows beside it, which the band
     * must have for its pixels to be the whole decode's. */
    *from_row = first_row / layout->mcu_height - 1;
    *to_row = (last_row + layout->mcu_height - 1) / layout->mcu_height + 1;
    if (*from_row < 0) *from_row = 0;
    if (*to_row > layout->rows) *to_row = layout->rows;
    return first_row < 0 || *from_row >= *to_row ? -1 : 0;
}

int cjpeg_scan_index_needs(const cjpeg_scan_index *index, int first_row, int last_row) {
    long from_row, to_row;
    if (band_rows(&index->layout, first_row, last_row, &from_row, &to_row)) return (int) index->layout.rows + 1;
    /* Its start and its end, which is the next row's start. */
    return (int) to_row + 1;
}

int cjpeg_scan_index_cut(const cjpeg_scan_index *index, int fd, int first_row, int last_row, unsigned char **buffer,
                         size_t *size, int *top) {
    *buffer = NULL;
    *size = 0;
    *top = 0;
    const IndexLayout *layout = &index->layout;
    long from_row, to_row;
    if (band_rows(layout, first_row, last_row, &from_row, &to_row)) return -1;
    /* Only starts the pass has recorded (loaded with acquire order: they are written before). */
    if (to_row >= cjpeg_scan_index_recorded(index)) return -1;
    const RowStart *start = &index->starts[from_row], *end = &index->starts[to_row];
    /* The band's bytes, and two more: the end may fall inside a 0xFF 0x00. */
    struct stat status;
    if (fstat(fd, &status) || end->byte < start->byte || end->byte > status.st_size) return -1;
    off_t through = end->byte + 2 < status.st_size ? end->byte + 2 : status.st_size;
    size_t coded = (size_t) (through - start->byte);
    unsigned char *source = malloc(coded + 1), *cut = NULL;
    HuffTable *restated = malloc(4 * sizeof(HuffTable));
    unsigned char segments[4 * (4 + 17 + 256 + MAX_COMPONENTS)];
    size_t segments_length;
    if (source == NULL || restated == NULL || entropy_pread_all(fd, source, coded, start->byte)) goto failed;
    /* The band's bits, counted without the stuffed zeros. */
    uint64_t bytes = 0;
    for (size_t at = 0; at < (size_t) (end->byte - start->byte); at++, bytes++) {
        if (source[at] == 0xFF) at++;
    }
    uint64_t bits = bytes * 8 + (uint64_t) end->bit - (uint64_t) start->bit;
    BitReader reader = { .fd = -1, .chunk = source, .chunk_length = coded, .chunk_offset = start->byte, .real = UINT64_MAX };
    fill(&reader);
    reader.count -= start->bit;
    /* The first MCU read once to learn its first blocks' DC values, then again to code it. */
    BitReader probe = reader;
    int32_t dc[MAX_COMPONENTS], first[MAX_COMPONENTS];
    memcpy(dc, start->dc, sizeof dc);
    if (read_mcu(&probe, layout, dc, first, NULL, NULL) || restate_tables(layout, first, restated, segments, &segments_length)) {
        goto failed;
    }
    /* Written: the headers and the tables, the band's bits (each byte at most doubled by
     * stuffing, and the first MCU's DC codes a few bytes longer), EOI. */
    size_t head = (size_t) layout->data + segments_length;
    cut = malloc(head + 2 * coded + 64);
    if (cut == NULL) goto failed;
    BitWriter writer = { .out = cut, .at = head };
    memcpy(dc, start->dc, sizeof dc);
    if (read_mcu(&reader, layout, dc, NULL, &writer, restated) || bits_read(&reader) - (uint64_t) start->bit > bits) {
        goto failed;
    }
    for (uint64_t left = bits - (bits_read(&reader) - (uint64_t) start->bit); left > 0;) {
        int n = left < 32 ? (int) left : 32;
        fill(&reader);
        put_bits(&writer, peek(&reader, n), n);
        reader.count -= n;
        left -= (uint64_t) n;
    }
    if (!within(&reader)) goto failed;
    /* The last byte filled with ones, as an encoder pads. */
    if (writer.count) put_bits(&writer, 0xFF, 8 - writer.count);
    free(source);
    free(restated);
    long band_top = from_row * layout->mcu_height;
    long height = (to_row * layout->mcu_height < layout->height ? to_row * layout->mcu_height : layout->height) - band_top;
    /* The headers, the tables defined again just before the scan. */
    memcpy(cut, index->head, (size_t) layout->scan_at);
    memcpy(cut + layout->scan_at, segments, segments_length);
    memcpy(cut + layout->scan_at + segments_length, index->head + layout->scan_at, (size_t) (layout->data - layout->scan_at));
    cut[layout->height_at] = (unsigned char) (height >> 8);
    cut[layout->height_at + 1] = (unsigned char) height;
    cut[writer.at++] = 0xFF;
    cut[writer.at++] = 0xD9;
    *buffer = cut;
    *size = writer.at;
    *top = (int) band_top;
    return 0;
failed:
    free(source);
    free(restated);
    free(cut);
    return -1;
}
