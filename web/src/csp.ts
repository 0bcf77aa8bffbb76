/** The nonce of this page's Content-Security-Policy, for a library that injects a `<style>` element. */
export function cspNonce(): string | undefined {
  return document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce || undefined;
}
