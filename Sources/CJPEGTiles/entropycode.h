/* A JPEG scan's entropy-coded data read and written bit by bit, and its Huffman tables: what the
 * scan index (jpegscanindex.c) decodes and codes again. The calls made for every code are inline
 * here; the rest is in entropycode.c. */
#ifndef PHOTOSCROLL_ENTROPY_CODE_H
#define PHOTOSCROLL_ENTROPY_CODE_H

#include <stdint.h>
#include <string.h>
#include <sys/types.h>

enum { LOOKAHEAD = 10 };
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

/* `size` bytes of `fd` from `at`, whatever number of reads it takes; -1 when they are not there. */
int entropy_pread_all(int fd, unsigned char *into, size_t size, off_t at);

/* Canonical codes from a DHT's counts of codes of each length and its symbols (JPEG's Annex C);
 * -1 when they are no prefix code. */
int entropy_table_build(HuffTable *table, const unsigned char *counts, const unsigned char *values, int total);

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
 * from at most 16 of them, where entropy_position looks back. */
enum { CHUNK = 1 << 20, HISTORY = 32 };

/* One byte more into the bits held: the next one of the coded data, or a zero past its end. */
void entropy_load_byte(BitReader *reader);

/* Where the next bit to read is: the file's byte holding it and the bits of that byte before
 * it. Found by going back from the next unread byte over the bytes held (a 0x00 after 0xFF is
 * the 0xFF's stuffing); past the end, the end. */
void entropy_position(const BitReader *reader, off_t *byte, int *bit);

/* At least 57 bits held: each decode_symbol and peek below needs at most 32. */
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
        entropy_load_byte(reader);
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

static inline int dc_category(int32_t value) {
    uint32_t magnitude = value < 0 ? 0u - (uint32_t) value : (uint32_t) value;
    int size = 0;
    while (size < 32 && magnitude >> size) size++;
    return size;
}

static inline int32_t extend(uint32_t bits, int size) {
    return size == 0 ? 0 : bits < (1u << (size - 1)) ? (int32_t) bits - (int32_t) (1u << size) + 1 : (int32_t) bits;
}

#endif
