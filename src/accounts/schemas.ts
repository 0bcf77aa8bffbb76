import Type, { type Static } from 'typebox';
import { Strict, Timestamp, Uuid } from '../http/schemas.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password.js';

export const Email = Type.String({ format: 'email', minLength: 3, maxLength: 254 });

export const AuthUser = Type.Object(
  {
    id: Uuid,
    email: Type.String(),
    name: Type.String(),
    createdAt: Timestamp,
  },
  { title: 'AuthUser' },
);
export type AuthUser = Static<typeof AuthUser>;

export const Session = Type.Object(
  {
    token: Type.String({
      description: 'Bearer token; shown only here. Also set as the `session` cookie.',
    }),
    user: AuthUser,
  },
  { title: 'Session' },
);
export type Session = Static<typeof Session>;

const Password = Type.String({
  minLength: PASSWORD_MIN_LENGTH,
  maxLength: PASSWORD_MAX_LENGTH,
  description: `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`,
});

export const RegisterBody = Strict(
  {
    email: Email,
    password: Password,
    name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
    invitation: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'An invitation token: the account is created even in `invite` mode and joins the inviting workspace ' +
          'with the invited role. The e-mail must be the invited address (case-insensitive).',
      }),
    ),
  },
  { title: 'Register' },
);
export type RegisterBody = Static<typeof RegisterBody>;

export const LoginBody = Strict(
  {
    email: Type.String({ minLength: 1, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
  },
  { title: 'Login' },
);
export type LoginBody = Static<typeof LoginBody>;

export const RegistrationPolicy = Type.Object(
  {
    mode: Type.Union([Type.Literal('invite'), Type.Literal('open')]),
    doors: Type.Object(
      {
        password: Type.Boolean({
          description: 'Register with e-mail and password, no invitation.',
        }),
        provider: Type.Boolean({
          description: 'Register by signing in with the identity provider.',
        }),
        invitation: Type.Boolean({
          description:
            'Register with an invitation token, with a password or (when configured) the identity provider.',
        }),
      },
      { description: 'The ways through which a new account can be created now.' },
    ),
    providerSignIn: Type.Boolean({
      description:
        'Signing in with the identity provider is configured (`POST /auth/idp`, `GET /auth/idp/start`).',
    }),
    providerName: Type.Union([Type.String(), Type.Null()], {
      description:
        'What a sign-in button calls the identity provider (`IDP_NAME`, default the issuer’s host); null ' +
        'when none is configured.',
    }),
  },
  { title: 'RegistrationPolicy' },
);
export type RegistrationPolicy = Static<typeof RegistrationPolicy>;
