// @ts-check
// Tile pyramid geometry, the same arithmetic as the server's TilePyramid (see the README).
// Level z is the photo scaled by 2^(z − maxZoom); tiles are T px from the top left, edge tiles smaller.

/** @typedef {import('../core/api.js').Photo} Photo */
/** @typedef {Pick<Photo, 'width' | 'height' | 'maxZoom' | 'tileSize'>} Pyramid what the geometry needs of a photo */
/** @typedef {{ x0: number, y0: number, x1: number, y1: number }} PhotoRect a rectangle in photo (native) pixels */
/** @typedef {{ z: number, x: number, y: number }} TileCoordinate */

/**
 * Pixel size of level `z` of `photo`.
 * @param {Pyramid} photo
 * @param {number} z
 */
export function levelSize(photo, z) {
  const s = Math.pow(2, z - photo.maxZoom);
  return { width: Math.ceil(photo.width * s), height: Math.ceil(photo.height * s) };
}

/**
 * Number of tile columns and rows at level `z`.
 * @param {Pyramid} photo
 * @param {number} z
 */
export function tileGrid(photo, z) {
  const { width, height } = levelSize(photo, z);
  return { columns: Math.ceil(width / photo.tileSize), rows: Math.ceil(height / photo.tileSize) };
}

/**
 * The level to draw when one photo pixel is shown as `devicePixelsPerPhotoPixel` device pixels:
 * the smallest level whose resolution is at least what the screen can show.
 * @param {Pyramid} photo
 * @param {number} devicePixelsPerPhotoPixel
 */
export function levelFor(photo, devicePixelsPerPhotoPixel) {
  // A small tolerance keeps exact powers of two (fit at 1:2, 1:4 …) from rounding one level up.
  const z = Math.ceil(photo.maxZoom + Math.log2(devicePixelsPerPhotoPixel) - 1e-6);
  return Math.max(0, Math.min(photo.maxZoom, z));
}

/**
 * The rectangle of photo pixels covered by tile (z, x, y), in photo (native) coordinates.
 * Uses the level's real size so that edge tiles end exactly on the photo's edge.
 * @param {Pyramid} photo
 * @param {number} z
 * @param {number} x
 * @param {number} y
 * @returns {PhotoRect}
 */
export function tileRectInPhoto(photo, z, x, y) {
  const { width, height } = levelSize(photo, z);
  const T = photo.tileSize;
  const fx = photo.width / width, fy = photo.height / height;
  return {
    x0: x * T * fx, y0: y * T * fy,
    x1: Math.min((x + 1) * T, width) * fx, y1: Math.min((y + 1) * T, height) * fy,
  };
}

/**
 * Tiles of level `z` that intersect the photo-space rectangle [x0, x1) × [y0, y1).
 * Returns inclusive column and row ranges, or null when nothing is visible.
 * @param {Pyramid} photo
 * @param {number} z
 * @param {number} x0
 * @param {number} y0
 * @param {number} x1
 * @param {number} y1
 * @returns {{ c0: number, r0: number, c1: number, r1: number } | null}
 */
export function tilesCovering(photo, z, x0, y0, x1, y1) {
  const { width, height } = levelSize(photo, z);
  const { columns, rows } = tileGrid(photo, z);
  const T = photo.tileSize;
  const sx = width / photo.width, sy = height / photo.height;
  const c0 = Math.max(0, Math.floor((x0 * sx) / T));
  const r0 = Math.max(0, Math.floor((y0 * sy) / T));
  // A rectangle that ends exactly on a tile edge does not reach into the next tile.
  const c1 = Math.min(columns - 1, Math.ceil((x1 * sx) / T) - 1);
  const r1 = Math.min(rows - 1, Math.ceil((y1 * sy) / T) - 1);
  if (c1 < c0 || r1 < r0) return null;
  return { c0, r0, c1, r1 };
}

/**
 * The URL of one tile, from the photo's URL template.
 * @param {Pick<Photo, 'tiles'>} photo
 * @param {number} z
 * @param {number} x
 * @param {number} y
 */
export function tileURL(photo, z, x, y) {
  return photo.tiles.replace('{z}', String(z)).replace('{x}', String(x)).replace('{y}', String(y));
}

/**
 * The URL of the whole photo fitted in a box of `width` × `height` pixels (IIIF's `full/!w,h/`),
 * under the photo's version, so it is as immutable as its tiles, and under a share link's prefix
 * when the photo came through one (its `iiif` URL carries it). The box is cut to the photo's own
 * size: the server never enlarges a `!w,h` that was not asked to.
 * @param {Pick<Photo, 'iiif' | 'version' | 'width' | 'height'>} photo
 * @param {number} width
 * @param {number} height
 */
export function fittedImageURL(photo, width, height) {
  const w = Math.max(1, Math.min(photo.width, Math.ceil(width - 1e-6)));
  const h = Math.max(1, Math.min(photo.height, Math.ceil(height - 1e-6)));
  const base = photo.iiif.replace(/info\.json$/, '');
  return `${base}full/!${w},${h}/0/default.jpg?v=${encodeURIComponent(photo.version)}`;
}

/** The side of the square thumbnail the server makes (its `thumbnailSize`, 256 unless set). */
const THUMBNAIL_SIDE = 256;

/**
 * Sides a grid cell's image is asked for at when the thumbnail is too small: a few steps, so a
 * window resized or a density changed asks for an image the server (and the browser's cache)
 * already has rather than one a few pixels wider.
 */
const CELL_SIDES = [512, 768, 1024, 1536, 2048, 3072];

/**
 * How far a thumbnail is stretched before a cell asks for a larger image: the grids' default
 * cells (four columns on a phone at 3×, 288 device px; seven on a 1440-px window at 2×, about
 * 395) keep their thumbnails, made once at ingest, since every cell in view asking the server
 * to cut an image would cost it more than the softness costs them; a column or two would
 * stretch one three to eleven times.
 */
const THUMBNAIL_STRETCH = 1.6;

/**
 * The image a square grid cell `side` device pixels wide draws its photo with: the thumbnail
 * while it is sharp enough (THUMBNAIL_STRETCH), else the photo's centre square cut by the server
 * at the first of CELL_SIDES at or over `side` (IIIF's `square/n,/`, immutable under the photo's
 * version), never more than the photo's own shorter side.
 * @param {Pick<Photo, 'iiif' | 'version' | 'width' | 'height' | 'thumbnail'>} photo
 * @param {number} side
 */
export function cellImageURL(photo, side) {
  const most = Math.min(photo.width, photo.height);
  if (side <= THUMBNAIL_SIDE * THUMBNAIL_STRETCH || !(most > THUMBNAIL_SIDE * THUMBNAIL_STRETCH)) return photo.thumbnail;
  const n = Math.min(most, CELL_SIDES.find((s) => s >= side) ?? CELL_SIDES[CELL_SIDES.length - 1]);
  const base = photo.iiif.replace(/info\.json$/, '');
  return `${base}square/${n},/0/default.jpg?v=${encodeURIComponent(photo.version)}`;
}
