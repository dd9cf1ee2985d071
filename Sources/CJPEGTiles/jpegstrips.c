/* JPEG read in strips and tiles written straight through libjpeg(-turbo): the decoder libvips
 * itself uses, without a pipeline around it. A pyramid needs little more than this: rows decoded
 * in order (at 1, 1/2, 1/4 or 1/8 of the size, the DCT scaling libjpeg does for free), tiles
 * encoded as they pass, rows averaged two by two for the level below. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jpeglib.h>
#include <jerror.h>
#include <vips/vips.h>
#include "CJPEGTiles.h"
#include "internal.h"

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf escape;
    char message[JMSG_LENGTH_MAX];
} StripError;

static void strip_error_exit(j_common_ptr info) {
    StripError *error = (StripError *) info->err;
    info->err->format_message(info, error->message);
    longjmp(error->escape, 1);
}

/* As libvips with fail_on=truncated: a file cut short is an error, not a grey bottom half;
 * other warnings (a few stray bytes before a marker) are not. */
static void strip_emit_message(j_common_ptr info, int level) {
    if (level < 0 && info->err->msg_code == JWRN_JPEG_EOF) {
        strip_error_exit(info);
    }
}

struct cjpeg_reader {
    struct jpeg_decompress_struct decoder;
    StripError error;
    FILE *file;
    char *buffer;
    unsigned char *cut;  /* the band read from memory (cjpeg_open_band) */
    int started;
};

static void reader_free(cjpeg_reader *reader) {
    jpeg_destroy_decompress(&reader->decoder);
    if (reader->file) fclose(reader->file);
    free(reader->buffer);
    free(reader->cut);
    free(reader);
}

/* Reads the header of the JPEG in the reader's file and starts decoding it at 1/scale_denom. */
static cjpeg_reader *reader_start(cjpeg_reader *reader, int scale_denom);

cjpeg_reader *cjpeg_open(int fd, int scale_denom) {
    cjpeg_reader *reader = calloc(1, sizeof(cjpeg_reader));
    if (reader == NULL) {
        vips_error("jpeg", "out of memory");
        return NULL;
    }
    int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    reader->file = copy < 0 ? NULL : fdopen(copy, "rb");
    /* libjpeg asks for 4 KB at a time: a larger buffer saves most of the read calls (glibc
     * ignores the size unless it is handed the buffer). */
    reader->buffer = malloc(1 << 17);
    if (reader->file && reader->buffer) setvbuf(reader->file, reader->buffer, _IOFBF, 1 << 17);
    if (reader->file == NULL) {
        vips_error("jpeg", "cannot read the file: %s", strerror(errno));
        if (copy >= 0) close(copy);
        free(reader->buffer);
        free(reader);
        return NULL;
    }
    return reader_start(reader, scale_denom);
}

/* Starts decoding a band cut out of a file (`cut`, which the reader takes). */
static cjpeg_reader *reader_from_cut(unsigned char *cut, size_t length, int scale_denom) {
    cjpeg_reader *reader = calloc(1, sizeof(cjpeg_reader));
    if (reader == NULL) {
        free(cut);
        return NULL;
    }
    reader->cut = cut;
    reader->file = fmemopen(cut, length, "rb");
    if (reader->file == NULL) {
        reader_free(reader);
        return NULL;
    }
    cjpeg_reader *started = reader_start(reader, scale_denom);
    /* The caller decodes the whole file then, which says what is wrong with it. */
    if (started == NULL) vips_error_clear();
    return started;
}

cjpeg_reader *cjpeg_open_band(int fd, int scale_denom, int first_row, int last_row, int *top) {
    *top = 0;
    unsigned char *cut;
    size_t length;
    if (cjpeg_restart_cut(fd, first_row, last_row, &cut, &length, top)) return NULL;
    return reader_from_cut(cut, length, scale_denom);
}

cjpeg_reader *cjpeg_open_indexed_band(int fd, const cjpeg_scan_index *index, int scale_denom, int first_row,
                                      int last_row, int *top) {
    *top = 0;
    unsigned char *cut;
    size_t length;
    if (cjpeg_scan_index_cut(index, fd, first_row, last_row, &cut, &length, top)) return NULL;
    return reader_from_cut(cut, length, scale_denom);
}

static cjpeg_reader *reader_start(cjpeg_reader *reader, int scale_denom) {
    reader->decoder.err = jpeg_std_error(&reader->error.manager);
    reader->error.manager.error_exit = strip_error_exit;
    reader->error.manager.emit_message = strip_emit_message;
    jpeg_create_decompress(&reader->decoder);
    if (setjmp(reader->error.escape)) {
        vips_error("jpeg", "%s", reader->error.message);
        reader_free(reader);
        return NULL;
    }
    jpeg_stdio_src(&reader->decoder, reader->file);
    jpeg_read_header(&reader->decoder, TRUE);
    if (reader->decoder.jpeg_color_space == JCS_CMYK || reader->decoder.jpeg_color_space == JCS_YCCK) {
        vips_error("jpeg", "CMYK is read through libvips");
        reader_free(reader);
        return NULL;
    }
    reader->decoder.out_color_space = JCS_RGB;
    reader->decoder.scale_num = 1;
    reader->decoder.scale_denom = scale_denom;
    jpeg_start_decompress(&reader->decoder);
    reader->started = 1;
    return reader;
}

int cjpeg_width(const cjpeg_reader *reader) { return (int) reader->decoder.output_width; }

int cjpeg_height(const cjpeg_reader *reader) { return (int) reader->decoder.output_height; }

int cjpeg_skip(cjpeg_reader *reader, int rows) {
    if (setjmp(reader->error.escape)) {
        vips_error("jpeg", "%s", reader->error.message);
        return -1;
    }
    int left = rows;
    while (left > 0) {
        JDIMENSION skipped = jpeg_skip_scanlines(&reader->decoder, (JDIMENSION) left);
        if (skipped == 0) break;
        left -= (int) skipped;
    }
    return 0;
}

int cjpeg_read(cjpeg_reader *reader, unsigned char *pixels, size_t stride, int rows) {
    if (setjmp(reader->error.escape)) {
        vips_error("jpeg", "%s", reader->error.message);
        return -1;
    }
    JSAMPROW pointers[16];
    int done = 0;
    while (done < rows) {
        int batch = rows - done < 16 ? rows - done : 16;
        for (int i = 0; i < batch; i++) pointers[i] = pixels + (size_t) (done + i) * stride;
        JDIMENSION read = jpeg_read_scanlines(&reader->decoder, pointers, (JDIMENSION) batch);
        if (read == 0) {
            vips_error("jpeg", "the image ended early");
            return -1;
        }
        done += (int) read;
    }
    return 0;
}

void cjpeg_close(cjpeg_reader *reader) {
    if (reader == NULL) return;
    if (!setjmp(reader->error.escape) && reader->started) jpeg_abort_decompress(&reader->decoder);
    reader_free(reader);
}

/* JPEG encoded as libvips' jpegsave would with strip: baseline, Huffman tables as standard,
 * chroma halved both ways below quality 90, nothing but the JFIF header; rows given in order, as
 * they come. */
struct cjpeg_writer {
    struct jpeg_compress_struct encoder;
    StripError error;
    unsigned char *buffer;
    unsigned long length;
};

void cjpeg_writer_free(cjpeg_writer *writer) {
    if (writer == NULL) return;
    jpeg_destroy_compress(&writer->encoder);
    free(writer->buffer);
    free(writer);
}

cjpeg_writer *cjpeg_writer_new(int width, int height, int quality) {
    return cjpeg_part_writer_new(width, height, quality, 0);
}

cjpeg_writer *cjpeg_part_writer_new(int width, int height, int quality, int split) {
    cjpeg_writer *writer = calloc(1, sizeof *writer);
    if (writer == NULL) {
        vips_error("jpeg", "%s", "out of memory");
        return NULL;
    }
    writer->encoder.err = jpeg_std_error(&writer->error.manager);
    writer->error.manager.error_exit = strip_error_exit;
    jpeg_create_compress(&writer->encoder);
    if (setjmp(writer->error.escape)) {
        vips_error("jpeg", "%s", writer->error.message);
        cjpeg_writer_free(writer);
        return NULL;
    }
    jpeg_mem_dest(&writer->encoder, &writer->buffer, &writer->length);
    writer->encoder.image_width = (JDIMENSION) width;
    writer->encoder.image_height = (JDIMENSION) height;
    writer->encoder.input_components = 3;
    writer->encoder.in_color_space = JCS_RGB;
    jpeg_set_defaults(&writer->encoder);
    jpeg_set_quality(&writer->encoder, quality, TRUE);
    if (quality >= FULL_CHROMA_QUALITY) {
        for (int i = 0; i < writer->encoder.num_components; i++) {
            writer->encoder.comp_info[i].h_samp_factor = 1;
            writer->encoder.comp_info[i].v_samp_factor = 1;
        }
    }
    /* A part of a cut image restarts its entropy coding every `split` rows (once in the upper
     * part), so that the parts join at restart markers. */
    writer->encoder.restart_in_rows = split / block_rows(quality);
    jpeg_start_compress(&writer->encoder, TRUE);
    return writer;
}

int cjpeg_writer_rows(cjpeg_writer *writer, const unsigned char *pixels, size_t stride, int rows) {
    if (setjmp(writer->error.escape)) {
        vips_error("jpeg", "%s", writer->error.message);
        return -1;
    }
    JSAMPROW pointers[16];
    for (int done = 0; done < rows;) {
        int batch = 0;
        while (batch < 16 && done + batch < rows) {
            pointers[batch] = (JSAMPROW) (pixels + (size_t) (done + batch) * stride);
            batch++;
        }
        done += (int) jpeg_write_scanlines(&writer->encoder, pointers, (JDIMENSION) batch);
    }
    return 0;
}

int cjpeg_writer_finish(cjpeg_writer *writer, unsigned char **buffer, unsigned long *length) {
    *buffer = NULL;
    *length = 0;
    if (setjmp(writer->error.escape)) {
        vips_error("jpeg", "%s", writer->error.message);
        cjpeg_writer_free(writer);
        return -1;
    }
    jpeg_finish_compress(&writer->encoder);
    *buffer = writer->buffer;
    *length = writer->length;
    writer->buffer = NULL;
    cjpeg_writer_free(writer);
    return 0;
}

int cjpeg_encode(const unsigned char *pixels, size_t stride, int width, int height, int quality,
                 unsigned char **buffer, unsigned long *length) {
    *buffer = NULL;
    *length = 0;
    cjpeg_writer *writer = cjpeg_writer_new(width, height, quality);
    if (writer == NULL) return -1;
    if (cjpeg_writer_rows(writer, pixels, stride, height)) {
        cjpeg_writer_free(writer);
        return -1;
    }
    return cjpeg_writer_finish(writer, buffer, length);
}

void cjpeg_free(unsigned char *buffer) { free(buffer); }

void cjpeg_halve(const unsigned char *source, size_t source_stride, int width, int height,
                 unsigned char *target, size_t target_stride) {
    int out_width = (width + 1) / 2, out_height = (height + 1) / 2;
    for (int y = 0; y < out_height; y++) {
        const unsigned char *top = source + (size_t) (2 * y) * source_stride;
        /* An odd last row pairs with itself, as does an odd last column. */
        const unsigned char *bottom = 2 * y + 1 < height ? top + source_stride : top;
        unsigned char *out = target + (size_t) y * target_stride;
        int pairs = width / 2;
        for (int x = 0; x < pairs; x++) {
            const unsigned char *a = top + 6 * x, *b = bottom + 6 * x;
            out[3 * x] = (unsigned char) ((a[0] + a[3] + b[0] + b[3] + 2) >> 2);
            out[3 * x + 1] = (unsigned char) ((a[1] + a[4] + b[1] + b[4] + 2) >> 2);
            out[3 * x + 2] = (unsigned char) ((a[2] + a[5] + b[2] + b[5] + 2) >> 2);
        }
        if (out_width > pairs) {
            const unsigned char *a = top + 6 * pairs, *b = bottom + 6 * pairs;
            for (int c = 0; c < 3; c++) out[3 * pairs + c] = (unsigned char) ((a[c] + b[c] + 1) >> 1);
        }
    }
}

int cvips_image_from_rgb(const unsigned char *pixels, int width, int height, VipsImage **out) {
    *out = NULL;
    VipsImage *flat = vips_image_new_from_memory_copy(pixels, (size_t) width * height * 3, width, height, 3, VIPS_FORMAT_UCHAR);
    if (flat == NULL) return -1;
    int result = vips_copy(flat, out, "interpretation", VIPS_INTERPRETATION_sRGB, NULL);
    g_object_unref(flat);
    return result;
}
