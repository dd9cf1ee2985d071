/* Decoded pyramid tiles kept for IIIF regions: regions of the same photo at the same level share
 * most of their tiles, and decoding them is most of a region's work. A least-recently-used set
 * under a byte budget, shared by every thread that renders with it; an entry is a whole tile's RGB
 * pixels, known by its path and its file's identity (device, inode, size, change time) taken from
 * the open file, so a tile written anew is decoded anew. Readers hold a reference, so eviction
 * never frees pixels being copied. The set is an object its owner makes and frees (the Swift
 * side: RegionTileCache), not state of the process. */
#include <string.h>
#include <sys/stat.h>
#include <vips/vips.h>
#include "CJPEGTiles.h"
#include "decodedtiles.h"

struct DecodedTile {
    char *path;
    dev_t device;
    ino_t inode;
    off_t size;
    gint64 changed;  /* st_ctim in nanoseconds */
    int width, height;
    VipsPel *pixels;
    size_t bytes;
    gint references;
    DecodedTile *newer, *older;
};

struct jpeg_decoded_tiles {
    GMutex lock;
    GHashTable *table;  /* path → DecodedTile, the set's own reference */
    DecodedTile *newest, *oldest;
    size_t used, budget;
    gint enabled;  /* budget above zero, read without the lock */
};

static void tile_free(DecodedTile *tile) {
    g_free(tile->path);
    g_free(tile->pixels);
    g_free(tile);
}

void decoded_tile_unref(DecodedTile *tile) {
    if (tile != NULL && g_atomic_int_dec_and_test(&tile->references)) tile_free(tile);
}

static void unlink_tile(jpeg_decoded_tiles *set, DecodedTile *tile) {
    if (tile->newer) tile->newer->older = tile->older; else set->newest = tile->older;
    if (tile->older) tile->older->newer = tile->newer; else set->oldest = tile->newer;
    tile->newer = tile->older = NULL;
}

static void link_newest(jpeg_decoded_tiles *set, DecodedTile *tile) {
    tile->older = set->newest;
    tile->newer = NULL;
    if (set->newest) set->newest->newer = tile; else set->oldest = tile;
    set->newest = tile;
}

/* With the lock held: takes a tile out of the set, which lets go of its reference. */
static void drop(jpeg_decoded_tiles *set, DecodedTile *tile) {
    unlink_tile(set, tile);
    g_hash_table_remove(set->table, tile->path);
    set->used -= tile->bytes;
    decoded_tile_unref(tile);
}

/* With the lock held: drops entries, oldest first, until the set is within `limit` bytes. */
static void evict_to(jpeg_decoded_tiles *set, size_t limit) {
    while (set->oldest != NULL && set->used > limit) drop(set, set->oldest);
}

jpeg_decoded_tiles *jpeg_decoded_tiles_new(size_t bytes) {
    jpeg_decoded_tiles *set = g_new0(jpeg_decoded_tiles, 1);
    g_mutex_init(&set->lock);
    set->table = g_hash_table_new(g_str_hash, g_str_equal);
    jpeg_decoded_tiles_configure(set, bytes);
    return set;
}

void jpeg_decoded_tiles_free(jpeg_decoded_tiles *set) {
    if (set == NULL) return;
    jpeg_decoded_tiles_flush(set);
    g_hash_table_destroy(set->table);
    g_mutex_clear(&set->lock);
    g_free(set);
}

void jpeg_decoded_tiles_configure(jpeg_decoded_tiles *set, size_t bytes) {
    g_mutex_lock(&set->lock);
    set->budget = bytes;
    g_atomic_int_set(&set->enabled, bytes > 0);
    evict_to(set, set->budget);
    g_mutex_unlock(&set->lock);
}

void jpeg_decoded_tiles_flush(jpeg_decoded_tiles *set) {
    g_mutex_lock(&set->lock);
    evict_to(set, 0);
    g_mutex_unlock(&set->lock);
}

size_t jpeg_decoded_tiles_bytes(jpeg_decoded_tiles *set) {
    g_mutex_lock(&set->lock);
    size_t bytes = set->used;
    g_mutex_unlock(&set->lock);
    return bytes;
}

int decoded_tiles_enabled(jpeg_decoded_tiles *set) {
    return set != NULL && g_atomic_int_get(&set->enabled);
}

static int same_file(const DecodedTile *tile, const struct stat *file) {
    return tile->device == file->st_dev && tile->inode == file->st_ino && tile->size == file->st_size
        && tile->changed == (gint64) file->st_ctim.tv_sec * 1000000000 + file->st_ctim.tv_nsec;
}

DecodedTile *decoded_tile_find(jpeg_decoded_tiles *set, const char *path, const struct stat *file) {
    g_mutex_lock(&set->lock);
    DecodedTile *tile = g_hash_table_lookup(set->table, path);
    if (tile != NULL && !same_file(tile, file)) {
        /* Written anew since: the old pixels go. */
        drop(set, tile);
        tile = NULL;
    }
    if (tile != NULL) {
        unlink_tile(set, tile);
        link_newest(set, tile);
        g_atomic_int_inc(&tile->references);
    }
    g_mutex_unlock(&set->lock);
    return tile;
}

DecodedTile *decoded_tile_new(const char *path, const struct stat *file, int width, int height, VipsPel *pixels) {
    DecodedTile *tile = g_new0(DecodedTile, 1);
    tile->path = g_strdup(path);
    tile->device = file->st_dev;
    tile->inode = file->st_ino;
    tile->size = file->st_size;
    tile->changed = (gint64) file->st_ctim.tv_sec * 1000000000 + file->st_ctim.tv_nsec;
    tile->width = width;
    tile->height = height;
    tile->pixels = pixels;
    tile->bytes = (size_t) width * height * 3;
    tile->references = 1;
    return tile;
}

void decoded_tile_keep(jpeg_decoded_tiles *set, DecodedTile *tile) {
    g_mutex_lock(&set->lock);
    if (tile->bytes <= set->budget && g_hash_table_lookup(set->table, tile->path) == NULL) {
        g_atomic_int_inc(&tile->references);
        g_hash_table_insert(set->table, tile->path, tile);
        link_newest(set, tile);
        set->used += tile->bytes;
        evict_to(set, set->budget);
    }
    g_mutex_unlock(&set->lock);
}

const VipsPel *decoded_tile_pixels(const DecodedTile *tile, int *width, int *height) {
    *width = tile->width;
    *height = tile->height;
    return tile->pixels;
}
