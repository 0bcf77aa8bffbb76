/** What the built `index.html` carries where each answer puts its own nonce (Vite's `html.cspNonce`). */
export const NONCE_PLACEHOLDER = 'SPARROW_CSP_NONCE';

/**
 * The Content-Security-Policy of the web app: everything from this origin
 * only, no inline or evaluated script, no plugins, never framed, forms and
 * `<base>` to this origin only. Images may also be `data:` and `blob:`
 * (previews of files being uploaded). A `<style>` element runs only with
 * the answer's nonce (the dialogs' scroll lock and the card editor inject
 * one; the app hands them the nonce); `style` attributes are allowed, as
 * they cannot run script. A refused style element's first characters are
 * reported ('report-sample'), which names the library that injected it.
 */
export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}' 'report-sample'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Headers of every answer under `/app/` but its policy (which carries the answer's nonce). */
export const WEB_APP_HEADERS: Readonly<Record<string, string>> = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

/** Vite names the files under `assets/` by a hash of their content: they never change. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The page that names the current assets: always asked again (a 304 when unchanged). */
export const REVALIDATE = 'no-cache';
