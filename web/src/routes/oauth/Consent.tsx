import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { consentQuery } from '../../api/oauth.js';
import { Card } from '../../components/Card.js';
import { FormAlert } from '../../components/FormAlert.js';
import { ConsentForm } from './ConsentForm.js';

const route = getRouteApi('/signed-in/oauth/authorize');

/**
 * The consent page of a third-party app, opened with the OAuth authorize
 * request's query (GET /oauth/authorize sends browsers here). Until the
 * server has checked the client and its redirect URI, nothing redirects:
 * a refusal is shown here, never sent to an unchecked address.
 */
export function Consent() {
  const search = route.useSearch();
  const clientId = search.client_id;
  const redirectUri = search.redirect_uri;
  const ready = clientId !== undefined && redirectUri !== undefined;
  const preview = useQuery({
    ...consentQuery({
      client_id: clientId ?? '',
      redirect_uri: redirectUri ?? '',
      ...(search.scope === undefined ? {} : { scope: search.scope }),
    }),
    enabled: ready,
  });

  if (!ready) {
    return (
      <Card title="Authorize an app">
        <FormAlert message="This authorization request names no app (client_id) or no return address (redirect_uri)." />
      </Card>
    );
  }
  if (preview.isError) {
    return (
      <Card title="Authorize an app">
        <FormAlert message={`This authorization request was refused: ${preview.error.message}`} />
      </Card>
    );
  }
  if (preview.data === undefined) {
    return (
      <Card title="Authorize an app">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Loading…</p>
      </Card>
    );
  }
  const app = preview.data.app;
  const challenge = search.code_challenge;
  const pkce = challenge !== undefined && (search.code_challenge_method ?? 'S256') === 'S256';
  return (
    <Card title={`Authorize ${app.name}`}>
      <p className="mb-4 text-sm">
        <strong>{app.name}</strong> asks to be installed in one of your workspaces.
        {app.description ? ` ${app.description}` : ''}
      </p>
      {pkce ? (
        <ConsentForm preview={preview.data} state={search.state} codeChallenge={challenge} />
      ) : (
        <FormAlert message="The app’s request has no S256 PKCE challenge (code_challenge), which this server requires. Tell the app’s maker." />
      )}
    </Card>
  );
}
