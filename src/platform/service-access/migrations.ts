import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const serviceAccessMigrations: Migrations = {
  /**
   * Private-service access: one-time sign-in codes and service-domain
   * sessions (both stored as SHA-256 only), and an access version per
   * organization that every change able to take access away bumps, by
   * trigger, in the changing transaction, with a `sparrow_access_revoked`
   * notification. Servers trust a cached grant only at the current version.
   */
  '2026_11_28_851_service_access': {
    async up(db: Kysely<unknown>) {
      const statements = [
        `create table access_versions (
           org_id uuid primary key,
           version bigint not null)`,
        `create table service_access_codes (
           code_hash text primary key,
           service_id uuid not null references services (id) on delete cascade,
           user_id uuid not null references users (id) on delete cascade,
           session_id uuid not null references sessions (id) on delete cascade,
           state_hash text not null,
           return_to text not null,
           expires_at timestamptz not null)`,
        `create index service_access_codes_expires on service_access_codes (expires_at)`,
        `create table service_sessions (
           id uuid primary key,
           token_hash text not null unique,
           service_id uuid not null references services (id) on delete cascade,
           user_id uuid not null references users (id) on delete cascade,
           session_id uuid not null references sessions (id) on delete cascade,
           created_at timestamptz not null default now(),
           expires_at timestamptz not null)`,
        `create index service_sessions_expires on service_sessions (expires_at)`,
        `create function access_version_bump() returns trigger language plpgsql as $$
         declare
           changed_org uuid;
           changed_user uuid;
         begin
           if tg_table_name = 'sessions' then
             changed_user := case when tg_op = 'DELETE' then old.user_id else new.user_id end;
             insert into access_versions (org_id, version)
               select org_id, 1 from organization_members where user_id = changed_user
             on conflict (org_id) do update set version = access_versions.version + 1;
           else
             changed_org := case when tg_op = 'DELETE' then old.org_id else new.org_id end;
             insert into access_versions (org_id, version) values (changed_org, 1)
             on conflict (org_id) do update set version = access_versions.version + 1;
           end if;
           perform pg_notify('sparrow_access_revoked', coalesce(changed_org::text, ''));
           return null;
         end $$`,
        `create trigger org_api_keys_access_changed after update on org_api_keys for each row
         when (old.revoked_at is distinct from new.revoked_at or old.member_id is distinct from new.member_id
           or old.scopes is distinct from new.scopes or old.org_id is distinct from new.org_id)
         execute function access_version_bump()`,
        `create trigger org_api_keys_access_removed after delete on org_api_keys for each row
         execute function access_version_bump()`,
        `create trigger organization_members_access_changed after update on organization_members
         for each row when (old.role is distinct from new.role or old.user_id is distinct from new.user_id)
         execute function access_version_bump()`,
        `create trigger organization_members_access_removed after delete on organization_members
         for each row execute function access_version_bump()`,
        `create trigger services_access_changed after update on services for each row
         when (old.access_control is distinct from new.access_control
           or old.allowlist is distinct from new.allowlist
           or old.custom_domain is distinct from new.custom_domain)
         execute function access_version_bump()`,
        `create trigger services_access_removed after delete on services for each row
         execute function access_version_bump()`,
        `create trigger sessions_access_changed after update on sessions for each row
         when (old.revoked_at is distinct from new.revoked_at or old.expires_at is distinct from new.expires_at)
         execute function access_version_bump()`,
        `create trigger sessions_access_removed after delete on sessions for each row
         execute function access_version_bump()`,
      ];
      for (const statement of statements) await sql.raw(statement).execute(db);
    },
  },
};
