#ifndef PHOTOSCROLL_CJPEGTILES_H
#define PHOTOSCROLL_CJPEGTILES_H

#include <vips/vips.h>
#include "CVipsShims.h"

/// JPEG pyramid tiles straight through libjpeg-turbo, without a libvips pipeline: a region cut
/// from a pyramid's tiles (decode, shrink, encode), the tiles kept decoded between regions, and
/// the pyramid's build from rows decoded in order. libvips is used only for its images in memory,
/// its error buffer and a render's stop (CVipsShims). Each call returns 0 on success and -1 on
/// failure (read vips_error_buffer_copy()), unless it says otherwise.

/// The same kernel's shrink of an 8-bit image to exactly width × height (neither larger than the
/// image), computed at once into memory: rows, then columns. For an image that is in memory, or
/// cut from one, and read in place; *out holds its pixels in memory.
int cvips_shrink_linear(VipsImage *in, int width, int height, VipsImage **out);

/// The same shrink of W × H pixels of `bands` bytes each, rows `stride` bytes apart, into a new
/// buffer of width × height (*out, freed with g_free).
int cvips_shrink_pixels(const VipsPel *pixels, size_t stride, int W, int H, int bands, int width, int height,
                        VipsPel **out);

/// An 8-bit image in memory that owns `pixels` (g_malloc'd, rows one after another) and frees them
/// when it closes; on failure they are freed at once.
int cvips_image_from_pixels(VipsPel *pixels, int width, int height, int bands, VipsInterpretation type, VipsImage **out);


/// Decoded pyramid tiles kept between regions, up to a budget in bytes (0: none kept; the oldest
/// go first): the tile decoder takes a kept tile instead of decoding it again while its file is
/// the same (device, inode, size, change time of the file it opens). Safe from any thread; its
/// owner frees it once no call uses it.
typedef struct jpeg_decoded_tiles jpeg_decoded_tiles;
jpeg_decoded_tiles *jpeg_decoded_tiles_new(size_t bytes);
void jpeg_decoded_tiles_free(jpeg_decoded_tiles *tiles);
/// A new budget; tiles past it go at once, the oldest first.
void jpeg_decoded_tiles_configure(jpeg_decoded_tiles *tiles, size_t bytes);
/// Lets go of every kept tile.
void jpeg_decoded_tiles_flush(jpeg_decoded_tiles *tiles);
/// Bytes of tiles kept now.
size_t jpeg_decoded_tiles_bytes(jpeg_decoded_tiles *tiles);

/// A rectangle of a grid of JPEG tiles, as the region calls below take it: the grid `columns`
/// wide, `count` tiles laid row by row with their top left corners tile_size apart (edge tiles
/// may be smaller), the rectangle (left, top, width, height) within it, the size it is wanted
/// at (out_width × out_height, neither above the rectangle's: the shrinking calls) and its JPEG
/// quality (cvips_region_jpeg). `stop` (may be NULL) ends a call between tiles and every few rows.
/// `kept` (may be NULL: each tile decoded, only the blocks wanted) are the tiles kept between
/// regions, read and filled by the call.
typedef struct {
    const char **paths;
    int count, columns, tile_size;
    int left, top, width, height;
    int out_width, out_height, quality;
    CVipsStop *stop;
    jpeg_decoded_tiles *kept;
} jpeg_region_request;

/// The request's rectangle decoded with libjpeg as 8-bit RGB into one image in memory; only the
/// blocks the rectangle covers are decoded. Fails when the grid does not cover the rectangle, or
/// a tile is smaller than its place in it.
int cvips_decode_jpeg_tiles(const jpeg_region_request *request, VipsImage **out);

/// The same rectangle shrunk to out_width × out_height as cvips_shrink_linear does, and encoded
/// as cjpeg_encode does at the request's quality, on two threads when it covers four tiles or
/// more (each encodes about half the rows, joined by cjpeg_join); *buffer is freed with
/// cjpeg_free.
int cvips_region_jpeg(const jpeg_region_request *request, unsigned char **buffer, unsigned long *length);

/// The same rectangle shrunk to out_width × out_height as cvips_shrink_linear does, straight from
/// the decoded tiles, which are not kept: *out holds its pixels in memory.
int cvips_decode_jpeg_tiles_shrunk(const jpeg_region_request *request, VipsImage **out);

/* JPEG straight through libjpeg (jpegstrips.c): rows in order, tiles out, halving. */

/// A JPEG being decoded row by row as 8-bit RGB (greyscale is widened to three bands).
typedef struct cjpeg_reader cjpeg_reader;

/// Starts decoding the JPEG open on `fd` (which stays the caller's) at 1/scale_denom of its size
/// (1, 2, 4 or 8: libjpeg's DCT scaling, so the smaller sizes cost little more than the entropy
/// decode). NULL on failure, with the reason in libvips' error buffer; CMYK is refused.
cjpeg_reader *cjpeg_open(int fd, int scale_denom);

/// Starts decoding, as cjpeg_open, only a band of the JPEG's rows that holds rows first_row to
/// last_row (exclusive) of the whole image: cut out at its restart markers (jpegrestarts.c) and
/// decoded from memory to the same pixels as those rows of the whole. *top is the whole image's
/// row where the band starts (unscaled). NULL when the file has no restart at the start of an
/// MCU row above and below them (progressive, no restarts, damaged): decode it whole then; no
/// error is set.
cjpeg_reader *cjpeg_open_band(int fd, int scale_denom, int first_row, int last_row, int *top);

/// The band of cjpeg_open_band as a JPEG of its own (*buffer freed with free); 0, or -1 when the
/// file cannot be cut there.
int cjpeg_restart_cut(int fd, int first_row, int last_row, unsigned char **buffer, size_t *size, int *top);

/// 1 when the JPEG open on `fd` is one baseline scan whose restarts start an MCU row at least
/// every four rows (cjpeg_open_band cuts any band of it), 0 otherwise.
int cjpeg_restarts_at_rows(int fd);

/// Where each MCU row of a baseline JPEG without restart markers starts in its entropy code (byte,
/// bit, and the DC values its first blocks are coded against), from one pass that decodes the
/// Huffman codes alone (jpegscanindex.c): what cuts a band of such a file as restarts cut one of
/// another. The pass records the rows one after another; one thread advances it, and any thread
/// may cut bands of the rows already recorded meanwhile. Its owner frees it once no call uses it.
typedef struct cjpeg_scan_index cjpeg_scan_index;

/// 1 when the JPEG open on `fd` is one 8-bit baseline Huffman scan of every component without
/// restarts (the headers say so; its coded data is not read), 0 otherwise.
int cjpeg_scan_indexable(int fd);

/// The index of the JPEG open on `fd`. NULL, with the reason in libvips' error buffer, when the
/// file is not one 8-bit baseline Huffman scan of every component without restarts, when its
/// coded data is cut short or holds bits that are no code, or when `stop` (may be NULL) ends it.
cjpeg_scan_index *cjpeg_scan_index_build(int fd, CVipsStop *stop);
void cjpeg_scan_index_free(cjpeg_scan_index *index);

/// The index of the JPEG open on `fd` with its headers read and no row recorded yet, for
/// cjpeg_scan_index_advance to make. NULL, with the reason in libvips' error buffer, when the file
/// is not one the index takes.
cjpeg_scan_index *cjpeg_scan_index_new(int fd);

/// Records one more row start of the index (`fd` is the file it was made from): the first call the
/// first row's, each next one the next row's after reading the row above through, the last one
/// where the scan's data ends. 0 while rows remain, 1 once the index is whole; -1, with the reason
/// in libvips' error buffer, when the coded data is cut short or holds bits that are no code, or
/// when `stop` (may be NULL) ends it: the pass then records nothing more. One thread at a time.
int cjpeg_scan_index_advance(cjpeg_scan_index *index, int fd, CVipsStop *stop);

/// Row starts recorded so far, 0 to cjpeg_scan_index_rows + 1 (whole).
int cjpeg_scan_index_recorded(const cjpeg_scan_index *index);

/// The row starts that must be recorded for cjpeg_scan_index_cut to cut rows first_row to last_row.
int cjpeg_scan_index_needs(const cjpeg_scan_index *index, int first_row, int last_row);

/// MCU rows of the image, which the whole index knows the start of.
int cjpeg_scan_index_rows(const cjpeg_scan_index *index);

/// The band of the indexed JPEG open on `fd` that holds rows first_row to last_row (exclusive), as
/// a JPEG of its own, as cjpeg_restart_cut makes (*buffer freed with free); 0, or -1 when the file
/// no longer holds what the index says there, or when the pass has not recorded those rows yet.
int cjpeg_scan_index_cut(const cjpeg_scan_index *index, int fd, int first_row, int last_row, unsigned char **buffer,
                         size_t *size, int *top);

/// Starts decoding, as cjpeg_open_band, the band cut by cjpeg_scan_index_cut. NULL when it cannot
/// be cut or read (no error is set): decode the file whole then.
cjpeg_reader *cjpeg_open_indexed_band(int fd, const cjpeg_scan_index *index, int scale_denom, int first_row,
                                      int last_row, int *top);

/// Size of the decoded (scaled) image: ceil(width / scale_denom) × ceil(height / scale_denom).
int cjpeg_width(const cjpeg_reader *reader);
int cjpeg_height(const cjpeg_reader *reader);

/// Passes over the next `rows` rows without computing their pixels (the entropy decode still runs).
int cjpeg_skip(cjpeg_reader *reader, int rows);

/// Decodes the next `rows` rows into `pixels`, `stride` bytes apart. A file cut short is an error.
int cjpeg_read(cjpeg_reader *reader, unsigned char *pixels, size_t stride, int rows);

/// Ends the decode and frees the reader (NULL is allowed).
void cjpeg_close(cjpeg_reader *reader);

/// Encodes width × height RGB pixels, rows `stride` bytes apart, as a baseline JPEG at `quality`
/// with no metadata, as libvips' jpegsave with strip does. *buffer is freed with cjpeg_free.
int cjpeg_encode(const unsigned char *pixels, size_t stride, int width, int height, int quality,
                 unsigned char **buffer, unsigned long *length);

void cjpeg_free(unsigned char *buffer);

/// The same encoding with the rows given as they come: cjpeg_writer_new, then every row in order
/// through cjpeg_writer_rows, then cjpeg_writer_finish (which frees the writer; *buffer is freed
/// with cjpeg_free). cjpeg_writer_free abandons one.
typedef struct cjpeg_writer cjpeg_writer;
cjpeg_writer *cjpeg_writer_new(int width, int height, int quality);
int cjpeg_writer_rows(cjpeg_writer *writer, const unsigned char *pixels, size_t stride, int rows);
int cjpeg_writer_finish(cjpeg_writer *writer, unsigned char **buffer, unsigned long *length);
void cjpeg_writer_free(cjpeg_writer *writer);

/* A JPEG in two parts encoded at once (jpegjoin.c). */

/// Where an image's JPEG may be cut to be encoded in two parts at once: the upper part's rows, a
/// whole number of the encoder's block rows and about half; 0 when it may not be cut.
int cjpeg_split_rows(int width, int height, int quality);

/// A writer of one part of an image cut at `split` rows (cjpeg_split_rows): the upper part has
/// `split` rows, the lower the rest; each is written and finished as by cjpeg_writer_new.
cjpeg_writer *cjpeg_part_writer_new(int width, int rows, int quality, int split);

/// The two parts' JPEGs joined into the image's, `height` rows in all, as a restart marker joins
/// two intervals of one scan; *buffer is freed with cjpeg_free. The joined JPEG decodes to exactly
/// the pixels of cjpeg_encode's (each block is coded alike; only the entropy coding restarts).
int cjpeg_join(const unsigned char *upper, unsigned long upper_length, const unsigned char *lower,
               unsigned long lower_length, int height, unsigned char **buffer, unsigned long *length);

/// Halves width × height RGB pixels into ceil(width/2) × ceil(height/2), each the rounded mean of
/// its 2×2 block (an odd last row or column is paired with itself).
void cjpeg_halve(const unsigned char *source, size_t source_stride, int width, int height,
                 unsigned char *target, size_t target_stride);

/// A libvips image (sRGB) holding a copy of width × height RGB pixels.
int cvips_image_from_rgb(const unsigned char *pixels, int width, int height, VipsImage **out);

#endif
