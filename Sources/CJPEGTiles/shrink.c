/* An 8-bit image shrunk with the linear (triangle) kernel in two passes over memory: rows first,
 * whole rows at a time, then the columns of the rows that are left. libvips' reduce computes the
 * same filter through its general machinery; this is the region path's, where the image already
 * sits decoded in memory. */
#include <math.h>
#include <string.h>
#include <vips/vips.h>
#include "CJPEGTiles.h"
#include "shrink.h"

/* Weights are fixed point: an output pixel's weights add up to 1 << BITS. */
#define BITS 14

typedef unsigned char Pixel4 __attribute__((vector_size(4)));
typedef guint32 Sum4 __attribute__((vector_size(16)));

typedef struct {
    int *first;   /* per output pixel: the first input pixel it reads */
    int *count;   /* per output pixel: how many it reads (its weights that are not zero) */
    int *weights; /* per output pixel: `taps` places for weights */
    int taps;
} Taps;

/* The triangle kernel stretched by the shrink (a radius of `scale` input pixels), centred on each
 * output pixel's centre, its edge pixels repeated; weights rounded so that each output's add up
 * exactly (a flat image stays flat). Every output reads `taps` pixels from its first, all inside
 * the image. */
static int taps_new(Taps *taps, int in, int out) {
    double scale = (double) in / out;
    double radius = scale > 1 ? scale : 1;
    int span = (int) ceil(2 * radius) + 1;
    taps->taps = span < in ? span : in;
    taps->first = g_try_new(int, out);
    taps->count = g_try_new(int, out);
    taps->weights = g_try_new0(int, (size_t) out * taps->taps);
    if (taps->first == NULL || taps->count == NULL || taps->weights == NULL) return -1;
    double raw[span];
    for (int o = 0; o < out; o++) {
        double centre = (o + 0.5) * scale - 0.5;
        int first = (int) floor(centre - radius) + 1;
        double sum = 0;
        for (int k = 0; k < span; k++) {
            double w = 1 - fabs(first + k - centre) / radius;
            raw[k] = w > 0 ? w : 0;
            sum += raw[k];
        }
        /* The window moved inside the image; taps outside it fold onto the edge pixel. */
        int low = first < 0 ? 0 : first > in - taps->taps ? in - taps->taps : first;
        int *weights = taps->weights + (size_t) o * taps->taps;
        int total = 0, largest = 0;
        for (int k = 0; k < span; k++) {
            int at = first + k < 0 ? 0 : first + k >= in ? in - 1 : first + k;
            int w = (int) (raw[k] / sum * (1 << BITS) + 0.5);
            weights[at - low] += w;
            total += w;
        }
        for (int k = 1; k < taps->taps; k++) {
            if (weights[k] > weights[largest]) largest = k;
        }
        weights[largest] += (1 << BITS) - total;
        /* Zero weights at either end are not read at all. */
        int from = 0, to = taps->taps;
        while (weights[from] == 0) from++;
        while (weights[to - 1] == 0) to--;
        memmove(weights, weights + from, (size_t) (to - from) * sizeof *weights);
        taps->first[o] = low + from;
        taps->count[o] = to - from;
    }
    return 0;
}

static void taps_free(Taps *taps) {
    g_free(taps->first);
    g_free(taps->count);
    g_free(taps->weights);
}

/* Output rows, each its input rows weighted: whole rows at a time (a strip's part of each), the
 * loop the compiler turns into vector code (twice as wide where the processor has AVX2, chosen
 * when the program loads). */
__attribute__((target_clones("avx2", "default")))
static void shrink_rows(const ShrinkSource *source, int bands, size_t row, const Taps *down, int from, int to,
                        guint32 *sums, VipsPel *out) {
    int strips = source->strips;
    for (int y = from; y < to; y++) {
        const int *weights = down->weights + (size_t) y * down->taps;
        const VipsPel *const *rows = source->rows + (size_t) down->first[y] * strips;
        VipsPel *target = out + (size_t) y * (row + 1);
        for (int c = 0; c < strips; c++) {
            size_t length = (size_t) (source->x[c + 1] - source->x[c]) * bands;
            const VipsPel *pixels = rows[c];
            for (size_t i = 0; i < length; i++) sums[i] = (guint32) weights[0] * pixels[i];
            for (int k = 1; k < down->count[y]; k++) {
                guint32 w = (guint32) weights[k];
                pixels = rows[(size_t) k * strips + c];
                for (size_t i = 0; i < length; i++) sums[i] += w * pixels[i];
            }
            VipsPel *part = target + (size_t) source->x[c] * bands;
            for (size_t i = 0; i < length; i++) part[i] = (VipsPel) ((sums[i] + (1 << (BITS - 1))) >> BITS);
        }
    }
}

/* Output columns of each row; three bands (nearly every photo) as one vector. */
__attribute__((target_clones("avx2", "default")))
static void shrink_columns(const VipsPel *in, size_t row, int bands, const Taps *across, int width, int from, int to,
                           VipsPel *out) {
    for (int y = from; y < to; y++) {
        const VipsPel *source = in + (size_t) y * (row + 1);
        VipsPel *target = out + (size_t) y * width * bands;
        const int *weights = across->weights;
        for (int x = 0; x < width; x++, weights += across->taps) {
            const VipsPel *p = source + (size_t) across->first[x] * bands;
            if (bands == 3) {
                /* A pixel's three bands and the next pixel's first, as one vector (each row has
                 * a byte to spare after its last pixel). */
                Sum4 sum = {1 << (BITS - 1), 1 << (BITS - 1), 1 << (BITS - 1), 0};
                for (int k = 0; k < across->count[x]; k++, p += 3) {
                    Pixel4 pixel;
                    memcpy(&pixel, p, sizeof pixel);
                    sum += __builtin_convertvector(pixel, Sum4) * (guint32) weights[k];
                }
                sum >>= BITS;
                target[0] = (VipsPel) sum[0];
                target[1] = (VipsPel) sum[1];
                target[2] = (VipsPel) sum[2];
                target += 3;
                continue;
            }
            for (int band = 0; band < bands; band++) {
                guint32 sum = 1 << (BITS - 1);
                for (int k = 0; k < across->count[x]; k++) sum += (guint32) weights[k] * p[k * bands + band];
                *target++ = (VipsPel) (sum >> BITS);
            }
        }
    }
}

struct ShrinkPlan {
    ShrinkSource source;
    size_t row;
    int bands, width, height;
    Taps down, across;
    VipsPel *middle, *result;
    guint32 *sums;  /* a row of sums for each of two parts */
    int *x;         /* an image in one piece: its strip, and its rows */
    const VipsPel **rows;
};

void shrink_plan_free(ShrinkPlan *plan) {
    if (plan == NULL) return;
    taps_free(&plan->across);
    taps_free(&plan->down);
    g_free(plan->middle);
    g_free(plan->result);
    g_free(plan->sums);
    g_free(plan->x);
    g_free(plan->rows);
    g_free(plan);
}

ShrinkPlan *shrink_plan_new(const VipsPel *pixels, size_t stride, int W, int H, int bands, int width, int height) {
    int *x = g_try_new(int, 2);
    const VipsPel **rows = H > 0 ? g_try_new(const VipsPel *, H) : NULL;
    if (x == NULL || rows == NULL) {
        g_free(x);
        g_free(rows);
        vips_error("cvips_shrink_linear", "%s", "out of memory");
        return NULL;
    }
    x[0] = 0;
    x[1] = W;
    for (int y = 0; y < H; y++) rows[y] = pixels + (size_t) y * stride;
    ShrinkPlan *plan = shrink_plan_new_strips(&(ShrinkSource) {1, x, rows}, W, H, bands, width, height);
    if (plan == NULL) {
        g_free(x);
        g_free(rows);
        return NULL;
    }
    plan->x = x;
    plan->rows = rows;
    return plan;
}

ShrinkPlan *shrink_plan_new_strips(const ShrinkSource *source, int W, int H, int bands, int width, int height) {
    if (W < 1 || H < 1 || bands < 1 || width < 1 || height < 1 || width > W || height > H) {
        vips_error("cvips_shrink_linear", "%s", "needs a size no larger than the image");
        return NULL;
    }
    ShrinkPlan *plan = g_new0(ShrinkPlan, 1);
    *plan = (ShrinkPlan) {*source, (size_t) W * bands, bands, width, height};
    int failed = taps_new(&plan->across, W, width) || taps_new(&plan->down, H, height);
    if (!failed) {
        plan->middle = g_try_malloc((size_t) height * (plan->row + 1));  /* a spare byte after each row */
        plan->result = g_try_malloc((size_t) height * width * bands);
        plan->sums = g_try_new(guint32, 2 * plan->row);
        failed = plan->middle == NULL || plan->result == NULL || plan->sums == NULL;
    }
    if (failed) {
        vips_error("cvips_shrink_linear", "%s", "out of memory");
        shrink_plan_free(plan);
        return NULL;
    }
    return plan;
}

void shrink_plan_rows(ShrinkPlan *plan, int part, int from, int to) {
    guint32 *sums = plan->sums + (part ? plan->row : 0);
    shrink_rows(&plan->source, plan->bands, plan->row, &plan->down, from, to, sums, plan->middle);
    shrink_columns(plan->middle, plan->row, plan->bands, &plan->across, plan->width, from, to, plan->result);
}

const VipsPel *shrink_plan_result(const ShrinkPlan *plan) { return plan->result; }

VipsPel *shrink_plan_take_result(ShrinkPlan *plan) {
    VipsPel *result = plan->result;
    plan->result = NULL;
    return result;
}

typedef struct {
    ShrinkPlan *plan;
    int from, to;
} ShrinkPart;

/* The second thread: at its caller's priority, which a new thread takes from the thread that
 * made it (a render's lowered one, or a fitted view's normal one in the images lane). */
static gpointer shrink_helper(gpointer data) {
    ShrinkPart *part = data;
    shrink_plan_rows(part->plan, 1, part->from, part->to);
    return NULL;
}

static void free_pixels(VipsImage *image, void *pixels) {
    (void) image;
    g_free(pixels);
}

int cvips_shrink_pixels(const VipsPel *pixels, size_t stride, int W, int H, int bands, int width, int height,
                        VipsPel **out) {
    *out = NULL;
    ShrinkPlan *plan = shrink_plan_new(pixels, stride, W, H, bands, width, height);
    if (plan == NULL) return -1;
    /* Large ones in two halves of the output rows, the lower on a second thread. */
    int half = (size_t) W * H >= SHRINK_HELPED_PIXELS && height >= 2 ? height / 2 : height;
    ShrinkPart lower = {plan, half, height};
    GThread *helper = half < height ? g_thread_try_new("shrink", shrink_helper, &lower, NULL) : NULL;
    shrink_plan_rows(plan, 0, 0, helper != NULL ? half : height);
    if (helper != NULL) g_thread_join(helper);
    *out = shrink_plan_take_result(plan);
    shrink_plan_free(plan);
    return 0;
}

int cvips_image_from_pixels(VipsPel *pixels, int width, int height, int bands, VipsInterpretation type, VipsImage **out) {
    VipsImage *image = vips_image_new_from_memory(pixels, (size_t) height * width * bands, width, height, bands, VIPS_FORMAT_UCHAR);
    if (image == NULL) {
        g_free(pixels);
        return -1;
    }
    g_signal_connect(image, "postclose", G_CALLBACK(free_pixels), pixels);
    image->Type = type;
    *out = image;
    return 0;
}

int cvips_shrink_linear(VipsImage *in, int width, int height, VipsImage **out) {
    *out = NULL;
    if (in->BandFmt != VIPS_FORMAT_UCHAR) {
        vips_error("cvips_shrink_linear", "%s", "needs 8-bit pixels");
        return -1;
    }
    /* The whole image as one region: an image in memory, or cut from one, is read in place. */
    VipsRegion *region = vips_region_new(in);
    VipsRect all = {0, 0, in->Xsize, in->Ysize};
    if (vips_region_prepare(region, &all)) {
        g_object_unref(region);
        return -1;
    }
    VipsPel *pixels = NULL;
    int result = cvips_shrink_pixels(VIPS_REGION_ADDR(region, 0, 0), VIPS_REGION_LSKIP(region), in->Xsize, in->Ysize, in->Bands,
                                     width, height, &pixels);
    g_object_unref(region);
    if (result == 0) result = cvips_image_from_pixels(pixels, width, height, in->Bands, in->Type, out);
    return result;
}
