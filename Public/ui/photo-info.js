// @ts-check
// What a photo's record says about it, in words: the date as the camera's clock read it, the
// camera and its exposure ("iPhone 15 Pro · 24 mm · ƒ1.8 · 1/120 s · ISO 80"), size and file,
// and the card of the info panel that shows them under the photo.

/** @typedef {import('../core/api.js').Photo} Photo */
/** @typedef {import('../core/api.js').PhotoDetails} PhotoDetails */

/**
 * The clock reading of an RFC 3339 date as the server gives it ("2024-03-05T14:22:01+01:00",
 * or without an offset when the camera knew none): a Date whose UTC fields are that reading, so
 * it formats as the time where the photo was taken, wherever it is looked at. null if unreadable.
 * @param {string | undefined} taken
 */
export function clockReading(taken) {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})?$/.exec(taken || '');
  if (!m) return null;
  const ms = m[7] ? Number((m[7] + '00').slice(0, 3)) : 0;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]), ms));
  return { date, offset: m[8] ?? null };
}

const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const shortDayFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
const monthFormat = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * "March 2024": the month header a photo taken then sits under.
 * @param {string | undefined} taken
 */
export function monthTitle(taken) {
  const reading = clockReading(taken);
  return reading ? monthFormat.format(reading.date) : '';
}

/**
 * `{ day: "Tuesday, 5 March 2024", time: "14:22", zone: "UTC+1" }`, or null.
 * @param {string | undefined} taken
 */
export function dateParts(taken) {
  const reading = clockReading(taken);
  if (!reading) return null;
  let zone = '';
  if (reading.offset === 'Z') zone = 'UTC';
  else if (reading.offset) {
    const [hours, minutes] = reading.offset.slice(1).split(':').map(Number);
    zone = `UTC${reading.offset[0] === '-' ? '−' : '+'}${hours}${minutes ? ':' + String(minutes).padStart(2, '0') : ''}`;
  }
  return { day: dayFormat.format(reading.date), shortDay: shortDayFormat.format(reading.date), time: timeFormat.format(reading.date), zone };
}

/**
 * "iPhone 15 Pro", "Canon EOS R5", "SONY ILCE-7M3": the model, with the maker unless it says it already.
 * @param {PhotoDetails | undefined} details
 */
export function cameraName(details) {
  const make = details?.make?.trim();
  const model = details?.model?.trim();
  if (!model) return make || '';
  if (!make) return model;
  const brand = make.split(/\s+/)[0].toLowerCase();
  if (brand === 'apple' || model.toLowerCase().startsWith(brand)) return model;
  return `${make} ${model}`;
}

/**
 * 1/120 s for short exposures, 2 s or 1.5 s for long ones.
 * @param {number | undefined} seconds
 */
export function exposureText(seconds) {
  if (!seconds || !(seconds > 0)) return '';
  if (seconds >= 1) return `${Math.round(seconds * 10) / 10} s`;
  return `1/${Math.round(1 / seconds)} s`;
}

/**
 * ƒ1.8, ƒ8
 * @param {number | undefined} fNumber
 */
export function apertureText(fNumber) {
  if (!fNumber || !(fNumber > 0)) return '';
  return `ƒ${Number(fNumber.toFixed(1))}`;
}

/**
 * The 35 mm equivalent where the camera gives it (what a photographer compares), else the real length.
 * @param {PhotoDetails | undefined} details
 */
export function focalText(details) {
  const mm = details?.focalLength35mm || (details?.focalLength ? Math.round(details.focalLength) : 0);
  return mm > 0 ? `${mm} mm` : '';
}

/**
 * "iPhone 15 Pro · 24 mm · ƒ1.8 · 1/120 s · ISO 80", with only the parts the file gives.
 * @param {PhotoDetails | undefined} details
 */
export function exposureLine(details) {
  if (!details) return '';
  return [cameraName(details), focalText(details), apertureText(details.aperture), exposureText(details.exposureTime),
    details.iso ? `ISO ${details.iso}` : '', details.flash ? 'Flash' : ''].filter(Boolean).join(' · ');
}

/**
 * 2.3 MB, 840 KB
 * @param {number | undefined} bytes
 */
export function bytesText(bytes) {
  if (!bytes || !(bytes > 0)) return '';
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1e3))} KB`;
}

/** @type {Record<string, string>} */
const typeNames = { 'image/jpeg': 'JPEG', 'image/png': 'PNG', 'image/webp': 'WebP', 'image/tiff': 'TIFF', 'image/gif': 'GIF',
  'image/heic': 'HEIC', 'image/heif': 'HEIF', 'image/avif': 'AVIF', 'image/jxl': 'JPEG XL' };

/**
 * "4032 × 3024 · 12.2 MP · 2.3 MB · JPEG"
 * @param {Photo} photo
 */
export function sizeLine(photo) {
  /** @type {PhotoDetails} */
  const d = photo.details || {};
  const width = d.width || photo.width, height = d.height || photo.height;
  const megapixels = (width * height) / 1e6;
  return [width && height ? `${width} × ${height}` : '', megapixels >= 0.1 ? `${megapixels.toFixed(1)} MP` : '',
    bytesText(d.fileSize), (d.mediaType && typeNames[d.mediaType]) || ''].filter(Boolean).join(' · ');
}

/**
 * "48.8584° N, 2.2945° E"
 * @param {{ latitude: number, longitude: number }} location
 */
export function placeText(location) {
  const lat = Math.abs(location.latitude).toFixed(4), lon = Math.abs(location.longitude).toFixed(4);
  return `${lat}° ${location.latitude < 0 ? 'S' : 'N'}, ${lon}° ${location.longitude < 0 ? 'W' : 'E'}`;
}

/**
 * "1,600" megapixels from a number of pixels.
 * @param {number} pixels
 */
function megapixelsText(pixels) {
  const mp = pixels / 1e6;
  return mp >= 10 ? Math.round(mp).toLocaleString() : String(Number(mp.toFixed(1)));
}

/**
 * Why a failed photo cannot be shown, in words a person reads: the server's reason, with a limit
 * it names in pixels said in megapixels ("…40000×40000 = 1600000000 pixels, more than the limit
 * of 500000000" becomes "It is 40,000 × 40,000 pixels (1,600 megapixels); this server shows
 * photos of up to 500 megapixels.").
 * @param {Photo} photo
 */
export function failureText(photo) {
  const error = (photo.error || '').trim();
  const large = /(\d+)\s*[×x]\s*(\d+)\s*=\s*(\d+) pixels, more than the limit of (\d+)/.exec(error);
  if (large) {
    const [w, h, n, limit] = large.slice(1).map(Number);
    return `This photo is too large to show. It is ${w.toLocaleString()} × ${h.toLocaleString()} pixels ` +
      `(${megapixelsText(n)} megapixels); this server shows photos of up to ${megapixelsText(limit)} megapixels.`;
  }
  if (!error) return 'This photo could not be shown: the file could not be read.';
  return `This photo could not be shown. ${error}`;
}

/**
 * The same in a few words, for a grid cell: "Too large: 1,600 MP, the limit is 500 MP", or the server's reason.
 * @param {Photo} photo
 */
export function shortFailure(photo) {
  const error = (photo.error || '').trim();
  const large = /=\s*(\d+) pixels, more than the limit of (\d+)/.exec(error);
  if (large) return `Too large: ${megapixelsText(Number(large[1]))} MP, the limit is ${megapixelsText(Number(large[2]))} MP`;
  return error || 'The file could not be read.';
}

/**
 * @param {string} className
 * @param {string} text
 */
function line(className, text) {
  const p = document.createElement('p');
  p.className = className;
  p.textContent = text;
  return p;
}

/**
 * The info panel's card for one photo: shown under the photo when the panel is open.
 * @param {Photo} photo
 */
export function infoCard(photo) {
  /** @type {PhotoDetails} */
  const details = photo.details || {};
  const card = document.createElement('section');
  card.className = 'photo-info';
  card.setAttribute('aria-label', `Info about ${photo.title}`);

  const when = dateParts(photo.taken);
  if (when) {
    const date = document.createElement('p');
    date.className = 'info-date';
    const day = document.createElement('strong');
    day.textContent = when.day;
    const time = document.createElement('span');
    time.textContent = [when.time, when.zone].filter(Boolean).join(' ');
    date.append(day, ' ', time);
    card.appendChild(date);
    if (details.takenFrom === 'file') card.appendChild(line('info-note', 'The file does not say when it was taken: this is when it was last changed.'));
  }

  const box = document.createElement('div');
  box.className = 'info-box';
  if (photo.status === 'failed') box.appendChild(line('info-failure', failureText(photo)));
  const exposure = exposureLine(details);
  if (exposure) box.appendChild(line('info-exposure', exposure));
  if (details.lens) box.appendChild(line('info-lens', details.lens));
  const size = sizeLine(photo);
  if (size) box.appendChild(line('info-size', size));
  // A box with nothing to say is not drawn.
  if (box.childElementCount) card.appendChild(box);

  const file = line('info-file', details.fileName || photo.title);
  if (details.album) file.textContent += ` · in ${details.album}`;
  card.appendChild(file);

  if (details.location) {
    const place = document.createElement('p');
    place.className = 'info-place';
    const link = document.createElement('a');
    const { latitude: lat, longitude: lon } = details.location;
    link.href = `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=15/${lat}/${lon}`;
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
    link.textContent = placeText(details.location);
    place.appendChild(link);
    card.appendChild(place);
  }
  return card;
}
