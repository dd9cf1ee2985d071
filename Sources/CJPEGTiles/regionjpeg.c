/* A region taken from its pyramid tiles to its JPEG without a pipeline around it, on two threads:
 * the tiles decoded (tiledecode.c), shrunk and encoded. */
#include <vips/vips.h>
#include "CJPEGTiles.h"
#include "internal.h"
#include "shrink.h"
#include "tiledecode.h"

/* The second thread of a region taken to its JPEG: it decodes tiles beside the first, waits until
 * every tile is in, then shrinks the lower output rows while the first thread shrinks the upper ones.
 * When the image may be cut in two (cjpeg_split_rows), each thread then encodes its own rows, and
 * the two parts are joined; else the first thread encodes them all, starting while this one
 * shrinks. */
typedef struct {
    TileRun run;
    GMutex lock;
    GCond changed;
    int decoded;  /* its tiles are in */
    int go;       /* 0: wait; 1: shrink rows from..to of the plan; -1: end */
    ShrinkPlan *plan;
    int from, to;
    int width, quality, cut;  /* cut: encode rows from..to as the lower part of an image cut there */
    unsigned char *jpeg;      /* the lower part, when cut */
    unsigned long length;
} RegionHelper;

/* Output rows from..to of the plan, encoded as the part of an image cut at `split` rows; 0, or -1
 * with the error set. */
static int encode_part(const ShrinkPlan *plan, int width, int quality, int from, int to, int split,
                       unsigned char **buffer, unsigned long *length) {
    size_t stride = (size_t) width * 3;
    cjpeg_writer *writer = cjpeg_part_writer_new(width, to - from, quality, split);
    if (writer == NULL) return -1;
    if (cjpeg_writer_rows(writer, shrink_plan_result(plan) + (size_t) from * stride, stride, to - from)) {
        cjpeg_writer_free(writer);
        return -1;
    }
    return cjpeg_writer_finish(writer, buffer, length);  /* which frees the writer either way */
}

static gpointer region_helper(gpointer data) {
    RegionHelper *helper = data;
    tiles_decode_run(&helper->run);
    g_mutex_lock(&helper->lock);
    helper->decoded = 1;
    g_cond_broadcast(&helper->changed);
    while (helper->go == 0) g_cond_wait(&helper->changed, &helper->lock);
    int go = helper->go;
    g_mutex_unlock(&helper->lock);
    if (go != 1) return NULL;
    shrink_plan_rows(helper->plan, 1, helper->from, helper->to);
    /* The part is left NULL on failure. */
    if (helper->cut) encode_part(helper->plan, helper->width, helper->quality, helper->from, helper->to, helper->cut,
                                 &helper->jpeg, &helper->length);
    return NULL;
}

/* Held tiles as the shrink's strips, read where they lie: a strip for each column of the grid the
 * rectangle covers, each of its rows in the tile that holds it. */
typedef struct {
    int *x;
    const VipsPel **rows;
    ShrinkSource source;
} HeldStrips;

static int held_strips(DecodedTile **held, int columns, const TileCanvas *canvas, HeldStrips *strips) {
    const VipsRect *want = &canvas->want;
    int size = canvas->tile_size, first = want->left / size;
    int count = (VIPS_RECT_RIGHT(want) - 1) / size - first + 1;
    strips->x = g_try_new(int, count + 1);
    strips->rows = g_try_new(const VipsPel *, (size_t) want->height * count);
    if (strips->x == NULL || strips->rows == NULL) {
        vips_error("cvips_decode_jpeg_tiles", "out of memory");
        return -1;
    }
    for (int c = 0; c <= count; c++) strips->x[c] = CLAMP((first + c) * size, want->left, VIPS_RECT_RIGHT(want)) - want->left;
    for (int y = want->top; y < VIPS_RECT_BOTTOM(want); y++) {
        int row = y / size;
        for (int c = 0; c < count; c++) {
            int width, height;
            const VipsPel *pixels = decoded_tile_pixels(held[row * columns + first + c], &width, &height);
            int x = want->left + strips->x[c] - (first + c) * size;
            strips->rows[(size_t) (y - want->top) * count + c] = pixels + ((size_t) (y - row * size) * width + x) * 3;
        }
    }
    strips->source = (ShrinkSource) {count, strips->x, strips->rows};
    return 0;
}

int cvips_region_jpeg(const jpeg_region_request *request, unsigned char **buffer, unsigned long *length) {
    const char **paths = request->paths;
    int count = request->count, columns = request->columns, tile_size = request->tile_size;
    int left = request->left, top = request->top, width = request->width, height = request->height;
    int out_width = request->out_width, out_height = request->out_height, quality = request->quality;
    CVipsStop *stop = request->stop;
    *buffer = NULL;
    *length = 0;
    /* With tiles kept, the shrink reads them where they are kept (held until it is done); else
     * they are decoded onto a canvas. */
    DecodedTile **held = decoded_tiles_enabled(request->kept) ? g_new0(DecodedTile *, count) : NULL;
    TileCanvas canvas;
    if (tile_canvas_new(count, columns, tile_size, left, top, width, height, held == NULL, &canvas)) {
        g_free(held);
        return -1;
    }
    gint next = 0;
    TileRun mine = {paths, count, columns, tile_size, &canvas, stop, 0, request->kept, held, &next};
    RegionHelper second = {.run = mine, .width = out_width, .quality = quality};
    g_mutex_init(&second.lock);
    g_cond_init(&second.changed);
    GThread *helper = count >= HELPED_TILES ? g_thread_try_new("region", region_helper, &second, NULL) : NULL;
    tiles_decode_run(&mine);
    if (helper != NULL) {
        g_mutex_lock(&second.lock);
        while (!second.decoded) g_cond_wait(&second.changed, &second.lock);
        g_mutex_unlock(&second.lock);
    }
    ShrinkPlan *plan = NULL;
    HeldStrips strips = {0};
    int failed = mine.result || second.run.result || cvips_stop_check(stop);
    if (!failed && held != NULL) {
        failed = held_strips(held, columns, &canvas, &strips)
            || (plan = shrink_plan_new_strips(&strips.source, width, height, 3, out_width, out_height)) == NULL;
    } else if (!failed) {
        plan = shrink_plan_new(canvas.pixels + SLACK * 3, (size_t) canvas.stride * 3, width, height, 3, out_width, out_height);
        failed = plan == NULL;
    }
    /* Cut in two, each thread shrinks and encodes about half the rows. Else the second thread
     * shrinks the lower rows (five eighths) while this one shrinks the upper ones and encodes
     * them, so that both finish about together. */
    int split = out_height, cut = 0;
    if (helper != NULL) {
        if (!failed) cut = cjpeg_split_rows(out_width, out_height, quality);
        if (cut) split = cut;
        else if (!failed && out_height >= 8) split = out_height * 3 / 8;
        g_mutex_lock(&second.lock);
        second.plan = plan;
        second.from = split;
        second.to = out_height;
        second.cut = cut;
        second.go = split < out_height ? 1 : -1;
        g_cond_broadcast(&second.changed);
        g_mutex_unlock(&second.lock);
    }
    cjpeg_writer *writer = NULL;
    unsigned char *upper = NULL;
    unsigned long upper_length = 0;
    if (!failed) shrink_plan_rows(plan, 0, 0, split);
    if (!failed && cut) {
        failed = encode_part(plan, out_width, quality, 0, split, cut, &upper, &upper_length);
    } else if (!failed) {
        writer = cjpeg_writer_new(out_width, out_height, quality);
        failed = writer == NULL || cjpeg_writer_rows(writer, shrink_plan_result(plan), (size_t) out_width * 3, split);
    }
    if (helper != NULL) g_thread_join(helper);
    if (!failed && cut) {
        failed = second.jpeg == NULL
            || cjpeg_join(upper, upper_length, second.jpeg, second.length, out_height, buffer, length);
    } else if (!failed && split < out_height) {
        failed = cjpeg_writer_rows(writer, shrink_plan_result(plan) + (size_t) split * out_width * 3, (size_t) out_width * 3,
                                   out_height - split);
    }
    if (!failed && !cut) {
        failed = cjpeg_writer_finish(writer, buffer, length);
        writer = NULL;
    }
    cjpeg_writer_free(writer);
    cjpeg_free(upper);
    cjpeg_free(second.jpeg);
    shrink_plan_free(plan);
    g_free(strips.x);
    g_free(strips.rows);
    for (int i = 0; held != NULL && i < count; i++) {
        if (held[i] != NULL) decoded_tile_unref(held[i]);
    }
    g_free(held);
    g_free(canvas.pixels);
    g_mutex_clear(&second.lock);
    g_cond_clear(&second.changed);
    return failed ? -1 : 0;
}
