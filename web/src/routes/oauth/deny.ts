/**
 * Where Deny sends the browser (RFC 6749, 4.1.2.1): back to the app's
 * redirect URI, which the server has checked is one the app registered,
 * with `error=access_denied` and the app's `state`.
 */
export function denialUrl(redirectUri: string, state: string | undefined): string {
  const url = new URL(redirectUri);
  url.searchParams.set('error', 'access_denied');
  if (state !== undefined) url.searchParams.set('state', state);
  return url.toString();
}
