import type { Terminal } from '@xterm/xterm';

/**
 * Opens xterm in `element` with the page's Content-Security-Policy nonce on
 * the `<style>` elements it creates while opening (its renderer's colours
 * and sizes, its scroll bar): the policy lets a style element in only by
 * the nonce, and xterm has no option for one. `document.createElement` is
 * wrapped on the document itself for that one synchronous call only.
 */
export function openWithNonce(term: Terminal, element: HTMLElement, nonce: string | undefined) {
  if (nonce === undefined) {
    term.open(element);
    return;
  }
  const document = element.ownerDocument;
  const create = Document.prototype.createElement;
  Object.defineProperty(document, 'createElement', {
    configurable: true,
    value: (tagName: string, options?: ElementCreationOptions): HTMLElement => {
      const created = create.call(document, tagName, options);
      if (created instanceof HTMLStyleElement) created.nonce = nonce;
      return created;
    },
  });
  try {
    term.open(element);
  } finally {
    Reflect.deleteProperty(document, 'createElement');
  }
}
