import Type, { type Static } from 'typebox';
import { Name, Strict, Timestamp, Uuid } from '../../http/schemas.js';
import { RoleSchema } from '../access/roles.js';

export const COVER_LAYOUTS = ['none', 'banner', 'full'] as const;

export const CoverLayout = Type.Enum(COVER_LAYOUTS, {
  description:
    'How the workspace cover is shown: `none`, `banner` (a strip) or `full` (full-height).',
});

export const Slug = Type.String({
  pattern: '^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$',
  description:
    '1 to 63 lowercase letters, digits and inner hyphens; unique across the service; never changes.',
});

export const WorkspaceMembership = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    slug: Type.String(),
    coverLayout: CoverLayout,
    role: RoleSchema,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'WorkspaceMembership', description: "A workspace with the caller's role in it." },
);
export type WorkspaceMembership = Static<typeof WorkspaceMembership>;

export const CreateWorkspace = Strict(
  { name: Name(100), slug: Slug, coverLayout: Type.Optional(CoverLayout) },
  { title: 'CreateWorkspace' },
);
export type CreateWorkspace = Static<typeof CreateWorkspace>;

export const UpdateWorkspace = Strict(
  { name: Type.Optional(Name(100)), coverLayout: Type.Optional(CoverLayout) },
  { title: 'UpdateWorkspace', description: 'The slug is never updatable.' },
);
export type UpdateWorkspace = Static<typeof UpdateWorkspace>;

export const DeleteWorkspace = Strict(
  {
    slug: Type.String({
      minLength: 1,
      maxLength: 63,
      description: "The workspace's slug, to confirm.",
    }),
  },
  { title: 'DeleteWorkspace' },
);

export const Member = Type.Object(
  {
    userId: Uuid,
    email: Type.String(),
    name: Type.String(),
    role: RoleSchema,
    avatarFileId: Type.Union([Uuid, Type.Null()], {
      description: 'An image file of this workspace.',
    }),
    joinedAt: Timestamp,
  },
  { title: 'Member' },
);
export type Member = Static<typeof Member>;

export const InviteMember = Strict(
  {
    email: Type.String({
      minLength: 3,
      maxLength: 254,
      description: 'E-mail of an existing account.',
    }),
    role: RoleSchema,
  },
  { title: 'InviteMember' },
);
export type InviteMember = Static<typeof InviteMember>;

export const UpdateMyMembership = Strict(
  {
    avatarFileId: Type.Union([Uuid, Type.Null()], {
      description: 'An image file of this workspace, or null to remove.',
    }),
  },
  { title: 'UpdateMyMembership' },
);
export type UpdateMyMembership = Static<typeof UpdateMyMembership>;
