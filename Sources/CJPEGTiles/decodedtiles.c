/* Decoded pyramid tiles kept for IIIF regions: regions of the same photo at the same level share
 * most of their tiles, and decoding them is most of a region's work. A least-recently-used set
 * under a byte budget, shared by every thread; an entry is a whole tile's RGB pixels, known by its
 * path and the file's identity (device, inode, size, change time), so a tile written anew is
 * decoded anew. Readers hold a reference, so eviction never frees pixels being copied. */
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

static GMutex lock;
static GHashTable *table;  /* path → DecodedTile, the set's own reference */
static DecodedTile *newest, *oldest;
static size_t used, budget;
static gint enabled;  /* budget above zero, read without the lock */

static void tile_free(DecodedTile *tile) {
    g_free(tile->path);
    g_free(tile->pixels);
    g_free(tile);
}

void decoded_tile_unref(DecodedTile *tile) {
    if (tile != NULL && g_atomic_int_dec_and_test(&tile->references)) tile_free(tile);
}

static void unlink_tile(DecodedTile *tile) {
    if (tile->newer) tile->newer->older = tile->older; else newest = tile->older;
    if (tile->older) tile->older->newer = tile->newer; else oldest = tile->newer;
    tile->newer = tile->older = NULL;
}

static void link_newest(DecodedTile *tile) {
    tile->older = newest;
    tile->newer = NULL;
    if (newest) newest->newer = tile; else oldest = tile;
    newest = tile;
}

/* With the lock held: takes a tile out of the set, which lets go of its reference. */
static void drop(DecodedTile *tile) {
    unlink_tile(tile);
    g_hash_table_remove(table, tile->path);
    used -= tile->bytes;
    decoded_tile_unref(tile);
}

/* With the lock held: drops entries, oldest first, until the set is within `limit` bytes. */
static void evict_to(size_t limit) {
    while (oldest != NULL && used > limit) drop(oldest);
}

void cvips_decoded_tiles_configure(size_t bytes) {
    g_mutex_lock(&lock);
    if (table == NULL) table = g_hash_table_new(g_str_hash, g_str_equal);
    budget = bytes;
    g_atomic_int_set(&enabled, bytes > 0);
    evict_to(budget);
    g_mutex_unlock(&lock);
}

void cvips_decoded_tiles_flush(void) {
    g_mutex_lock(&lock);
    if (table != NULL) evict_to(0);
    g_mutex_unlock(&lock);
}

size_t cvips_decoded_tiles_bytes(void) {
    g_mutex_lock(&lock);
    size_t bytes = used;
    g_mutex_unlock(&lock);
    return bytes;
}

int decoded_tiles_enabled(void) {
    return g_atomic_int_get(&enabled);
}

static int same_file(const DecodedTile *tile, const struct stat *file) {
    return tile->device == file->st_dev && tile->inode == file->st_ino && tile->size == file->st_size
        && tile->changed == (gint64) file->st_ctim.tv_sec * 1000000000 + file->st_ctim.tv_nsec;
}

DecodedTile *decoded_tile_find(const char *path, const struct stat *file) {
    g_mutex_lock(&lock);
    DecodedTile *tile = table ? g_hash_table_lookup(table, path) : NULL;
    if (tile != NULL && !same_file(tile, file)) {
        /* Written anew since: the old pixels go. */
        drop(tile);
        tile = NULL;
    }
    if (tile != NULL) {
        unlink_tile(tile);
        link_newest(tile);
        g_atomic_int_inc(&tile->references);
    }
    g_mutex_unlock(&lock);
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

void decoded_tile_keep(DecodedTile *tile) {
    g_mutex_lock(&lock);
    if (table != NULL && tile->bytes <= budget && g_hash_table_lookup(table, tile->path) == NULL) {
        g_atomic_int_inc(&tile->references);
        g_hash_table_insert(table, tile->path, tile);
        link_newest(tile);
        used += tile->bytes;
        evict_to(budget);
    }
    g_mutex_unlock(&lock);
}

const VipsPel *decoded_tile_pixels(const DecodedTile *tile, int *width, int *height) {
    *width = tile->width;
    *height = tile->height;
    return tile->pixels;
}
