/* The tile decoder's inside, for the region pipeline (tiledecode.c, regionjpeg.c). */
#ifndef PHOTOSCROLL_TILE_DECODE_H
#define PHOTOSCROLL_TILE_DECODE_H

#include <vips/vips.h>
#include "CJPEGTiles.h"
#include "decodedtiles.h"

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

/* One thread's part of a grid's `count` tiles, decoded onto the canvas (copied from `kept`, the
 * tiles kept between regions, when it keeps any), or held from `kept` where `held` is given
 * (held[i] for tile i); `result` -1 on failure. The threads take the tiles
 * one at a time, each the next that none has taken (`next`, shared), so that both stay busy to
 * the end whichever tiles are kept and whichever must be decoded. */
typedef struct {
    const char **paths;
    int count, columns, tile_size;
    const TileCanvas *canvas;
    CVipsStop *stop;
    int result;
    jpeg_decoded_tiles *kept;
    DecodedTile **held;
    gint *next;
} TileRun;

/* Regions covering at least this many tiles are decoded on two threads. */
#define HELPED_TILES 4

/* Decodes or holds the run's tiles until none is left (or one fails). */
void tiles_decode_run(TileRun *run);

/* A canvas for the rectangle (its pixels g_free'd by the caller; none where the tiles are held
 * instead, without `pixels`); 0, or -1 with the error set. */
int tile_canvas_new(int count, int columns, int tile_size, int left, int top, int width, int height, int pixels,
                    TileCanvas *canvas);

#endif
