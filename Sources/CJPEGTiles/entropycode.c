/* The entropy code's reading that is not done for every code: Huffman tables built, the coded
 * data read in chunks, and where the next bit is in the file. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "entropycode.h"

int entropy_pread_all(int fd, unsigned char *into, size_t size, off_t at) {
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

int entropy_table_build(HuffTable *table, const unsigned char *counts, const unsigned char *values, int total) {
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
    if (size == 0 || entropy_pread_all(reader->fd, reader->chunk + kept, size, from)) return -1;
    reader->chunk_length = kept + size;
    return 0;
}

void entropy_load_byte(BitReader *reader) {
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

/* Where the next bit to read is: the file's byte holding it and the bits of that byte before
 * it. Found by going back from the next unread byte over the bytes held (a 0x00 after 0xFF is
 * the 0xFF's stuffing); past the end, the end. */
void entropy_position(const BitReader *reader, off_t *byte, int *bit) {
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
