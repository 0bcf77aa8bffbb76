import Type, { type Static } from 'typebox';
import { Strict, Timestamp, Uuid } from '../../http/schemas.js';
import { ORG_ROLES } from '../access/roles.js';

export const OrgRoleSchema = Type.Enum(ORG_ROLES, {
  description:
    '`owner`: everything, including owners; `admin`: members, secrets, keys; `member`: projects.',
});

const OrgName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });

export const Organization = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    role: Type.Enum(ORG_ROLES, {
      description:
        "The caller's role. An API key acts with its creator's current role (personal key) or `admin` (organization key).",
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Organization' },
);
export type Organization = Static<typeof Organization>;

export const CreateOrganizationBody = Strict({ name: OrgName }, { title: 'CreateOrganization' });
export type CreateOrganizationBody = Static<typeof CreateOrganizationBody>;

export const Member = Type.Object(
  {
    userId: Uuid,
    email: Type.String(),
    name: Type.String(),
    role: OrgRoleSchema,
    joinedAt: Timestamp,
  },
  { title: 'OrgMember' },
);
export type Member = Static<typeof Member>;

export const AddMemberBody = Strict(
  {
    email: Type.String({
      minLength: 3,
      maxLength: 254,
      description: 'E-mail of an existing account.',
    }),
    role: OrgRoleSchema,
  },
  { title: 'AddMember' },
);
export type AddMemberBody = Static<typeof AddMemberBody>;

export const ChangeRoleBody = Strict({ role: OrgRoleSchema }, { title: 'ChangeMemberRole' });
export type ChangeRoleBody = Static<typeof ChangeRoleBody>;

export const OrgParams = Strict({ orgId: Uuid });
export const MemberParams = Strict({ orgId: Uuid, userId: Uuid });
