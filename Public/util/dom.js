// @ts-check
// The page's own markup (index.html) always has the elements its views are built on: finding one
// missing is a mistake in the page, said at once with the selector, never a null met later.

/**
 * The element matching `selector` under `root`, of the type given.
 * @template {Element} E
 * @param {ParentNode} root
 * @param {string} selector
 * @param {{ new (): E, prototype: E }} type HTMLElement, HTMLButtonElement …
 * @returns {E}
 */
export function element(root, selector, type) {
  const found = root.querySelector(selector);
  if (!(found instanceof type)) throw new Error(`The page has no ${type.name} at ${selector}.`);
  return found;
}

/**
 * The element with id `id`, of the type given.
 * @template {Element} E
 * @param {string} id
 * @param {{ new (): E, prototype: E }} type
 * @returns {E}
 */
export function byId(id, type) {
  return element(document, `#${id}`, type);
}
