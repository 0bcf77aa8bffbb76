import Type, { type Static } from 'typebox';

/**
 * Workspace roles, lowest first: a `viewer` reads; a `member` edits content
 * (items, views, files); an `admin` also manages the schema (fields, statuses,
 * collections), members, keys and the workspace; an `owner` may also delete it.
 */
export const ROLES = ['viewer', 'member', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

export const RoleSchema = Type.Enum(ROLES, { description: 'viewer < member < admin < owner' });
export type RoleSchema = Static<typeof RoleSchema>;

export function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}

export function atLeast(role: Role, minimum: Role): boolean {
  return roleRank(role) >= roleRank(minimum);
}

/** The lower of two roles (a key never acts above its creator). */
export function lowerRole(a: Role, b: Role): Role {
  return roleRank(a) <= roleRank(b) ? a : b;
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
