/* The shrink's inside, for the region pipeline (shrink.c). */
#ifndef PHOTOSCROLL_SHRINK_H
#define PHOTOSCROLL_SHRINK_H

#include <vips/vips.h>

/* Below this many input pixels a second thread costs more than it saves. */
#define SHRINK_HELPED_PIXELS (512 * 512)

/* A shrink of W × H pixels (rows `stride` bytes apart, read in place) to width × height: its
 * weights and buffers. Output rows are computed in parts, each wholly on one thread; two parts
 * (0 and 1) may run at once. */
typedef struct ShrinkPlan ShrinkPlan;

/* NULL (with the error set) for a size above the image's, or out of memory. */
ShrinkPlan *shrink_plan_new(const VipsPel *pixels, size_t stride, int W, int H, int bands, int width, int height);

/* An image in vertical strips side by side, each with rows of its own (a region's tiles, read
 * where they lie): strip c holds the image's columns x[c] up to x[c + 1] (x[0] is 0, x[strips]
 * the width), and its part of row y starts at rows[y * strips + c]. */
typedef struct {
    int strips;
    const int *x;
    const VipsPel *const *rows;
} ShrinkSource;

/* The same shrink of an image in strips, read in place: `source`'s arrays and pixels stay as they
 * are while the plan is used. */
ShrinkPlan *shrink_plan_new_strips(const ShrinkSource *source, int W, int H, int bands, int width, int height);

/* Output rows from..to, as part 0 or 1. */
void shrink_plan_rows(ShrinkPlan *plan, int part, int from, int to);

/* The output, rows of width × bands bytes one after another. */
const VipsPel *shrink_plan_result(const ShrinkPlan *plan);

/* The output, now the caller's (g_free). */
VipsPel *shrink_plan_take_result(ShrinkPlan *plan);

void shrink_plan_free(ShrinkPlan *plan);

#endif
