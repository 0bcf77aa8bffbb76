/**
 * The refusals of a sign-in with the identity provider, in words: the
 * server sends the browser back with `idpError=<code>` (GET /auth/idp/callback).
 */
const MESSAGES: Record<string, string> = {
  idp_refused: 'The identity provider did not sign you in. Try again, or sign in with a password.',
  invalid_state:
    'This sign-in with the identity provider was not started in this browser, was used already or has expired. Start again.',
  registration_closed:
    'There is no account for this identity, and new accounts here are by invitation only. Ask a workspace owner for an invitation.',
  identity_clash:
    'An account with this e-mail address already exists. Sign in with its password, then link the identity provider from the account.',
  invalid_id_token:
    'The identity provider’s answer could not be accepted (an unverified e-mail address, or an expired sign-in). Try again.',
  invitation_invalid: 'The invitation is invalid, expired or for another address.',
  idp_unavailable: 'The identity provider cannot be reached now. Try again later.',
  idp_disabled: 'Signing in with an identity provider is not configured here.',
};

export function providerErrorMessage(code: string): string {
  return MESSAGES[code] ?? `Signing in with the identity provider failed (${code}). Try again.`;
}
