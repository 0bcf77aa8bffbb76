import Type, { type Static } from 'typebox';
import { Strict, Timestamp, Uuid } from '../../http/schemas.js';
import { RoleSchema } from '../access/roles.js';

export const INVITATION_PREFIX = 'inv_';

export const Invitation = Type.Object(
  {
    id: Uuid,
    email: Type.String(),
    role: RoleSchema,
    state: Type.Union(
      [
        Type.Literal('pending'),
        Type.Literal('accepted'),
        Type.Literal('revoked'),
        Type.Literal('expired'),
      ],
      { description: 'Only a `pending` invitation can be redeemed.' },
    ),
    tokenPrefix: Type.String({ description: 'The start of the token; the token is shown once.' }),
    createdBy: Type.Union([Uuid, Type.Null()]),
    createdAt: Timestamp,
    expiresAt: Timestamp,
    revokedAt: Type.Union([Timestamp, Type.Null()]),
    acceptedAt: Type.Union([Timestamp, Type.Null()]),
    acceptedBy: Type.Union([Uuid, Type.Null()]),
  },
  { title: 'Invitation' },
);
export type Invitation = Static<typeof Invitation>;

export const CreatedInvitation = Type.Object(
  {
    ...Invitation.properties,
    token: Type.String({
      description:
        'Shown once, here. The invitee sends it as `invitation` to `POST /auth/register` or `POST /auth/idp`.',
    }),
  },
  { title: 'CreatedInvitation' },
);
export type CreatedInvitation = Static<typeof CreatedInvitation>;

export const CreateInvitation = Strict(
  {
    email: Type.String({ format: 'email', minLength: 3, maxLength: 254 }),
    role: RoleSchema,
    expiresInDays: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 30, description: 'Default 7.' }),
    ),
  },
  {
    title: 'CreateInvitation',
    description: 'The role can be no higher than the inviter’s; `owner` needs an owner.',
  },
);
export type CreateInvitation = Static<typeof CreateInvitation>;

export const InvitationQuery = Strict({ token: Type.String({ minLength: 1, maxLength: 200 }) });

export const InvitationPreview = Type.Object(
  {
    workspace: Type.Object({ id: Uuid, name: Type.String(), slug: Type.String() }),
    email: Type.String(),
    role: RoleSchema,
    expiresAt: Timestamp,
  },
  { title: 'InvitationPreview' },
);
export type InvitationPreview = Static<typeof InvitationPreview>;

export const AcceptInvitation = Strict(
  { token: Type.String({ minLength: 1, maxLength: 200, description: 'The invitation token.' }) },
  { title: 'AcceptInvitation' },
);
export type AcceptInvitation = Static<typeof AcceptInvitation>;

export const AcceptedInvitation = Type.Object(
  {
    workspace: Type.Object({ id: Uuid, name: Type.String(), slug: Type.String() }),
    role: RoleSchema,
  },
  {
    title: 'AcceptedInvitation',
    description: 'The workspace joined and the caller’s role in it now.',
  },
);
export type AcceptedInvitation = Static<typeof AcceptedInvitation>;
