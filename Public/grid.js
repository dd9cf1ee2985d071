// The grid: square thumbnails that are real links to each photo's page, with the photo's state
// (processing, failed and why) shown on the cell instead of being hidden.

/** Fills `list` (a <ul>) with one cell per photo. */
export function renderGrid(list, photos) {
  list.replaceChildren(...photos.map(cell));
}

function cell(photo) {
  const item = document.createElement('li');
  const link = document.createElement('a');
  link.className = 'cell';
  link.href = `#/photos/${photo.id}`;
  link.dataset.photoId = photo.id;
  const img = document.createElement('img');
  img.loading = 'lazy';
  img.decoding = 'async';
  img.alt = photo.title;
  img.width = 256;
  img.height = 256;
  img.src = photo.thumbnail;
  img.addEventListener('error', () => link.classList.add('broken'));
  const title = document.createElement('span');
  title.className = 'cell-title';
  title.textContent = photo.title;
  link.append(img, title);
  if (photo.status && photo.status !== 'ready') {
    const badge = document.createElement('span');
    badge.className = `badge badge-${photo.status}`;
    badge.textContent = photo.status === 'failed' ? 'Failed' : 'Processing…';
    if (photo.error) {
      badge.title = photo.error;
      const why = document.createElement('span');
      why.className = 'cell-error';
      why.textContent = photo.error;
      link.append(why);
    }
    link.append(badge);
    link.setAttribute('aria-label', `${photo.title} (${photo.status}${photo.error ? ': ' + photo.error : ''})`);
  }
  item.appendChild(link);
  return item;
}
