/* A band of rows of a baseline JPEG without restart markers, cut out with an index of its
 * entropy code. Such a file's coded data is one bit stream from the first MCU to the last, and
 * each block's DC coefficient is coded as the difference from the one before: a row in its middle
 * cannot be decoded without reading everything above it. One pass that decodes the Huffman codes
 * alone (no coefficients kept, no IDCT, no colour) records, at the start of every MCU row, where
 * the row's bits start (byte and bit) and the DC value each component's next block is coded
 * against. A band is then made into a JPEG of its own, as jpegrestarts.c does at restarts: the
 * file's headers with the frame's height made the band's, and the band's bits moved to start on
 * a byte, its first MCU coded again so that each component's first DC difference is taken from
 * 0, as at the start of a scan. libjpeg decodes it to the same pixels as those rows of the whole. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"

enum { MAX_COMPONENTS = 4, LOOKAHEAD = 10, HEAD_LIMIT = 1 << 20 };
enum { FAST_BITS = 31, FAST_STEP_SHIFT = 5, FAST_END = 1 << 10 };

/* One Huffman table, for decoding (a table of the codes up to LOOKAHEAD bits, the canonical
 * limits for longer ones) and for coding DC categories again. */
typedef struct {
    int defined;
    unsigned char counts[16];       /* codes of each length, 1 to 16, as the DHT says */
    int total;
    uint16_t look[1 << LOOKAHEAD];  /* length << 8 | symbol; 0: longer than LOOKAHEAD or none */
    /* An AC code up to LOOKAHEAD bits and what follows it, for the index's pass: the bits both
     * take (FAST_BITS), how far the coefficient number moves (FAST_STEP), whether the block ends
     * (FAST_END); 0: longer than LOOKAHEAD or none. */
    uint16_t fast[1 << LOOKAHEAD];
    int32_t maxcode[18];            /* largest code of each length; -1: none */
    int32_t valptr[17], mincode[17];
    unsigned char values[256];
    uint16_t code[256];
    unsigned char size[256];        /* code length of each symbol; 0: the table has none */
} HuffTable;

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
};

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

/* Canonical codes from a DHT's counts of codes of each length and its symbols (JPEG's Annex C). */
static int build_table(HuffTable *table, const unsigned char *counts, const unsigned char *values, int total) {
    memset(table, 0, sizeof *table);
    memcpy(table->counts, counts, 16);
    memcpy(table->values, values, (size_t) total);
    table->total = total;
    int32_t code = 0;
    int k = 0;
    for (int length = 1; length <= 16; length++) {
        table->valptr[length] = k;
        table->mincode[length] = code;
        for (int i = 0; i < counts[length - 1]; i++, k++, code++) {
            /* A code past every one of its length is not a code at all. */
            if (code >= (1 << length)) return -1;
            unsigned char symbol = values[k];
            table->code[symbol] = (uint16_t) code;
            table->size[symbol] = (unsigned char) length;
            if (length <= LOOKAHEAD) {
                int shift = LOOKAHEAD - length;
                int size = symbol & 15, run = symbol >> 4;
                uint16_t fast = (uint16_t) (length + size) | (uint16_t) ((run + 1) << FAST_STEP_SHIFT);
                if (size == 0 && run != 15) fast = (uint16_t) length | FAST_END;
                for (int fill = 0; fill < 1 << shift; fill++) {
                    table->look[(code << shift) | fill] = (uint16_t) (length << 8 | symbol);
                    table->fast[(code << shift) | fill] = fast;
                }
            }
        }
        table->maxcode[length] = counts[length - 1] ? code - 1 : -1;
        code <<= 1;
    }
    table->maxcode[17] = INT32_MAX;
    table->defined = 1;
    return 0;
}

static int read_tables(IndexLayout *layout, const unsigned char *segment, long size) {
    long at = 0;
    while (at < size) {
        if (at + 17 > size) return -1;
        int type = segment[at] >> 4, number = segment[at] & 15;
        if (type > 1 || number > 3) return -1;
        int total = 0;
        for (int i = 0; i < 16; i++) total += segment[at + 1 + i];
        if (total > 256 || at + 17 + total > size) return -1;
        if (build_table(type == 0 ? &layout->dc[number] : &layout->ac[number], segment + at + 1, segment + at + 17, total)) {
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

/* The coded data read bit by bit: 0xFF 0x00 is the byte 0xFF, and any other marker (or the end
 * of what there is to read) ends it; past the end, zero bits, counted. Reads the file in chunks
 * (fd >= 0) or one buffer held by the caller (fd < 0). */
typedef struct {
    int fd;
    off_t file_end;
    unsigned char *chunk;
    size_t chunk_length, chunk_at;
    off_t chunk_offset;    /* the file's offset of chunk[0] */
    uint64_t bits_held;    /* the next `count` bits, in its low end */
    int count;
    uint64_t loaded;       /* bytes taken into bits_held, the padding too */
    uint64_t real;         /* bytes there were before the end; UINT64_MAX until it is met */
} BitReader;

/* Bytes of a chunk kept before the first unread one when the next is read: the bits held come
 * from at most 16 of them, where reader_position looks back. */
enum { CHUNK = 1 << 20, HISTORY = 32 };

/* The next chunk from the file, after the byte or two not read yet; -1 when there is no more. */
static int next_chunk(BitReader *reader) {
    if (reader->fd < 0) return -1;
    size_t history = reader->chunk_at < HISTORY ? reader->chunk_at : HISTORY;
    size_t kept = reader->chunk_length - reader->chunk_at + history;
    memmove(reader->chunk, reader->chunk + reader->chunk_at - history, kept);
    reader->chunk_offset += (off_t) (reader->chunk_at - history);
    reader->chunk_at = history;
    reader->chunk_length = kept;
    off_t from = reader->chunk_offset + (off_t) kept;
    size_t size = reader->file_end - from < (off_t) (CHUNK - kept) ? (size_t) (reader->file_end - from) : CHUNK - kept;
    if (size == 0 || read_all(reader->fd, reader->chunk + kept, size, from)) return -1;
    reader->chunk_length = kept + size;
    return 0;
}

static void load_byte(BitReader *reader) {
    unsigned value = 0;
    if (reader->real == UINT64_MAX && reader->chunk_length - reader->chunk_at < 2) next_chunk(reader);
    if (reader->real == UINT64_MAX) {
        size_t left = reader->chunk_length - reader->chunk_at;
        const unsigned char *at = reader->chunk + reader->chunk_at;
        if (left > 0 && at[0] != 0xFF) {
            value = at[0];
            reader->chunk_at++;
        } else if (left > 1 && at[1] == 0x00) {
            value = 0xFF;
            reader->chunk_at += 2;
        } else {
            reader->real = reader->loaded;  /* a marker, the end of the file, or a lone 0xFF there */
        }
    }
    reader->bits_held = reader->bits_held << 8 | value;
    reader->count += 8;
    reader->loaded++;
}

static inline void fill(BitReader *reader) {
    while (reader->count <= 56) {
        /* As many bytes as there is room for at once, when none of the next eight is 0xFF. */
        if (reader->chunk_length - reader->chunk_at >= 8 && reader->real == UINT64_MAX) {
            uint64_t word;
            memcpy(&word, reader->chunk + reader->chunk_at, 8);
            word = __builtin_bswap64(word);
            uint64_t inverted = ~word;
            if (((inverted - 0x0101010101010101ull) & ~inverted & 0x8080808080808080ull) == 0) {
                int take = (64 - reader->count) / 8;
                reader->bits_held = take == 8 ? word : reader->bits_held << (8 * take) | word >> (64 - 8 * take);
                reader->count += 8 * take;
                reader->loaded += (uint64_t) take;
                reader->chunk_at += (size_t) take;
                return;
            }
        }
        load_byte(reader);
    }
}

static inline uint32_t peek(BitReader *reader, int n) {
    return (uint32_t) (reader->bits_held >> (reader->count - n)) & (uint32_t) ((1ull << n) - 1);
}

static inline uint64_t bits_read(const BitReader *reader) { return reader->loaded * 8 - (uint64_t) reader->count; }

/* Whether every bit read so far was there. */
static inline int within(const BitReader *reader) { return bits_read(reader) <= reader->real * 8; }

/* The next symbol of `table`: its code's length in *length; -1 when the bits are no code. */
static inline int decode_symbol(BitReader *reader, const HuffTable *table, int *length) {
    fill(reader);
    uint16_t entry = table->look[peek(reader, LOOKAHEAD)];
    if (entry) {
        *length = entry >> 8;
        return entry & 0xFF;
    }
    int32_t code = (int32_t) peek(reader, LOOKAHEAD);
    int size = LOOKAHEAD;
    while (size < 16 && code > table->maxcode[size]) {
        size++;
        code = (int32_t) peek(reader, size);
    }
    if (code > table->maxcode[size]) return -1;
    *length = size;
    return table->values[table->valptr[size] + code - table->mincode[size]];
}

/* The coded bits being written, bytes 0xFF followed by 0x00. The buffer holds every byte. */
typedef struct {
    unsigned char *out;
    size_t at;
    uint64_t bits_held;
    int count;
} BitWriter;

static inline void put_bits(BitWriter *writer, uint32_t bits, int n) {
    if (n == 0) return;
    writer->bits_held = writer->bits_held << n | (bits & (uint32_t) ((1ull << n) - 1));
    writer->count += n;
    while (writer->count >= 8) {
        unsigned char byte = (unsigned char) (writer->bits_held >> (writer->count - 8));
        writer->out[writer->at++] = byte;
        if (byte == 0xFF) writer->out[writer->at++] = 0x00;
        writer->count -= 8;
    }
}

static int dc_category(int32_t value) {
    uint32_t magnitude = value < 0 ? (uint32_t) -value : (uint32_t) value;
    int size = 0;
    while (magnitude >> size) size++;
    return size;
}

static int32_t extend(uint32_t bits, int size) {
    return size == 0 ? 0 : bits < (1u << (size - 1)) ? (int32_t) bits - (int32_t) (1u << size) + 1 : (int32_t) bits;
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

/* Where the next bit to read is: the file's byte holding it and the bits of that byte before
 * it. Found by going back from the next unread byte over the bytes held (a 0x00 after 0xFF is
 * the 0xFF's stuffing); past the end, the end. */
static void reader_position(const BitReader *reader, off_t *byte, int *bit) {
    uint64_t at = bits_read(reader), number = at / 8;
    *bit = (int) (at % 8);
    uint64_t loaded = reader->real == UINT64_MAX ? reader->loaded : reader->real;
    size_t p = reader->chunk_at;
    for (uint64_t back = number < loaded ? loaded - number : 0; back > 0 && p > 0; back--) {
        p--;
        if (reader->chunk[p] == 0x00 && p > 0 && reader->chunk[p - 1] == 0xFF) p--;
    }
    *byte = reader->chunk_offset + (off_t) p;
}

void cjpeg_scan_index_free(cjpeg_scan_index *index) {
    if (index == NULL) return;
    free(index->head);
    free(index->starts);
    free(index);
}

/* The headers of the JPEG open on `fd`, up to its scan's coded data; 0, or -1 when they are not
 * one scan the index takes. *head (malloc'd) holds them on success. */
static int read_head(int fd, off_t file_size, unsigned char **head, IndexLayout *layout) {
    long length = file_size < HEAD_LIMIT ? (long) file_size : HEAD_LIMIT;
    *head = length >= 4 ? malloc((size_t) length) : NULL;
    if (*head == NULL || read_all(fd, *head, (size_t) length, 0) || read_index_layout(*head, length, layout)) {
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

cjpeg_scan_index *cjpeg_scan_index_build(int fd, CVipsStop *stop) {
    struct stat status;
    if (fstat(fd, &status)) {
        vips_error("jpeg", "%s", "cannot read the file");
        return NULL;
    }
    cjpeg_scan_index *index = calloc(1, sizeof *index);
    BitReader reader = { .fd = fd, .file_end = status.st_size, .real = UINT64_MAX };
    reader.chunk = malloc(CHUNK);
    if (index == NULL || reader.chunk == NULL || read_head(fd, status.st_size, &index->head, &index->layout)) {
        vips_error("jpeg", "%s", "not one baseline scan without restarts");
        goto failed;
    }
    IndexLayout *layout = &index->layout;
    index->starts = calloc((size_t) layout->rows + 1, sizeof(RowStart));
    if (index->starts == NULL) goto failed;
    reader.chunk_offset = (off_t) layout->data;
    int32_t dc[MAX_COMPONENTS] = { 0 };
    for (long row = 0; row < layout->rows; row++) {
        if (cvips_stop_check(stop)) goto failed;
        fill(&reader);
        RowStart *start = &index->starts[row];
        reader_position(&reader, &start->byte, &start->bit);
        memcpy(start->dc, dc, sizeof dc);
        for (long column = 0; column < layout->columns; column++) {
            if (skip_mcu(&reader, layout, dc) || !within(&reader)) {
                vips_error("jpeg", "%s", "damaged or incomplete");
                goto failed;
            }
        }
    }
    fill(&reader);
    reader_position(&reader, &index->starts[layout->rows].byte, &index->starts[layout->rows].bit);
    free(reader.chunk);
    return index;
failed:
    free(reader.chunk);
    cjpeg_scan_index_free(index);
    return NULL;
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
        if (build_table(&restated[t], counts, values, total)) return -1;
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

int cjpeg_scan_index_cut(const cjpeg_scan_index *index, int fd, int first_row, int last_row, unsigned char **buffer,
                         size_t *size, int *top) {
    *buffer = NULL;
    *size = 0;
    *top = 0;
    const IndexLayout *layout = &index->layout;
    /* An MCU row more on either side: chroma is upsampled from the rows beside it, which the band
     * must have for its pixels to be the whole decode's. */
    long from_row = first_row / layout->mcu_height - 1, to_row = (last_row + layout->mcu_height - 1) / layout->mcu_height + 1;
    if (from_row < 0) from_row = 0;
    if (to_row > layout->rows) to_row = layout->rows;
    if (first_row < 0 || from_row >= to_row) return -1;
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
    if (source == NULL || restated == NULL || read_all(fd, source, coded, start->byte)) goto failed;
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
