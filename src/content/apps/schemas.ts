import Type, { type Static } from 'typebox';
import { Strict, Timestamp, Uuid } from '../../http/schemas.js';
import { RoleSchema } from '../access/roles.js';
import { AppScopeSchema } from './scopes.js';

const RedirectUris = Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), {
  minItems: 1,
  maxItems: 10,
  uniqueItems: true,
  description:
    'Absolute http or https URLs without fragment. The consent step must name one exactly (no prefix or ' +
    'wildcard matching).',
});
const Scopes = Type.Array(AppScopeSchema, { minItems: 1, maxItems: 10, uniqueItems: true });

export const OAuthApp = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    clientId: Type.String({ description: 'Public; used at consent and token exchange.' }),
    redirectUris: Type.Array(Type.String()),
    scopes: Type.Array(Type.String(), { description: 'The scopes the app asks for.' }),
    ownerId: Uuid,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'OAuthApp' },
);
export type OAuthApp = Static<typeof OAuthApp>;

export const OAuthAppWithSecret = Type.Object(
  {
    ...OAuthApp.properties,
    clientSecret: Type.String({ description: 'Shown once, here. Stored only as SHA-256.' }),
  },
  { title: 'OAuthAppWithSecret' },
);
export type OAuthAppWithSecret = Static<typeof OAuthAppWithSecret>;

export const CreateOAuthApp = Strict(
  {
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
    redirectUris: RedirectUris,
    scopes: Scopes,
  },
  { title: 'CreateOAuthApp' },
);
export type CreateOAuthApp = Static<typeof CreateOAuthApp>;

export const UpdateOAuthApp = Strict(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' })),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
    redirectUris: Type.Optional(RedirectUris),
    scopes: Type.Optional(Scopes),
  },
  {
    title: 'UpdateOAuthApp',
    description:
      'Narrowing `scopes` narrows existing installations too (a token never exceeds the app’s scopes).',
  },
);
export type UpdateOAuthApp = Static<typeof UpdateOAuthApp>;

export const ScopeDescription = Type.Object(
  { scope: AppScopeSchema, label: Type.String() },
  { title: 'AppScope' },
);

export const ConsentQuery = Strict({
  client_id: Type.String({ minLength: 1, maxLength: 100 }),
  redirect_uri: Type.String({ minLength: 1, maxLength: 2000 }),
  scope: Type.Optional(
    Type.String({
      maxLength: 1000,
      description: 'Space-separated; default: every scope the app asks for.',
    }),
  ),
});
export type ConsentQuery = Static<typeof ConsentQuery>;

export const ConsentPreview = Type.Object(
  {
    app: Type.Object({
      name: Type.String(),
      description: Type.Union([Type.String(), Type.Null()]),
      clientId: Type.String(),
    }),
    redirectUri: Type.String(),
    scopes: Type.Array(ScopeDescription),
    workspaces: Type.Array(Type.Object({ id: Uuid, name: Type.String(), role: RoleSchema }), {
      description: 'The workspaces where the caller may install apps (admin or above).',
    }),
  },
  { title: 'ConsentPreview' },
);
export type ConsentPreview = Static<typeof ConsentPreview>;

export const Consent = Strict(
  {
    clientId: Type.String({ minLength: 1, maxLength: 100 }),
    redirectUri: Type.String({ minLength: 1, maxLength: 2000 }),
    workspaceId: Uuid,
    scopes: Scopes,
    role: Type.Optional(RoleSchema),
    state: Type.Optional(Type.String({ maxLength: 500 })),
    codeChallenge: Type.String({
      pattern: '^[A-Za-z0-9_-]{43}$',
      description: 'BASE64URL(SHA-256(code_verifier)), without padding (RFC 7636).',
    }),
    codeChallengeMethod: Type.Literal('S256'),
  },
  {
    title: 'Consent',
    description:
      '`scopes` must be among the app’s; `role` (default `member`) at most the caller’s. Only S256 PKCE is accepted.',
  },
);
export type Consent = Static<typeof Consent>;

export const ConsentResult = Type.Object(
  {
    code: Type.String({ description: 'Single use, valid 10 minutes.' }),
    state: Type.Union([Type.String(), Type.Null()]),
    expiresAt: Timestamp,
    redirectTo: Type.String({
      description: 'The redirect URI with `code` and `state` added: where to send the browser.',
    }),
  },
  { title: 'ConsentResult' },
);
export type ConsentResult = Static<typeof ConsentResult>;

const Verifier = Type.String({
  pattern: '^[A-Za-z0-9._~-]{43,128}$',
  description: 'The PKCE code verifier (RFC 7636: 43 to 128 unreserved characters).',
});

export const TokenRequestJson = Strict(
  {
    grantType: Type.Optional(Type.Literal('authorization_code')),
    code: Type.String({ minLength: 1, maxLength: 200 }),
    clientId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    clientSecret: Type.String({ minLength: 1, maxLength: 200 }),
    redirectUri: Type.String({ minLength: 1, maxLength: 2000 }),
    codeVerifier: Verifier,
  },
  { title: 'OAuthTokenRequest' },
);

export const TokenRequestForm = Strict(
  {
    grant_type: Type.Literal('authorization_code'),
    code: Type.String({ minLength: 1, maxLength: 200 }),
    client_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    client_secret: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    redirect_uri: Type.String({ minLength: 1, maxLength: 2000 }),
    code_verifier: Verifier,
  },
  {
    title: 'OAuthTokenRequestForm',
    description:
      'RFC 6749 form (`application/x-www-form-urlencoded`); the client secret in the body or as HTTP Basic.',
  },
);

export const TokenRequest = Type.Union([TokenRequestJson, TokenRequestForm]);
export type TokenRequest = Static<typeof TokenRequest>;

export const AppInstallation = Type.Object(
  {
    id: Uuid,
    appId: Uuid,
    appName: Type.String(),
    workspaceId: Uuid,
    role: RoleSchema,
    scopes: Type.Array(Type.String()),
    tokenPrefix: Type.String(),
    installedBy: Uuid,
    createdAt: Timestamp,
    lastUsedAt: Type.Union([Timestamp, Type.Null()]),
    revokedAt: Type.Union([Timestamp, Type.Null()]),
  },
  { title: 'AppInstallation' },
);
export type AppInstallation = Static<typeof AppInstallation>;

export const TokenResponse = Type.Object(
  {
    access_token: Type.String({ description: 'The installation token, `spa_...`. Never expires.' }),
    token_type: Type.Literal('Bearer'),
    scope: Type.String({ description: 'The granted scopes, space-separated.' }),
    installation: AppInstallation,
  },
  { title: 'OAuthTokenResponse' },
);
export type TokenResponse = Static<typeof TokenResponse>;
