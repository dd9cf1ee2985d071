#include <errno.h>
#include <fcntl.h>
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
    gint reads;  /* reads of the photo's file made under this stop */
    gint cancel_after_reads;  /* 0, or the count of reads after which the stop cancels itself */
    gint expire_after_reads;  /* 0, or the count of reads at which its time is up */
    gint expired;  /* its time was made up by expire_after_reads */
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
    if (g_atomic_int_get(&stop->expired)) return 2;
    if (stop->deadline && g_get_monotonic_time() > stop->deadline) return 2;
    return 0;
}

void cvips_stop_cancel_after_reads(CVipsStop *stop, int reads) { g_atomic_int_set(&stop->cancel_after_reads, reads); }

void cvips_stop_expire_after_reads(CVipsStop *stop, int reads) { g_atomic_int_set(&stop->expire_after_reads, reads); }

int cvips_stop_reads(CVipsStop *stop) { return g_atomic_int_get(&stop->reads); }

int cvips_stop_check(CVipsStop *stop) {
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
    if (cvips_stop_check((CVipsStop *) b)) return -1;
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

void cvips_keep_large_blocks(size_t mmap_threshold, size_t trim_threshold) {
    mallopt(M_MMAP_THRESHOLD, (int) mmap_threshold);
    mallopt(M_TRIM_THRESHOLD, (int) trim_threshold);
}

/* The loader that reads a source, NULL when none does or it is blocked (untrusted): for us
 * those are not photos. */
static const char *trusted_loader(VipsSource *source) {
    const char *loader = vips_foreign_find_load_source(source);
    if (loader == NULL) return NULL;
    const VipsOperationClass *class = (const VipsOperationClass *) vips_class_find("VipsForeignLoad", loader);
    if (class == NULL || (class->flags & VIPS_OPERATION_BLOCKED)) return NULL;
    return loader;
}

/* A source over a duplicate of `fd` that asks `stop` before every read. A progressive JPEG's
 * decoder takes in the whole file before it gives its first row, inside one call that no
 * guarded region can interrupt: its reads are where it can be stopped. */
typedef struct {
    int fd;
    CVipsStop *stop;
} StoppableFile;

static gint64 stoppable_read(VipsSourceCustom *source, void *buffer, gint64 length, StoppableFile *file) {
    (void) source;
    if (cvips_stop_check(file->stop)) return -1;
    int reads = g_atomic_int_add(&file->stop->reads, 1) + 1;
    int limit = g_atomic_int_get(&file->stop->cancel_after_reads);
    if (limit > 0 && reads >= limit) cvips_stop_cancel(file->stop);
    int expiry = g_atomic_int_get(&file->stop->expire_after_reads);
    if (expiry > 0 && reads >= expiry) g_atomic_int_set(&file->stop->expired, 1);
    ssize_t got;
    do { got = read(file->fd, buffer, (size_t) length); } while (got < 0 && errno == EINTR);
    return got;
}

static gint64 stoppable_seek(VipsSourceCustom *source, gint64 offset, int whence, StoppableFile *file) {
    (void) source;
    return (gint64) lseek(file->fd, (off_t) offset, whence);
}

static void stoppable_free(gpointer data) {
    StoppableFile *file = data;
    close(file->fd);
    cvips_stop_unref(file->stop);
    g_free(file);
}

static VipsSource *stoppable_source(int fd, CVipsStop *stop) {
    int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (copy < 0) {
        vips_error("photoscroll", "cannot duplicate the photo's descriptor: %s", g_strerror(errno));
        return NULL;
    }
    lseek(copy, 0, SEEK_SET);
    StoppableFile *file = g_new0(StoppableFile, 1);
    file->fd = copy;
    file->stop = stop_ref(stop);
    VipsSourceCustom *custom = vips_source_custom_new();
    g_signal_connect(custom, "read", G_CALLBACK(stoppable_read), file);
    g_signal_connect(custom, "seek", G_CALLBACK(stoppable_seek), file);
    g_object_set_data_full(G_OBJECT(custom), "photoscroll-file", file, stoppable_free);
    return VIPS_SOURCE(custom);
}

/* Photos are read from a descriptor the library opened (beneath the photos folder, checked),
 * never by name: a file source reopens its file by name after minimising, and
 * vips_image_new_from_file would also read a trailing "[...]" in a name as load options.
 * libvips keeps a duplicate of the descriptor for as long as the image lives. */
int cvips_load_descriptor(int fd, VipsAccess access, int fail, int shrink, CVipsStop *stop, VipsImage **out,
                          const char **loader_out) {
    *out = NULL;
    *loader_out = NULL;
    VipsSource *source = stop ? stoppable_source(fd, stop) : vips_source_new_from_descriptor(fd);
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

int cvips_load_tiff_level(int fd, int page, int subifd, CVipsStop *stop, VipsImage **out) {
    *out = NULL;
    VipsSource *source = stop ? stoppable_source(fd, stop) : vips_source_new_from_descriptor(fd);
    if (source == NULL) return -1;
    *out = vips_image_new_from_source(source, "", "access", VIPS_ACCESS_RANDOM, "fail_on", VIPS_FAIL_ON_TRUNCATED,
                                      "page", page, "subifd", subifd, NULL);
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
    if (cvips_stop_check(copy->stop)) return -1;
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

char **cvips_field_names(VipsImage *image) {
    return vips_image_get_fields(image);
}

int cvips_copy(VipsImage *in, VipsImage **out) {
    return vips_copy(in, out, NULL);
}

int cvips_save_file(VipsImage *in, const char *path) {
    return vips_image_write_to_file(in, path, NULL);
}
