/** The OAuth 2 authorize request's parameters the consent page reads (RFC 6749, RFC 7636). */
export interface ConsentSearch {
  client_id?: string;
  redirect_uri?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  response_type?: string;
}

const KEYS = [
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'response_type',
] as const;

/** Keeps the string parameters of the request; anything else is dropped. */
export function consentSearch(search: Record<string, unknown>): ConsentSearch {
  const kept: ConsentSearch = {};
  for (const key of KEYS) {
    const value = search[key];
    // The router parses values that look like JSON (a numeric state); OAuth's are strings.
    if (typeof value === 'string') kept[key] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') kept[key] = String(value);
  }
  return kept;
}
