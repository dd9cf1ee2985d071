/* The decoded tile set's inside, for the tile decoder (decodedtiles.c). */
#ifndef PHOTOSCROLL_DECODED_TILES_H
#define PHOTOSCROLL_DECODED_TILES_H

#include <sys/stat.h>
#include <vips/vips.h>
#include "CJPEGTiles.h"

typedef struct DecodedTile DecodedTile;

/* Whether tiles are kept at all (a set, with a budget above zero). */
int decoded_tiles_enabled(jpeg_decoded_tiles *set);

/* The tile decoded from `path` while it was `file`, with a reference for the caller; NULL when it
 * is not kept (or the file has been written anew since). */
DecodedTile *decoded_tile_find(jpeg_decoded_tiles *set, const char *path, const struct stat *file);

/* A tile of width × height RGB `pixels` (g_malloc'd; the tile owns them), one reference. */
DecodedTile *decoded_tile_new(const char *path, const struct stat *file, int width, int height, VipsPel *pixels);

/* Keeps the tile in the set (its own reference), the oldest going past the budget. */
void decoded_tile_keep(jpeg_decoded_tiles *set, DecodedTile *tile);

const VipsPel *decoded_tile_pixels(const DecodedTile *tile, int *width, int *height);

void decoded_tile_unref(DecodedTile *tile);

#endif
