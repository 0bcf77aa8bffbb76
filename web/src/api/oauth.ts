import { queryOptions, useMutation } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import type { components } from './schema.js';

export interface ConsentRequest {
  client_id: string;
  redirect_uri: string;
  scope?: string;
}

/** What the consent screen shows: the app, its scopes in words, the workspaces it may go to. */
export const consentQuery = (request: ConsentRequest) =>
  queryOptions({
    queryKey: ['oauth-consent', request.client_id, request.redirect_uri, request.scope ?? ''],
    queryFn: () => unwrap(api.GET('/oauth/authorize', { params: { query: request } })),
    retry: false,
  });

export function useGrantConsent() {
  return useMutation({
    mutationFn: (body: components['schemas']['Consent']) =>
      unwrap(api.POST('/oauth/authorize', { body })),
  });
}
