#include <errno.h>
#include <malloc.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <vips/vips.h>
#include "CVipsShims.h"

struct CVipsStop {
    gint references;
    gint cancelled;
    gint64 deadline;  /* g_get_monotonic_time() microseconds; 0 for none */
};

CVipsStop *cvips_stop_new(double seconds) {
    CVipsStop *stop = g_new0(CVipsStop, 1);
    stop->references = 1;
    if (seconds > 0) stop->deadline = g_get_monotonic_time() + (gint64) (seconds * 1e6);
    return stop;
}

static CVipsStop *stop_ref(CVipsStop *stop) {
    g_atomic_int_inc(&stop->references);
    return stop;
}

void cvips_stop_unref(CVipsStop *stop) {
    if (stop != NULL && g_atomic_int_dec_and_test(&stop->references)) g_free(stop);
}

void cvips_stop_cancel(CVipsStop *stop) { g_atomic_int_set(&stop->cancelled, 1); }

int cvips_stop_state(CVipsStop *stop) {
    if (stop == NULL) return 0;
    if (g_atomic_int_get(&stop->cancelled)) return 1;
    if (stop->deadline && g_get_monotonic_time() > stop->deadline) return 2;
    return 0;
}

/* Sets the libvips error and says whether the computation must end. */
static int stopped(CVipsStop *stop) {
    int state = cvips_stop_state(stop);
    if (state == 1) vips_error("photoscroll", "render cancelled");
    if (state == 2) vips_error("photoscroll", "render took longer than allowed");
    return state != 0;
}

/* A worker computing a render yields to the threads that answer requests. Nice only rises
 * (an unprivileged thread cannot lower it again), so a libvips worker that has computed a
 * render stays this way for whatever it computes later (pyramid builds run niced anyway). */
static void lower_priority(void) {
    pid_t thread = (pid_t) syscall(SYS_gettid);
    errno = 0;
    int nice = getpriority(PRIO_PROCESS, (id_t) thread);
    if (errno == 0 && nice < 10) setpriority(PRIO_PROCESS, (id_t) thread, 10);
}

void cvips_lower_thread_priority(void) { lower_priority(); }

static void *guarded_start(VipsImage *out, void *a, void *b) {
    lower_priority();
    return vips_start_one(out, a, b);
}

static int guarded_generate(VipsRegion *out, void *seq, void *a, void *b, gboolean *stop_all) {
    VipsRegion *in = (VipsRegion *) seq;
    VipsRect *r = &out->valid;
    if (stopped((CVipsStop *) b)) return -1;
    if (vips_region_prepare(in, r) || vips_region_region(out, in, r, r->left, r->top)) return -1;
    return 0;
}

static void unref_stop(gpointer data) { cvips_stop_unref((CVipsStop *) data); }

int cvips_guarded(VipsImage *in, CVipsStop *stop, VipsImage **out) {
    *out = vips_image_new();
    if (vips_image_pio_input(in) || vips_image_pipelinev(*out, in->dhint, in, NULL) ||
        vips_image_generate(*out, guarded_start, guarded_generate, vips_stop_one, in, stop)) {
        g_object_unref(*out);
        *out = NULL;
        return -1;
    }
    /* The input lives as long as this image; so does the stop. */
    g_object_ref(in);
    vips_object_local(*out, in);
    g_object_set_data_full(G_OBJECT(*out), "photoscroll-stop", stop_ref(stop), unref_stop);
    return 0;
}

int cvips_init(const char *argv0) {
    if (VIPS_INIT(argv0) != 0) return -1;
    // Photos come from users: refuse loaders libvips marks as unfuzzed.
    vips_block_untrusted_set(TRUE);
    return 0;
}

void cvips_configure(size_t cache_bytes, int cache_operations, int cache_files, int concurrency) {
    vips_cache_set_max_mem(cache_bytes);
    vips_cache_set_max(cache_operations);
    vips_cache_set_max_files(cache_files);
    if (concurrency > 0) vips_concurrency_set(concurrency);
}

void cvips_cache_flush(void) {
    int operations = vips_cache_get_max();
    vips_cache_set_max(0);
    vips_cache_set_max(operations);
}

void cvips_trim_heap(void) { malloc_trim(0); }

void cvips_limit_heap_arenas(int count) { mallopt(M_ARENA_MAX, count > 0 ? count : 1); }

/* The loader that reads a source, NULL when none does or it is blocked (untrusted): for us
 * those are not photos. */
static const char *trusted_loader(VipsSource *source) {
    const char *loader = vips_foreign_find_load_source(source);
    if (loader == NULL) return NULL;
    const VipsOperationClass *class = (const VipsOperationClass *) vips_class_find("VipsForeignLoad", loader);
    if (class == NULL || (class->flags & VIPS_OPERATION_BLOCKED)) return NULL;
    return loader;
}

/* Photos are read from a descriptor the library opened (beneath the photos folder, checked),
 * never by name: a file source reopens its file by name after minimising, and
 * vips_image_new_from_file would also read a trailing "[...]" in a name as load options.
 * libvips keeps a duplicate of the descriptor for as long as the image lives. */
int cvips_load_descriptor(int fd, VipsAccess access, int fail, int shrink, VipsImage **out, const char **loader_out) {
    *out = NULL;
    *loader_out = NULL;
    VipsSource *source = vips_source_new_from_descriptor(fd);
    if (source == NULL) return -1;
    const char *loader = trusted_loader(source);
    *loader_out = loader;
    VipsFailOn fail_on = fail ? VIPS_FAIL_ON_TRUNCATED : VIPS_FAIL_ON_NONE;
    if (loader == NULL) {
        vips_error_clear();  /* "not a known format" is our notAnImage, not a message for the next error */
    } else if (shrink > 1 && strcmp(loader, "VipsForeignLoadJpegSource") == 0) {
        *out = vips_image_new_from_source(source, "", "access", access, "fail_on", fail_on, "shrink", shrink, NULL);
    } else if (shrink > 1 && strcmp(loader, "VipsForeignLoadWebpSource") == 0) {
        *out = vips_image_new_from_source(source, "", "access", access, "fail_on", fail_on, "scale", 1.0 / shrink, NULL);
    } else {
        *out = vips_image_new_from_source(source, "", "access", access, "fail_on", fail_on, NULL);
    }
    g_object_unref(source);
    return *out ? 0 : -1;
}

int cvips_autorot(VipsImage *in, VipsImage **out) {
    return vips_autorot(in, out, NULL);
}

int cvips_has_icc(VipsImage *image) {
    return vips_image_get_typeof(image, VIPS_META_ICC_NAME) != 0;
}

int cvips_icc_to_srgb(VipsImage *in, const char *input_profile, VipsImage **out) {
    if (input_profile != NULL) {
        return vips_icc_transform(in, out, "srgb", "embedded", TRUE, "input_profile", input_profile,
                                  "intent", VIPS_INTENT_PERCEPTUAL, "depth", 8, NULL);
    }
    return vips_icc_transform(in, out, "srgb", "embedded", TRUE, "intent", VIPS_INTENT_PERCEPTUAL,
                              "depth", 8, NULL);
}

int cvips_colourspace(VipsImage *in, VipsInterpretation space, VipsImage **out) {
    return vips_colourspace(in, out, space, NULL);
}

int cvips_cast_uchar(VipsImage *in, VipsImage **out) {
    return vips_cast(in, out, VIPS_FORMAT_UCHAR, "shift", TRUE, NULL);
}

int cvips_flatten(VipsImage *in, double red, double green, double blue, double max_alpha, VipsImage **out) {
    double rgb[3] = {red, green, blue};
    VipsArrayDouble *background = vips_array_double_new(rgb, 3);
    int result = vips_flatten(in, out, "background", background, "max_alpha", max_alpha, NULL);
    vips_area_unref(VIPS_AREA(background));
    return result;
}

int cvips_extract_bands(VipsImage *in, int first, int bands, VipsImage **out) {
    return vips_extract_band(in, out, first, "n", bands, NULL);
}

int cvips_extract_area(VipsImage *in, int left, int top, int width, int height, VipsImage **out) {
    return vips_extract_area(in, out, left, top, width, height, NULL);
}

typedef struct {
    VipsRect want;
    size_t sizeof_pixel;
    VipsPel *buffer;
    CVipsStop *stop;
} RowCopy;

static int copy_wanted_rows(VipsRegion *region, VipsRect *area, void *a) {
    RowCopy *copy = a;
    if (stopped(copy->stop)) return -1;
    VipsRect overlap;
    vips_rect_intersectrect(area, &copy->want, &overlap);
    size_t row_bytes = (size_t) copy->want.width * copy->sizeof_pixel;
    for (int y = overlap.top; y < VIPS_RECT_BOTTOM(&overlap); y++) {
        memcpy(copy->buffer + (size_t) (y - copy->want.top) * row_bytes,
               VIPS_REGION_ADDR(region, copy->want.left, y), row_bytes);
    }
    return 0;
}

int cvips_rows_in_order(VipsImage *in, int left, int top, int width, int height, CVipsStop *stop, VipsImage **out) {
    VipsImage *head = NULL, *flat = NULL;
    RowCopy copy = {{left, top, width, height}, VIPS_IMAGE_SIZEOF_PEL(in), NULL, stop};
    int result = -1;
    *out = NULL;
    if (vips_extract_area(in, &head, 0, 0, in->Xsize, top + height, NULL)) return -1;
    copy.buffer = g_try_malloc(copy.sizeof_pixel * width * height);
    if (copy.buffer == NULL) {
        vips_error("cvips_rows_in_order", "out of memory");
    } else if (vips_sink_disc(head, copy_wanted_rows, &copy) == 0) {
        flat = vips_image_new_from_memory_copy(copy.buffer, copy.sizeof_pixel * width * height,
                                               width, height, in->Bands, in->BandFmt);
        // Keep what the next steps read: the colour space and the EXIF orientation.
        if (flat && vips_copy(flat, out, "interpretation", in->Type, NULL) == 0) {
            vips_image_set_int(*out, VIPS_META_ORIENTATION, vips_image_get_orientation(in));
            result = 0;
        }
    }
    g_free(copy.buffer);
    if (flat) g_object_unref(flat);
    g_object_unref(head);
    return result;
}

int cvips_resize(VipsImage *in, double hscale, double vscale, VipsImage **out) {
    return vips_resize(in, out, hscale, "vscale", vscale, NULL);
}

int cvips_box_grid(VipsImage *in, int columns, int rows, unsigned char *out) {
    if (vips_image_get_bands(in) != 3 || vips_image_get_format(in) != VIPS_FORMAT_UCHAR
        || columns < 1 || rows < 1 || columns > in->Xsize || rows > in->Ysize) {
        vips_error("cvips_box_grid", "%s", "needs 8-bit RGB at least as large as the grid");
        return -1;
    }
    const unsigned char *data = vips_image_get_data(in);
    if (data == NULL) return -1;
    size_t width = (size_t) in->Xsize, height = (size_t) in->Ysize, stride = width * 3;
    for (size_t row = 0; row < (size_t) rows; row++) {
        size_t y0 = row * height / rows, y1 = (row + 1) * height / rows;
        for (size_t column = 0; column < (size_t) columns; column++) {
            size_t x0 = column * width / columns, x1 = (column + 1) * width / columns;
            unsigned long sum[3] = {0, 0, 0};
            for (size_t y = y0; y < y1; y++) {
                const unsigned char *p = data + y * stride + x0 * 3;
                for (size_t x = x0; x < x1; x++, p += 3) {
                    sum[0] += p[0]; sum[1] += p[1]; sum[2] += p[2];
                }
            }
            unsigned long n = (unsigned long) ((y1 - y0) * (x1 - x0));
            unsigned char *cell = out + (row * columns + column) * 3;
            for (int band = 0; band < 3; band++) cell[band] = (unsigned char) ((sum[band] + n / 2) / n);
        }
    }
    return 0;
}

int cvips_resize_linear(VipsImage *in, double hscale, double vscale, VipsImage **out) {
    return vips_resize(in, out, hscale, "vscale", vscale, "kernel", VIPS_KERNEL_LINEAR, NULL);
}

int cvips_embed_copy(VipsImage *in, int width, int height, VipsImage **out) {
    return vips_embed(in, out, 0, 0, width, height, "extend", VIPS_EXTEND_COPY, NULL);
}

int cvips_jpegsave_buffer(VipsImage *in, int quality, void **buffer, size_t *length) {
    return vips_jpegsave_buffer(in, buffer, length, "Q", quality, "strip", TRUE, NULL);
}

int cvips_dzsave(VipsImage *in, const char *base, int tile_size, const char *suffix) {
    return vips_dzsave(in, base, "layout", VIPS_FOREIGN_DZ_LAYOUT_DZ, "tile_size", tile_size,
                       "overlap", 0, "depth", VIPS_FOREIGN_DZ_DEPTH_ONETILE, "suffix", suffix,
                       "strip", TRUE, NULL);
}

int cvips_arrayjoin(VipsImage **in, int n, int across, VipsImage **out) {
    return vips_arrayjoin(in, out, n, "across", across, NULL);
}

int cvips_smartcrop(VipsImage *in, int width, int height, VipsInteresting interesting, VipsImage **out) {
    return vips_smartcrop(in, out, width, height, "interesting", interesting, NULL);
}

int cvips_getpoint(VipsImage *in, int x, int y, double **values, int *count) {
    return vips_getpoint(in, values, count, x, y, NULL);
}

int cvips_mean_abs_difference(VipsImage *a, VipsImage *b, double *mean) {
    VipsImage *difference = NULL, *magnitude = NULL;
    int result = -1;
    if (vips_subtract(a, b, &difference, NULL) == 0 && vips_abs(difference, &magnitude, NULL) == 0) {
        result = vips_avg(magnitude, mean, NULL);
    }
    if (magnitude) g_object_unref(magnitude);
    if (difference) g_object_unref(difference);
    return result;
}

int cvips_flip_horizontal(VipsImage *in, VipsImage **out) {
    return vips_flip(in, out, VIPS_DIRECTION_HORIZONTAL, NULL);
}

int cvips_rot(VipsImage *in, int quarter_turns, VipsImage **out) {
    static const VipsAngle angles[4] = {VIPS_ANGLE_D0, VIPS_ANGLE_D90, VIPS_ANGLE_D180, VIPS_ANGLE_D270};
    return vips_rot(in, out, angles[((quarter_turns % 4) + 4) % 4], NULL);
}

int cvips_rotate(VipsImage *in, double degrees, const double *background, int bands, VipsImage **out) {
    VipsArrayDouble *fill = vips_array_double_new(background, bands);
    int result = vips_rotate(in, out, degrees, "background", fill, NULL);
    vips_area_unref(VIPS_AREA(fill));
    return result;
}

int cvips_threshold(VipsImage *in, double level, VipsImage **out) {
    return vips_moreeq_const1(in, out, level, NULL);
}

int cvips_add_alpha(VipsImage *in, VipsImage **out) {
    return vips_bandjoin_const1(in, out, 255.0, NULL);
}

int cvips_save_buffer(VipsImage *in, const char *suffix, void **buffer, size_t *length) {
    return vips_image_write_to_buffer(in, suffix, buffer, length, NULL);
}

/* Pyramid tiles decoded straight with libjpeg: through libvips, each small tile costs the
 * machinery of a whole image load (about five times the decode itself). */
#include <setjmp.h>
#include <stdio.h>
#include <jpeglib.h>

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

/* The decoded rectangle's rows in memory, `stride` pixels apart (3 bytes a pixel): the rectangle's
 * own columns start SLACK pixels in. libjpeg's crop starts and ends on whole blocks (an iMCU: 16
 * pixels for 4:2:0 tiles), so the tiles at the rectangle's left and right edges come out wider
 * than the part wanted (a tile inside it is wanted whole). With SLACK to either side of every row
 * each tile is decoded straight where it belongs, its spare columns landing in the slack. */
#define SLACK 32

typedef struct {
    VipsPel *pixels;
    int stride;
    VipsRect want;
    int tile_size;
} TileCanvas;

/* Decodes the part of one tile that `want` covers into the canvas; the tile's top left corner is
 * at (origin_x, origin_y). Only the columns and rows wanted are computed (libjpeg-turbo's crop and
 * skip, to the nearest whole block); rows below the last wanted are not read at all. */
static int decode_tile(const char *path, int origin_x, int origin_y, const TileCanvas *canvas, CVipsStop *stop) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        vips_error("cvips_decode_jpeg_tiles", "cannot open %s", path);
        return -1;
    }
    struct jpeg_decompress_struct decoder;
    TileError error;
    decoder.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = tile_error_exit;
    error.row = NULL;
    if (setjmp(error.escape)) {
        vips_error("cvips_decode_jpeg_tiles", "%s: %s", path, error.message);
        jpeg_destroy_decompress(&decoder);
        fclose(file);
        g_free(error.row);
        return -1;
    }
    jpeg_create_decompress(&decoder);
    jpeg_stdio_src(&decoder, file);
    jpeg_read_header(&decoder, TRUE);
    decoder.out_color_space = JCS_RGB;
    jpeg_start_decompress(&decoder);
    const VipsRect *want = &canvas->want;
    /* A tile fills its place in the grid, no more (a larger one would write into a neighbour's)
     * and no less: the canvas is not cleared first, so a tile short of its place fails the
     * region rather than leave whatever the memory held before. */
    int size = canvas->tile_size;
    VipsRect place = {origin_x, origin_y, size, size}, wanted;
    VipsRect tile = {origin_x, origin_y, MIN((int) decoder.output_width, size), MIN((int) decoder.output_height, size)}, overlap;
    vips_rect_intersectrect(&place, want, &wanted);
    vips_rect_intersectrect(&tile, want, &overlap);
    int result = 0;
    if (!vips_rect_equalsrect(&overlap, &wanted)) {
        vips_error("cvips_decode_jpeg_tiles", "%s is smaller than its place in the level", path);
        result = -1;
    } else if (!vips_rect_isempty(&overlap)) {
        /* The columns wanted, widened by libjpeg to whole blocks: `first` is where its rows start. */
        JDIMENSION first = (JDIMENSION) (overlap.left - origin_x), columns = (JDIMENSION) overlap.width;
        if (columns < decoder.output_width) jpeg_crop_scanline(&decoder, &first, &columns);
        /* Where the decoded row's first pixel goes in a canvas row; straight there when the
         * widened row fits the row with its slack (a tile of larger blocks goes through a row
         * of its own and is copied). */
        int lead = overlap.left - origin_x - (int) first;
        int at = SLACK + (overlap.left - want->left) - lead;
        int straight = at >= 0 && at + (int) columns <= canvas->stride;
        error.row = g_malloc((size_t) decoder.output_width * 3);
        int skip = overlap.top - origin_y;
        if (skip > 0) jpeg_skip_scanlines(&decoder, (JDIMENSION) skip);
        while (decoder.output_scanline < decoder.output_height) {
            int y = origin_y + (int) decoder.output_scanline;
            /* A damaged tile may have skipped fewer rows than asked: those go to the spare row. */
            VipsPel *line = y >= overlap.top ? canvas->pixels + (size_t) (y - want->top) * canvas->stride * 3 : NULL;
            JSAMPROW target = line != NULL && straight ? line + (size_t) at * 3 : error.row;
            if (jpeg_read_scanlines(&decoder, &target, 1) != 1) {
                vips_error("cvips_decode_jpeg_tiles", "%s ended before its last row", path);
                result = -1;
                break;
            }
            if (line != NULL && !straight) {
                memcpy(line + (size_t) (SLACK + overlap.left - want->left) * 3, error.row + (size_t) lead * 3,
                       (size_t) overlap.width * 3);
            }
            if (y + 1 >= VIPS_RECT_BOTTOM(&overlap)) break;  /* rows below are not wanted */
            if ((y & 63) == 63 && stopped(stop)) {
                result = -1;
                break;
            }
        }
    }
    jpeg_abort_decompress(&decoder);
    jpeg_destroy_decompress(&decoder);
    fclose(file);
    g_free(error.row);
    return result;
}

/* Tiles from `from` up to `to` of a grid, decoded onto the canvas; `result` -1 on failure. */
typedef struct {
    const char **paths;
    int from, to, columns, tile_size;
    const TileCanvas *canvas;
    CVipsStop *stop;
    int result;
} TileRun;

/* Regions covering at least this many tiles are decoded on two threads. */
#define HELPED_TILES 4

static void decode_run(TileRun *run) {
    for (int i = run->from; i < run->to && run->result == 0; i++) {
        if (stopped(run->stop) || decode_tile(run->paths[i], (i % run->columns) * run->tile_size,
                                              (i / run->columns) * run->tile_size, run->canvas, run->stop)) run->result = -1;
    }
}

/* The second thread: at a render's priority, whoever asked. */
static gpointer decode_helper(gpointer data) {
    lower_priority();
    decode_run(data);
    return NULL;
}

static void free_pixels(VipsImage *image, void *pixels) {
    (void) image;
    g_free(pixels);
}

/* The rectangle's tiles decoded onto a canvas of its own (g_free it); 0, or -1 with the error set. */
static int decode_canvas(const char **paths, int count, int columns, int tile_size,
                         int left, int top, int width, int height, CVipsStop *stop, TileCanvas *canvas) {
    *canvas = (TileCanvas) {NULL, width + 2 * SLACK, {left, top, width, height}, tile_size};
    /* The grid covers the rectangle: every pixel of it is some tile's to write. */
    if (count < 1 || columns < 1 || count % columns || left < 0 || top < 0 || width < 1 || height < 1
        || left + width > columns * tile_size || top + height > count / columns * tile_size) {
        vips_error("cvips_decode_jpeg_tiles", "%s", "the tiles do not cover the rectangle");
        return -1;
    }
    canvas->pixels = g_try_malloc((size_t) canvas->stride * height * 3);
    if (canvas->pixels == NULL) {
        vips_error("cvips_decode_jpeg_tiles", "out of memory");
        return -1;
    }
    /* Tiles write apart from each other, so a second thread decodes the later half; without
     * one, this thread decodes them all. */
    int half = count >= HELPED_TILES ? count / 2 : count;
    TileRun runs[2] = {{paths, 0, half, columns, tile_size, canvas, stop, 0}, {paths, half, count, columns, tile_size, canvas, stop, 0}};
    GThread *helper = half < count ? g_thread_try_new("tile-decode", decode_helper, &runs[1], NULL) : NULL;
    if (helper == NULL) runs[0].to = count;
    decode_run(&runs[0]);
    if (helper != NULL) g_thread_join(helper);
    if (runs[0].result || runs[1].result) {
        g_free(canvas->pixels);
        canvas->pixels = NULL;
        return -1;
    }
    return 0;
}

int cvips_decode_jpeg_tiles(const char **paths, int count, int columns, int tile_size,
                            int left, int top, int width, int height, CVipsStop *stop, VipsImage **out) {
    *out = NULL;
    TileCanvas canvas;
    if (decode_canvas(paths, count, columns, tile_size, left, top, width, height, stop, &canvas)) return -1;
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

int cvips_decode_jpeg_tiles_shrunk(const char **paths, int count, int columns, int tile_size,
                                   int left, int top, int width, int height, int out_width, int out_height,
                                   CVipsStop *stop, VipsImage **out) {
    *out = NULL;
    TileCanvas canvas;
    if (decode_canvas(paths, count, columns, tile_size, left, top, width, height, stop, &canvas)) return -1;
    /* Shrunk from the canvas where it lies, and the canvas let go at once: nothing of it is kept
     * (an operation of libvips' would stay in its cache), and the next region's canvas takes the
     * same memory. */
    VipsPel *pixels = NULL;
    int result = stopped(stop) ? -1
        : cvips_shrink_pixels(canvas.pixels + SLACK * 3, (size_t) canvas.stride * 3, width, height, 3, out_width, out_height, &pixels);
    g_free(canvas.pixels);
    if (result == 0) result = cvips_image_from_pixels(pixels, out_width, out_height, 3, VIPS_INTERPRETATION_sRGB, out);
    return result;
}

char **cvips_field_names(VipsImage *image) {
    return vips_image_get_fields(image);
}

int cvips_copy(VipsImage *in, VipsImage **out) {
    return vips_copy(in, out, NULL);
}

int cvips_save_file(VipsImage *in, const char *path) {
    return vips_image_write_to_file(in, path, NULL);
}
