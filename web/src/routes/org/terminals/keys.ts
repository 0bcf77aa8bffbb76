import type { Terminal } from '@xterm/xterm';

const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'Meta']);

/** The shortcuts a terminal leaves to the page, said once where the terminal is shown. */
export const KEYS_HINT =
  'Escape then Tab leaves the terminal (Shift+Tab goes back). Ctrl+Shift+C copies the selection, Ctrl+Shift+V pastes; so does the right-click menu.';

/**
 * Puts text on the clipboard; without the clipboard API (a page not served
 * over HTTPS), the browser's copy command, whose event xterm answers with
 * its selection.
 */
function copy(text: string): void {
  const fallback = () => document.execCommand('copy');
  if (!window.isSecureContext) {
    fallback();
    return;
  }
  navigator.clipboard.writeText(text).catch(fallback);
}

/**
 * The terminal's key handler (xterm's custom key event handler: false means
 * xterm leaves the key alone, to the browser). A terminal needs Tab and
 * Ctrl+C for itself, so:
 * - Escape then Tab (or Shift+Tab) moves the focus out, as the browser does
 *   elsewhere; Escape still reaches the program, Tab does not.
 * - Ctrl+Shift+C copies the selection (Ctrl+C interrupts the program).
 * - Ctrl+Shift+V is left to the browser, whose paste event xterm reads
 *   (Ctrl+V sends its control character, as in a terminal).
 */
export function terminalKeys(term: Terminal): (event: KeyboardEvent) => boolean {
  let afterEscape = false;
  return (event) => {
    if (event.type !== 'keydown' || MODIFIERS.has(event.key)) return true;
    const escaped = afterEscape;
    afterEscape = event.key === 'Escape';
    if (event.key === 'Tab' && escaped && !event.ctrlKey && !event.altKey) return false;
    const shortcut = event.ctrlKey && event.shiftKey && !event.altKey && !event.metaKey;
    if (shortcut && event.code === 'KeyC') {
      // Not the browser's inspector either.
      event.preventDefault();
      if (term.hasSelection()) copy(term.getSelection());
      return false;
    }
    if (shortcut && event.code === 'KeyV') return false;
    return true;
  };
}
