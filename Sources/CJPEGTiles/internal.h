/* What the JPEG tile files share among themselves. */
#ifndef PHOTOSCROLL_JPEG_TILES_INTERNAL_H
#define PHOTOSCROLL_JPEG_TILES_INTERNAL_H

#include "CJPEGTiles.h"

/* JPEG is encoded with chroma at full size from this quality up, halved both ways below it
 * (jpegstrips.c), as libvips' jpegsave does: the rows of a block row are 8 or 16. */
#define FULL_CHROMA_QUALITY 90
static inline int block_rows(int quality) { return quality >= FULL_CHROMA_QUALITY ? 8 : 16; }

#endif
