/* A region's pyramid tiles decoded straight with libjpeg (through libvips, each small tile costs
 * the machinery of a whole image load, about five times the decode itself). */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <jpeglib.h>
#include <vips/vips.h>
#include "CJPEGTiles.h"
#include "internal.h"
#include "shrink.h"
#include "tiledecode.h"

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf escape;
    char message[JMSG_LENGTH_MAX];
    /* The row buffer lives here, in memory libjpeg can reach, so that after a longjmp it is
     * what was last allocated (a local changed after setjmp would be indeterminate). */
    JSAMPROW row;
} TileError;

static void tile_error_exit(j_common_ptr info) {
    TileError *error = (TileError *) info->err;
    info->err->format_message(info, error->message);
    longjmp(error->escape, 1);
}

/* The part of a width × height tile at (origin_x, origin_y) that the canvas wants, in *overlap.
 * A tile fills its place in the grid, no more (a larger one would write into a neighbour's) and
 * no less: the canvas is not cleared first, so a tile short of its place fails the region rather
 * than leave whatever the memory held before. */
static int tile_overlap(const TileCanvas *canvas, const char *path, int origin_x, int origin_y, int width, int height,
                        VipsRect *overlap) {
    int size = canvas->tile_size;
    VipsRect place = {origin_x, origin_y, size, size}, wanted;
    VipsRect tile = {origin_x, origin_y, MIN(width, size), MIN(height, size)};
    vips_rect_intersectrect(&place, &canvas->want, &wanted);
    vips_rect_intersectrect(&tile, &canvas->want, overlap);
    if (!vips_rect_equalsrect(overlap, &wanted)) {
        vips_error("cvips_decode_jpeg_tiles", "%s is smaller than its place in the level", path);
        return -1;
    }
    return 0;
}

/* What a decode does once the header is read and the decode started; the decoder's error row
 * is its to use (a spare row, or the pixels it keeps: then it takes them and leaves NULL). */
typedef int (*DecodeBody)(struct jpeg_decompress_struct *decoder, TileError *error, const char *path, void *context);

/* Opens `path` for reading, or sets the error. */
static FILE *open_tile(const char *path) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) vips_error("cvips_decode_jpeg_tiles", "cannot open %s", path);
    return file;
}

/* Decodes the tile open as `file` (named `path`) as an RGB JPEG and runs `body` on it: a libjpeg
 * error anywhere in it fails the decode with the file's name, and the decoder is let go either
 * way (the file stays open, the caller's). */
static int decode_open(FILE *file, const char *path, DecodeBody body, void *context) {
    struct jpeg_decompress_struct decoder;
    TileError error;
    decoder.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = tile_error_exit;
    error.row = NULL;
    if (setjmp(error.escape)) {
        vips_error("cvips_decode_jpeg_tiles", "%s: %s", path, error.message);
        jpeg_destroy_decompress(&decoder);
        g_free(error.row);
        return -1;
    }
    jpeg_create_decompress(&decoder);
    jpeg_stdio_src(&decoder, file);
    jpeg_read_header(&decoder, TRUE);
    decoder.out_color_space = JCS_RGB;
    jpeg_start_decompress(&decoder);
    int result = body(&decoder, &error, path, context);
    jpeg_abort_decompress(&decoder);
    jpeg_destroy_decompress(&decoder);
    g_free(error.row);
    return result;
}

/* The same for the file at `path`, opened and closed here. */
static int decode_file(const char *path, DecodeBody body, void *context) {
    FILE *file = open_tile(path);
    if (file == NULL) return -1;
    int result = decode_open(file, path, body, context);
    fclose(file);
    return result;
}

/* A whole tile's pixels, for the kept set. */
typedef struct {
    int width, height;
    VipsPel *pixels;
} WholeTile;

static int decode_whole(struct jpeg_decompress_struct *decoder, TileError *error, const char *path, void *context) {
    WholeTile *whole = context;
    size_t row = (size_t) decoder->output_width * 3;
    error->row = g_malloc(row * decoder->output_height);
    while (decoder->output_scanline < decoder->output_height) {
        JSAMPROW target = error->row + row * decoder->output_scanline;
        if (jpeg_read_scanlines(decoder, &target, 1) != 1) {
            vips_error("cvips_decode_jpeg_tiles", "%s ended before its last row", path);
            return -1;
        }
    }
    *whole = (WholeTile) {(int) decoder->output_width, (int) decoder->output_height, error->row};
    error->row = NULL;
    return 0;
}

/* One tile from the kept set, decoded whole and kept first when it is not there (or its file has
 * changed), with a reference for the caller in *held; it must fill its place in the canvas, and
 * the part of it the canvas wants is in *overlap. The file is opened once and known by what the
 * open file is (fstat), and that same file is what is decoded: a tile replaced between a look at
 * its path and its opening would otherwise be kept under the identity of the file it replaced. */
static int hold_tile(jpeg_decoded_tiles *kept, const char *path, int origin_x, int origin_y, const TileCanvas *canvas,
                     DecodedTile **held, VipsRect *overlap) {
    *held = NULL;
    FILE *file = open_tile(path);
    if (file == NULL) return -1;
    struct stat identity;
    if (fstat(fileno(file), &identity)) {
        vips_error("cvips_decode_jpeg_tiles", "cannot read %s", path);
        fclose(file);
        return -1;
    }
    DecodedTile *tile = decoded_tile_find(kept, path, &identity);
    if (tile == NULL) {
        WholeTile whole;
        int failed = decode_open(file, path, decode_whole, &whole);
        fclose(file);
        if (failed) return -1;
        tile = decoded_tile_new(path, &identity, whole.width, whole.height, whole.pixels);
        decoded_tile_keep(kept, tile);
    } else {
        fclose(file);
    }
    int width, height;
    decoded_tile_pixels(tile, &width, &height);
    if (tile_overlap(canvas, path, origin_x, origin_y, width, height, overlap)) {
        decoded_tile_unref(tile);
        return -1;
    }
    *held = tile;
    return 0;
}

/* The part of one tile the canvas wants, copied from the kept set. */
static int copy_kept_tile(jpeg_decoded_tiles *kept, const char *path, int origin_x, int origin_y, const TileCanvas *canvas) {
    DecodedTile *tile;
    VipsRect overlap;
    if (hold_tile(kept, path, origin_x, origin_y, canvas, &tile, &overlap)) return -1;
    int width, height;
    const VipsPel *pixels = decoded_tile_pixels(tile, &width, &height);
    const VipsRect *want = &canvas->want;
    for (int y = overlap.top; y < VIPS_RECT_BOTTOM(&overlap); y++) {
        memcpy(canvas->pixels + ((size_t) (y - want->top) * canvas->stride + SLACK + overlap.left - want->left) * 3,
               pixels + ((size_t) (y - origin_y) * width + overlap.left - origin_x) * 3, (size_t) overlap.width * 3);
    }
    decoded_tile_unref(tile);
    return 0;
}

/* Where a tile goes on the canvas, and what may stop it. */
typedef struct {
    int origin_x, origin_y;
    const TileCanvas *canvas;
    CVipsStop *stop;
} TilePlace;

static int decode_wanted(struct jpeg_decompress_struct *decoder, TileError *error, const char *path, void *context) {
    const TilePlace *place = context;
    const TileCanvas *canvas = place->canvas;
    int origin_x = place->origin_x, origin_y = place->origin_y;
    const VipsRect *want = &canvas->want;
    VipsRect overlap;
    int result = tile_overlap(canvas, path, origin_x, origin_y, (int) decoder->output_width, (int) decoder->output_height, &overlap);
    if (result == 0 && !vips_rect_isempty(&overlap)) {
        /* The columns wanted, widened by libjpeg to whole blocks: `first` is where its rows start. */
        JDIMENSION first = (JDIMENSION) (overlap.left - origin_x), columns = (JDIMENSION) overlap.width;
        if (columns < decoder->output_width) jpeg_crop_scanline(decoder, &first, &columns);
        /* Where the decoded row's first pixel goes in a canvas row; straight there when the
         * widened row fits the row with its slack (a tile of larger blocks goes through a row
         * of its own and is copied). */
        int lead = overlap.left - origin_x - (int) first;
        int at = SLACK + (overlap.left - want->left) - lead;
        int straight = at >= 0 && at + (int) columns <= canvas->stride;
        error->row = g_malloc((size_t) decoder->output_width * 3);
        int skip = overlap.top - origin_y;
        if (skip > 0) jpeg_skip_scanlines(decoder, (JDIMENSION) skip);
        while (decoder->output_scanline < decoder->output_height) {
            int y = origin_y + (int) decoder->output_scanline;
            /* A damaged tile may have skipped fewer rows than asked: those go to the spare row. */
            VipsPel *line = y >= overlap.top ? canvas->pixels + (size_t) (y - want->top) * canvas->stride * 3 : NULL;
            JSAMPROW target = line != NULL && straight ? line + (size_t) at * 3 : error->row;
            if (jpeg_read_scanlines(decoder, &target, 1) != 1) {
                vips_error("cvips_decode_jpeg_tiles", "%s ended before its last row", path);
                result = -1;
                break;
            }
            if (line != NULL && !straight) {
                memcpy(line + (size_t) (SLACK + overlap.left - want->left) * 3, error->row + (size_t) lead * 3,
                       (size_t) overlap.width * 3);
            }
            if (y + 1 >= VIPS_RECT_BOTTOM(&overlap)) break;  /* rows below are not wanted */
            if ((y & 63) == 63 && cvips_stop_check(place->stop)) {
                result = -1;
                break;
            }
        }
    }
    return result;
}

/* Decodes the part of one tile that `want` covers into the canvas; the tile's top left corner is
 * at (origin_x, origin_y). Only the columns and rows wanted are computed (libjpeg-turbo's crop and
 * skip, to the nearest whole block); rows below the last wanted are not read at all. With tiles
 * kept, the tile is decoded whole instead (once) and the part wanted copied. */
static int decode_tile(jpeg_decoded_tiles *kept, const char *path, int origin_x, int origin_y, const TileCanvas *canvas,
                       CVipsStop *stop) {
    if (decoded_tiles_enabled(kept)) return copy_kept_tile(kept, path, origin_x, origin_y, canvas);
    TilePlace place = {origin_x, origin_y, canvas, stop};
    return decode_file(path, decode_wanted, &place);
}

void tiles_decode_run(TileRun *run) {
    for (int i; run->result == 0 && (i = g_atomic_int_add(run->next, 1)) < run->count;) {
        int x = (i % run->columns) * run->tile_size, y = (i / run->columns) * run->tile_size;
        VipsRect overlap;
        if (cvips_stop_check(run->stop)
            || (run->held != NULL ? hold_tile(run->kept, run->paths[i], x, y, run->canvas, &run->held[i], &overlap)
                                  : decode_tile(run->kept, run->paths[i], x, y, run->canvas, run->stop))) run->result = -1;
    }
}

/* The second thread: at its caller's priority, which a new thread takes from the thread that
 * made it (a render's lowered one, or a fitted view's normal one in the images lane). */
static gpointer decode_helper(gpointer data) {
    tiles_decode_run(data);
    return NULL;
}

static void free_pixels(VipsImage *image, void *pixels) {
    (void) image;
    g_free(pixels);
}

int tile_canvas_new(int count, int columns, int tile_size, int left, int top, int width, int height, int pixels,
                    TileCanvas *canvas) {
    *canvas = (TileCanvas) {NULL, width + 2 * SLACK, {left, top, width, height}, tile_size};
    /* The grid covers the rectangle: every pixel of it is some tile's to write. */
    if (count < 1 || columns < 1 || count % columns || left < 0 || top < 0 || width < 1 || height < 1
        || left + width > columns * tile_size || top + height > count / columns * tile_size) {
        vips_error("cvips_decode_jpeg_tiles", "%s", "the tiles do not cover the rectangle");
        return -1;
    }
    if (!pixels) return 0;
    canvas->pixels = g_try_malloc((size_t) canvas->stride * height * 3);
    if (canvas->pixels == NULL) {
        vips_error("cvips_decode_jpeg_tiles", "out of memory");
        return -1;
    }
    return 0;
}

/* The rectangle's tiles decoded onto a canvas of its own (g_free it); 0, or -1 with the error set. */
static int decode_canvas(const jpeg_region_request *request, TileCanvas *canvas) {
    const char **paths = request->paths;
    int count = request->count, columns = request->columns, tile_size = request->tile_size;
    CVipsStop *stop = request->stop;
    if (tile_canvas_new(count, columns, tile_size, request->left, request->top, request->width, request->height, 1, canvas)) {
        return -1;
    }
    /* Tiles write apart from each other, so a second thread shares them; without one, this
     * thread decodes them all. */
    gint next = 0;
    TileRun runs[2] = {{paths, count, columns, tile_size, canvas, stop, 0, request->kept, NULL, &next},
                       {paths, count, columns, tile_size, canvas, stop, 0, request->kept, NULL, &next}};
    GThread *helper = count >= HELPED_TILES ? g_thread_try_new("tile-decode", decode_helper, &runs[1], NULL) : NULL;
    tiles_decode_run(&runs[0]);
    if (helper != NULL) g_thread_join(helper);
    if (runs[0].result || runs[1].result) {
        g_free(canvas->pixels);
        canvas->pixels = NULL;
        return -1;
    }
    return 0;
}

int cvips_decode_jpeg_tiles(const jpeg_region_request *request, VipsImage **out) {
    *out = NULL;
    int width = request->width, height = request->height;
    TileCanvas canvas;
    if (decode_canvas(request, &canvas)) return -1;
    /* The image takes the pixels as they are, and frees them when it closes; the rectangle is
     * cut from between the slack without a copy. */
    size_t bytes = (size_t) canvas.stride * height * 3;
    VipsImage *flat = vips_image_new_from_memory(canvas.pixels, bytes, canvas.stride, height, 3, VIPS_FORMAT_UCHAR);
    if (flat == NULL) {
        g_free(canvas.pixels);
        return -1;
    }
    g_signal_connect(flat, "postclose", G_CALLBACK(free_pixels), canvas.pixels);
    VipsImage *cut = NULL;
    int result = vips_extract_area(flat, &cut, SLACK, 0, width, height, NULL);
    g_object_unref(flat);
    if (result) return -1;
    result = vips_copy(cut, out, "interpretation", VIPS_INTERPRETATION_sRGB, NULL);
    g_object_unref(cut);
    return result;
}

int cvips_decode_jpeg_tiles_shrunk(const jpeg_region_request *request, VipsImage **out) {
    *out = NULL;
    int width = request->width, height = request->height, out_width = request->out_width, out_height = request->out_height;
    TileCanvas canvas;
    if (decode_canvas(request, &canvas)) return -1;
    /* Shrunk from the canvas where it lies, and the canvas let go at once: nothing of it is kept
     * (an operation of libvips' would stay in its cache), and the next region's canvas takes the
     * same memory. */
    VipsPel *pixels = NULL;
    int result = cvips_stop_check(request->stop) ? -1
        : cvips_shrink_pixels(canvas.pixels + SLACK * 3, (size_t) canvas.stride * 3, width, height, 3, out_width, out_height, &pixels);
    g_free(canvas.pixels);
    if (result == 0) result = cvips_image_from_pixels(pixels, out_width, out_height, 3, VIPS_INTERPRETATION_sRGB, out);
    return result;
}
