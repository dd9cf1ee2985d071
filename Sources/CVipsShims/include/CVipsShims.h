#ifndef PHOTOSCROLL_CVIPSSHIMS_H
#define PHOTOSCROLL_CVIPSSHIMS_H

#include <vips/vips.h>

/// Non-variadic wrappers over libvips' varargs operations, callable from Swift.
/// Each returns 0 on success and -1 on failure (read vips_error_buffer_copy()).
/// Output images are new references: the caller owns them and releases them with g_object_unref.

/// vips_init once, then only loaders a photo server should run (no ImageMagick, MATLAB, FITS…).
int cvips_init(const char *argv0);

/// Bounds libvips' operation cache and worker threads. concurrency 0 keeps libvips' default.
void cvips_configure(size_t cache_bytes, int cache_operations, int cache_files, int concurrency);

/// Empties the operation cache but keeps its limits (vips_cache_drop_all would tear it down).
void cvips_cache_flush(void);

/// Lowers the calling thread's CPU priority to nice 10 (never raises it): for threads that render.
void cvips_lower_thread_priority(void);

/// Gives the free pages of every glibc heap arena back to the kernel (malloc_trim).
void cvips_trim_heap(void);

/// Caps glibc's heap arenas (M_ARENA_MAX); call before the threads that allocate are made.
void cvips_limit_heap_arenas(int count);

/// Blocks under `mmap_threshold` come from the heap's arenas, and an arena keeps up to
/// `trim_threshold` free at its top (glibc's M_MMAP_THRESHOLD and M_TRIM_THRESHOLD).
void cvips_keep_large_blocks(size_t mmap_threshold, size_t trim_threshold);

/// Opens the file open at `fd`, which libvips duplicates (header only until pixels are asked for).
/// access: VIPS_ACCESS_RANDOM or VIPS_ACCESS_SEQUENTIAL. fail: fail on truncated or damaged data.
/// shrink: shrink-on-load factor (1, 2, 4, 8) used by loaders that can (JPEG, WebP); others ignore it.
/// `loader` is the loader that read it ("VipsForeignLoadJpegSource"), NULL when no trusted one
/// recognises the file (then the result is -1 and no libvips error is left).
/// `stop` (may be NULL) is asked before every read of the file: a decoder that takes the whole
/// file in one go before it gives a row (a progressive JPEG) ends at its next read once it says so.
typedef struct CVipsStop CVipsStop;
int cvips_load_descriptor(int fd, VipsAccess access, int fail, int shrink, CVipsStop *stop, VipsImage **out, const char **loader);
/* One level of a tiled TIFF: page `page`, or SubIFD `subifd` of the first page (-1: the page
 * itself), opened for random access so that only the tiles a region covers are decoded. */
int cvips_load_tiff_level(int fd, int page, int subifd, CVipsStop *stop, VipsImage **out);

/// EXIF orientation applied to the pixels, tag removed.
int cvips_autorot(VipsImage *in, VipsImage **out);

/// Whether the image carries an embedded ICC profile.
int cvips_has_icc(VipsImage *image);

/// ICC transform to 8-bit sRGB; input_profile is used when the image has no embedded profile
/// (NULL: libvips' default for the interpretation, e.g. its built-in CMYK profile).
int cvips_icc_to_srgb(VipsImage *in, const char *input_profile, VipsImage **out);

/// Colourspace conversion without ICC (greyscale, 16-bit, Lab… to sRGB).
int cvips_colourspace(VipsImage *in, VipsInterpretation space, VipsImage **out);

/// Cast to 8-bit unsigned, shifting 16-bit values down rather than clipping them.
int cvips_cast_uchar(VipsImage *in, VipsImage **out);

/// Flattens alpha onto an RGB background (alpha scale given by max_alpha).
int cvips_flatten(VipsImage *in, double red, double green, double blue, double max_alpha, VipsImage **out);

/// Keeps the first `bands` bands.
int cvips_extract_bands(VipsImage *in, int first, int bands, VipsImage **out);

/// A rectangle of the image.
int cvips_extract_area(VipsImage *in, int left, int top, int width, int height, VipsImage **out);

/// A way to stop one render: cancelled from any thread, or past its deadline. Reference-counted:
/// the render holds one reference and every image guarded by it another, so an image that a
/// cache keeps after the render never points at freed memory.

/// A new stop (one reference) whose deadline is `seconds` from now; 0 or less: no deadline.
CVipsStop *cvips_stop_new(double seconds);
void cvips_stop_unref(CVipsStop *stop);
/// Asks every computation guarded by `stop` to end; safe from any thread.
void cvips_stop_cancel(CVipsStop *stop);
/// 0 while the render may go on, 1 once cancelled, 2 once past its deadline.
int cvips_stop_state(CVipsStop *stop);
/// Sets libvips' error and returns 1 once `stop` (may be NULL) says the render must end, else 0:
/// asked between steps by computations of our own (the JPEG tile pipeline's included).
int cvips_stop_check(CVipsStop *stop);
/// How many reads of a photo's file were made under `stop` (each one asked it first).
int cvips_stop_reads(CVipsStop *stop);
/// Makes `stop` cancel itself once `reads` reads of a photo's file were made under it: a stop
/// that fires at a known point of a decoder's intake, whatever the machine's speed.
void cvips_stop_cancel_after_reads(CVipsStop *stop, int reads);
/// Makes `stop`'s time be up once `reads` reads of a photo's file were made under it, as if its
/// deadline had come then: a deadline at a known point of a render, whatever the machine's speed.
void cvips_stop_expire_after_reads(CVipsStop *stop, int reads);

/// A new image with `in`'s pixels, computed on demand like `in`, that fails (and so ends the
/// computation it is part of) at its next region once `stop` says so. Each libvips worker that
/// computes it has its CPU priority lowered (nice 10) for good: renders yield to answering
/// requests. Not an operation, so never shared through libvips' operation cache.
int cvips_guarded(VipsImage *in, CVipsStop *stop, VipsImage **out);

/// The rectangle of `in`, read by streaming every row from the top down to its last row and
/// keeping only its own pixels: a sequential decoder never jumps, and only strips are held.
/// The result is a small image in memory, with `in`'s interpretation and orientation.
/// `stop` (may be NULL) ends it between strips.
int cvips_rows_in_order(VipsImage *in, int left, int top, int width, int height, CVipsStop *stop, VipsImage **out);

/// Scales by hscale × vscale with libvips' default (Lanczos 3) kernel.
int cvips_resize(VipsImage *in, double hscale, double vscale, VipsImage **out);

/// The average of each cell of a columns × rows grid over an 8-bit RGB image, into `out`
/// (columns × rows × 3 bytes). Reads the pixels in place: no pipeline, no worker threads, when
/// the image is in memory (one that is not is computed into memory first).
int cvips_box_grid(VipsImage *in, int columns, int rows, unsigned char *out);

/// Scales with a triangle (linear) kernel, widened with the shrink so downscales stay smooth:
/// several times cheaper than Lanczos 3 and close to it for shrinks under two.
int cvips_resize_linear(VipsImage *in, double hscale, double vscale, VipsImage **out);

/// Pads the image to width × height by copying edge pixels (fixes a 1-pixel rounding shortfall).
int cvips_embed_copy(VipsImage *in, int width, int height, VipsImage **out);

/// Encodes JPEG at quality q with all metadata stripped; *buffer is freed with g_free.
int cvips_jpegsave_buffer(VipsImage *in, int quality, void **buffer, size_t *length);

/// Writes a DeepZoom pyramid `base.dzi` + `base_files/{level}/{x}_{y}{suffix}`, no overlap,
/// down to the level that fits in one tile.
int cvips_dzsave(VipsImage *in, const char *base, int tile_size, const char *suffix);

/// Joins n images into a grid `across` images wide, row by row.
int cvips_arrayjoin(VipsImage **in, int n, int across, VipsImage **out);

/// Crops to width × height around the most interesting part (`interesting`).
int cvips_smartcrop(VipsImage *in, int width, int height, VipsInteresting interesting, VipsImage **out);

/// The band values of pixel (x, y); *values is freed with g_free.
int cvips_getpoint(VipsImage *in, int x, int y, double **values, int *count);

/// Mean over all pixels and bands of |a − b| (same size and bands).
int cvips_mean_abs_difference(VipsImage *a, VipsImage *b, double *mean);

/// Mirrors the image across its vertical axis (left becomes right).
int cvips_flip_horizontal(VipsImage *in, VipsImage **out);

/// Rotates clockwise by quarter_turns × 90 degrees, exactly.
int cvips_rot(VipsImage *in, int quarter_turns, VipsImage **out);

/// Rotates clockwise by any angle into the bounding box of the result, filling the corners
/// with `background` (one value per band).
int cvips_rotate(VipsImage *in, double degrees, const double *background, int bands, VipsImage **out);

/// 255 where a pixel is at least `level`, 0 elsewhere.
int cvips_threshold(VipsImage *in, double level, VipsImage **out);

/// Appends an opaque alpha band.
int cvips_add_alpha(VipsImage *in, VipsImage **out);

/// Encodes in the format a suffix names, with its options (".png[bitdepth=1]"); *buffer is freed with g_free.
int cvips_save_buffer(VipsImage *in, const char *suffix, void **buffer, size_t *length);

/// The names of every metadata field attached to the image (EXIF fields, "xmp-data", …), as a
/// NULL-terminated array freed with g_strfreev.
char **cvips_field_names(VipsImage *image);

/// A copy of the image (sharing its pixels) whose metadata may be changed without touching `in`.
int cvips_copy(VipsImage *in, VipsImage **out);

/// Writes the image to a file in the format its suffix names (".jpg", ".png[compression=1]"),
/// keeping its metadata: EXIF fields are written into the file's EXIF block.
int cvips_save_file(VipsImage *in, const char *path);

#endif
