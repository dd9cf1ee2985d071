// One page of the pager: the photo fitted to the width (a button that opens the zoom view),
// the prompt, and the live comment thread.

import { FittedPhoto } from './fitted-photo.js';
import { CommentThread } from './comment-thread.js';

/** The page of one photo; drawn only when it is near the one in front. */
export class PhotoPage {
  constructor(photo, { onOpenZoom }) {
    this.photo = photo;
    this.onOpenZoom = onOpenZoom;
    this.element = document.createElement('section');
    this.element.className = 'page';
    this.element.dataset.photoId = photo.id;
    this.element.setAttribute('aria-label', photo.title);
    this.fitted = null;
    this.thread = null;
  }

  render() {
    if (this.fitted || this.thread) return;
    const photo = this.photo;
    const inner = document.createElement('div');
    inner.className = 'page-inner';

    const frame = document.createElement('div');
    frame.className = 'photo-frame';
    if (photo.status === 'failed') {
      const failure = document.createElement('p');
      failure.className = 'photo-error';
      failure.textContent = `This photo could not be shown: ${photo.error || 'it could not be read.'}`;
      frame.appendChild(failure);
    } else {
      const open = document.createElement('button');
      open.type = 'button';
      open.className = 'photo-open';
      open.setAttribute('aria-label', `${photo.title}: open zoom view`);
      open.addEventListener('click', () => this.onOpenZoom());
      frame.appendChild(open);
      this.fitted = new FittedPhoto(open, photo);
    }

    const caption = document.createElement('div');
    caption.className = 'photo-caption';
    const title = document.createElement('h2');
    title.textContent = photo.title;
    const meta = document.createElement('p');
    meta.className = 'photo-meta';
    const megapixels = (photo.width * photo.height) / 1e6;
    meta.textContent = `${photo.width} × ${photo.height} · ${megapixels >= 1 ? megapixels.toFixed(1) + ' MP' : 'small'}` +
      (photo.status === 'processing' ? ' · processing' : '');
    caption.append(title, meta);

    const prompt = document.createElement('h3');
    prompt.className = 'prompt';
    prompt.textContent = 'What name fits me best?';

    const list = document.createElement('ol');
    list.className = 'comments';
    list.setAttribute('aria-label', `Comments on ${photo.title}`);
    list.setAttribute('aria-live', 'polite');
    list.setAttribute('aria-busy', 'true');
    const empty = document.createElement('p');
    empty.className = 'comments-empty';
    empty.textContent = 'No names yet. Be the first.';
    this.thread = new CommentThread(list, photo.id, (count) => { empty.hidden = count > 0; });
    this.thread.load();

    inner.append(frame, caption, prompt, list, empty);
    this.element.replaceChildren(inner);
  }

  unrender() {
    this.fitted?.destroy();
    this.thread?.stop();
    this.fitted = null;
    this.thread = null;
    this.element.replaceChildren();
  }

  /** Only the page in front keeps a live connection. */
  setCurrent(current) {
    this.element.classList.toggle('current', current);
    if (!this.thread) return;
    if (current) this.thread.listen();
    else this.thread.stop();
  }

  destroy() { this.unrender(); }
}
