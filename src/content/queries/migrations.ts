import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const queriesMigrations: Migrations = {
  '2026_11_22_110_views_engine': {
    async up(db: Kysely<unknown>) {
      const statements = [
        `alter table items add column search_vector tsvector generated always as (
           setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', body), 'B')) stored`,
        'create index items_search_idx on items using gin (search_vector)',
        'create index items_status_count_idx on items (collection_id, status_id) where archived_at is null',
        'create index items_title_order_idx on items (collection_id, title, sort_key, id) where archived_at is null',
        'create index items_number_order_idx on items (collection_id, number) where archived_at is null',
        `create table instance_secrets (
           name text primary key,
           value text not null,
           created_at timestamptz not null default now())`,
        `create table property_indexes (
           key text not null,
           variant text not null check (variant in ('asc', 'gin')),
           state text not null check (state in ('pending', 'ready', 'failed')),
           error text,
           requested_at timestamptz not null default now(),
           built_at timestamptz,
           primary key (key, variant))`,
      ];
      for (const statement of statements) await sql.raw(statement).execute(db);
    },
  },
  /**
   * A narrow copy of the select, multi-select, person and multi-person values
   * of active cards, one row per (card, field, value) and one row with a null
   * value for a card without one, kept by triggers on items and fields so that
   * every writer (the write path, import, bulk, deletes, cascades) keeps it
   * right in its own transaction. Counts and kanban columns by such a field
   * read a small index instead of the JSON of the wide card rows.
   */
  '2026_11_25_301_item_values': {
    async up(db: Kysely<unknown>) {
      const statements = [
        `create table item_values (
           item_id uuid not null,
           collection_id uuid not null,
           field_id uuid not null,
           value text)`,
        `create function item_value_rows(p_workspace uuid, p_properties jsonb)
         returns table (field_id uuid, value text) language sql stable as $$
           select f.id, x.value from fields f
           cross join lateral (
             select p_properties ->> f.key as value where f.type in ('select', 'person')
             union all
             select distinct e.value from jsonb_array_elements_text(
               case when jsonb_typeof(p_properties -> f.key) = 'array' then p_properties -> f.key else '[]'::jsonb end
             ) as e(value) where f.type in ('multi_select', 'multi_person')
             union all
             select null where f.type in ('multi_select', 'multi_person')
               and case when jsonb_typeof(p_properties -> f.key) = 'array'
                        then jsonb_array_length(p_properties -> f.key) = 0 else true end
           ) as x
           where f.workspace_id = p_workspace and f.type in ('select', 'multi_select', 'person', 'multi_person')
         $$`,
        `insert into item_values (item_id, collection_id, field_id, value)
         select items.id, items.collection_id, v.field_id, v.value
         from items cross join lateral item_value_rows(items.workspace_id, items.properties) as v
         where items.archived_at is null`,
        'create index item_values_count_idx on item_values (collection_id, field_id, value)',
        'create index item_values_item_idx on item_values (item_id, field_id)',
        `create function item_values_inserted() returns trigger language plpgsql as $$
         begin
           insert into item_values (item_id, collection_id, field_id, value)
           select n.id, n.collection_id, v.field_id, v.value
           from new_items n cross join lateral item_value_rows(n.workspace_id, n.properties) as v
           where n.archived_at is null;
           return null;
         end $$`,
        `create function item_values_updated() returns trigger language plpgsql as $$
         begin
           -- Only the difference is written: an edit that leaves these values alone touches nothing.
           with changed as (
             select n.id, n.workspace_id, n.collection_id, n.archived_at, n.properties,
                    o.workspace_id as old_workspace_id, o.collection_id as old_collection_id,
                    o.archived_at as old_archived_at, o.properties as old_properties
             from new_items n join old_items o on o.id = n.id
             where n.properties is distinct from o.properties or n.collection_id <> o.collection_id
               or n.workspace_id <> o.workspace_id or (n.archived_at is null) <> (o.archived_at is null)
           ),
           wanted as (
             select c.id as item_id, c.collection_id, v.field_id, v.value from changed c
             cross join lateral item_value_rows(c.workspace_id, c.properties) as v where c.archived_at is null
           ),
           had as (
             select c.id as item_id, c.old_collection_id as collection_id, v.field_id, v.value from changed c
             cross join lateral item_value_rows(c.old_workspace_id, c.old_properties) as v
             where c.old_archived_at is null
           ),
           gone as (select * from had except select * from wanted),
           added as (select * from wanted except select * from had),
           -- Found by card first (the item index): joined on its other columns alone, the
           -- planner walked the count index for each gone row, 25 million rows for a
           -- bulk edit of 5,000 cards. Values are never '' (option and user ids).
           removed as (
             delete from item_values iv
             where iv.item_id = any (array(select distinct item_id from gone))
               and (iv.item_id, iv.field_id, iv.collection_id, coalesce(iv.value, '')) in (
                 select item_id, field_id, collection_id, coalesce(value, '') from gone)
           )
           insert into item_values (item_id, collection_id, field_id, value)
           select item_id, collection_id, field_id, value from added;
           return null;
         end $$`,
        `create function item_values_deleted() returns trigger language plpgsql as $$
         begin
           delete from item_values where item_id in (select id from old_items);
           return null;
         end $$`,
        `create trigger item_values_insert after insert on items
         referencing new table as new_items for each statement execute function item_values_inserted()`,
        `create trigger item_values_update after update on items
         referencing old table as old_items new table as new_items
         for each statement execute function item_values_updated()`,
        `create trigger item_values_delete after delete on items
         referencing old table as old_items for each statement execute function item_values_deleted()`,
        `create function item_values_field_added() returns trigger language plpgsql as $$
         begin
           if new.type in ('select', 'multi_select', 'person', 'multi_person') then
             insert into item_values (item_id, collection_id, field_id, value)
             select items.id, items.collection_id, v.field_id, v.value
             from items cross join lateral item_value_rows(items.workspace_id, items.properties) as v
             where items.workspace_id = new.workspace_id and items.archived_at is null and v.field_id = new.id;
           end if;
           return null;
         end $$`,
        `create function item_values_field_removed() returns trigger language plpgsql as $$
         begin
           delete from item_values where field_id = old.id;
           return null;
         end $$`,
        `create trigger item_values_field_insert after insert on fields
         for each row execute function item_values_field_added()`,
        `create trigger item_values_field_delete after delete on fields
         for each row execute function item_values_field_removed()`,
      ];
      for (const statement of statements) await sql.raw(statement).execute(db);
    },
  },
  /**
   * A field added to a workspace that has cards no longer inserts their empty
   * rows in its own transaction (a million cards held the registry lock for
   * seconds): it is queued, a background task fills its rows in short
   * batches, and counts use the narrow table for it only once it is filled.
   */
  '2026_11_25_303_item_values_backfill': {
    async up(db: Kysely<unknown>) {
      const statements = [
        `create table item_value_backfills (
           field_id uuid primary key,
           workspace_id uuid not null,
           after_id uuid,
           requested_at timestamptz not null default now())`,
        `create or replace function item_values_field_added() returns trigger language plpgsql as $$
         begin
           if new.type in ('select', 'multi_select', 'person', 'multi_person')
              and exists (select 1 from items where workspace_id = new.workspace_id) then
             insert into item_value_backfills (field_id, workspace_id) values (new.id, new.workspace_id);
           end if;
           return null;
         end $$`,
        `create or replace function item_values_field_removed() returns trigger language plpgsql as $$
         begin
           delete from item_value_backfills where field_id = old.id;
           delete from item_values where field_id = old.id;
           return null;
         end $$`,
      ];
      for (const statement of statements) await sql.raw(statement).execute(db);
    },
  },
  /**
   * Full-text search leaves the card rows: the vector of title and body lives
   * in `item_search` (with the card's workspace and whether it is active),
   * kept by statement triggers on items. A write that changes neither title,
   * body nor archiving (a bulk edit of properties) no longer recomputes the
   * vector of each card's body, and a search ranks its matches reading only
   * this narrow table.
   */
  '2026_11_25_702_item_search': {
    async up(db: Kysely<unknown>) {
      const vector = (row: string) =>
        `setweight(to_tsvector('simple', ${row}.title), 'A') || setweight(to_tsvector('simple', ${row}.body), 'B')`;
      const statements = [
        `create table item_search (
           item_id uuid primary key references items (id) on delete cascade,
           workspace_id uuid not null,
           active boolean not null,
           vector tsvector not null)`,
        `insert into item_search (item_id, workspace_id, active, vector)
         select id, workspace_id, archived_at is null, search_vector from items`,
        'create index item_search_vector_idx on item_search using gin (vector)',
        'drop index items_search_idx',
        'alter table items drop column search_vector',
        `create function item_search_inserted() returns trigger language plpgsql as $$
         begin
           insert into item_search (item_id, workspace_id, active, vector)
           select n.id, n.workspace_id, n.archived_at is null, ${vector('n')} from new_items n;
           return null;
         end $$`,
        `create function item_search_updated() returns trigger language plpgsql as $$
         begin
           update item_search set active = new.archived_at is null,
             vector = case when new.title is distinct from old.title or new.body is distinct from old.body
                           then ${vector('new')} else vector end
           where item_id = new.id;
           return null;
         end $$`,
        `create trigger item_search_insert after insert on items
         referencing new table as new_items for each statement execute function item_search_inserted()`,
        // A row trigger on these columns only: an UPDATE that sets none of them (a bulk
        // edit of properties) does not run it at all.
        `create trigger item_search_update after update of title, body, archived_at on items
         for each row when (old.title is distinct from new.title or old.body is distinct from new.body
                            or (old.archived_at is null) <> (new.archived_at is null))
         execute function item_search_updated()`,
      ];
      for (const statement of statements) await sql.raw(statement).execute(db);
    },
  },
};
