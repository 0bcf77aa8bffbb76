import Type, { type Static } from 'typebox';
import { Name, Strict, Timestamp, Uuid } from '../../http/schemas.js';
import { RoleSchema } from '../access/roles.js';

export const WorkspaceApiKey = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    role: RoleSchema,
    tokenPrefix: Type.String({
      description:
        'The start of the token, to recognize it; the token itself is never shown again.',
    }),
    createdBy: Uuid,
    createdAt: Timestamp,
    lastUsedAt: Type.Union([Timestamp, Type.Null()], {
      description: 'Updated at most once a minute.',
    }),
    revokedAt: Type.Union([Timestamp, Type.Null()]),
  },
  { title: 'WorkspaceApiKey' },
);
export type WorkspaceApiKey = Static<typeof WorkspaceApiKey>;

export const CreatedWorkspaceApiKey = Type.Object(
  {
    ...WorkspaceApiKey.properties,
    token: Type.String({ description: 'Shown once, here. Send as `Authorization: Bearer`.' }),
  },
  { title: 'CreatedWorkspaceApiKey' },
);
export type CreatedWorkspaceApiKey = Static<typeof CreatedWorkspaceApiKey>;

export const CreateWorkspaceApiKey = Strict(
  { name: Name(100), role: RoleSchema },
  { title: 'CreateWorkspaceApiKey', description: 'The role can be no higher than the creator’s.' },
);
export type CreateWorkspaceApiKey = Static<typeof CreateWorkspaceApiKey>;
