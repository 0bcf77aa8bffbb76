import Type, { type Static } from 'typebox';
import { Strict, Timestamp, Uuid } from '../../http/schemas.js';

const IdToken = Type.String({
  minLength: 1,
  maxLength: 16_384,
  description: 'An OpenID Connect id_token issued by the configured provider for `IDP_CLIENT_ID`.',
});

export const IdpSignIn = Strict(
  {
    idToken: IdToken,
    invitation: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'An invitation token.' }),
    ),
  },
  { title: 'IdpSignIn' },
);
export type IdpSignIn = Static<typeof IdpSignIn>;

export const LinkIdp = Strict({ idToken: IdToken }, { title: 'LinkIdp' });
export type LinkIdp = Static<typeof LinkIdp>;

export const UserIdentity = Type.Object(
  {
    id: Uuid,
    issuer: Type.String({ description: 'The provider (its issuer URL).' }),
    email: Type.Union([Type.String(), Type.Null()], {
      description: 'The address the provider verified when the identity was last used.',
    }),
    createdAt: Timestamp,
    lastUsedAt: Type.Union([Timestamp, Type.Null()]),
  },
  {
    title: 'UserIdentity',
    description: 'The provider’s subject identifier is never returned.',
  },
);
export type UserIdentity = Static<typeof UserIdentity>;

export const StartQuery = Strict({
  invitation: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  returnTo: Type.Optional(
    Type.String({
      maxLength: 2000,
      pattern: '^/(?![/\\\\])',
      description: 'A path of this site to return to afterwards (default `/`).',
    }),
  ),
});
export type StartQuery = Static<typeof StartQuery>;

export const CallbackQuery = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 4000 })),
    state: Type.Optional(Type.String({ maxLength: 200 })),
    error: Type.Optional(Type.String({ maxLength: 200 })),
  },
  {
    additionalProperties: true,
    description: 'What the provider sends back (other parameters ignored).',
  },
);
export type CallbackQuery = Static<typeof CallbackQuery>;
