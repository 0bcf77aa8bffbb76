/** The nonce of this page's Content-Security-Policy (the server puts it in `index.html`). */
export function cspNonce(): string | undefined {
  return document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce || undefined;
}

/**
 * Gives every `<style>` element the app's own code creates the page's nonce,
 * whichever library creates it and whenever: the dialogs' scroll lock, the
 * card editor, the terminal's renderer (which adds one when it first
 * measures its cells, possibly long after it opened). The policy still
 * refuses a `<style>` that arrives as markup (the HTML parser does not go
 * through `createElement`), which is what the nonce is for; a script that
 * runs here could read the nonce anyway.
 */
export function nonceEveryStyleElement(nonce: string): void {
  const create = Document.prototype.createElement;
  Object.defineProperty(Document.prototype, 'createElement', {
    configurable: true,
    writable: true,
    value(this: Document, tagName: string, options?: ElementCreationOptions): HTMLElement {
      const element = create.call(this, tagName, options);
      if (element instanceof HTMLStyleElement) element.nonce = nonce;
      return element;
    },
  });
}
