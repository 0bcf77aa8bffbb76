import type { Database } from '../../db/schema.js';
import { badRequest, notFound } from '../../http/errors.js';
import { UUID_PATTERN } from '../../http/schemas.js';
import type { WorkspaceAccess } from '../access/authorize.js';
import { workspaceRegistry } from '../fields/registry-cache.js';
import { toItem } from '../items/repository.js';
import { cursorScope, decodeCursor, encodeCursor, type Segment } from '../view-compiler/cursor.js';
import type { ParsedDefinition } from '../view-compiler/definition.js';
import { groupCondition, type GroupValue as SqlGroupValue } from '../view-compiler/group.js';
import { parseDefinition } from '../view-compiler/parse.js';
import {
  groupCountsStatement,
  type ListScope,
  narrowCountsStatement,
  type PageRow,
  pagePlan,
} from '../view-compiler/statements.js';
import { isDateValue } from '../view-compiler/values.js';
import {
  type GroupedPage,
  type GroupedQuery,
  type GroupValue,
  type ItemPage,
  PAGE_DEFAULT,
  type QueryView,
} from './schemas.js';
import { instanceSecret } from './secret.js';

const uuid = new RegExp(UUID_PATTERN);

/** How many kanban columns' pages one grouped query reads at once. */
const GROUP_PAGES_AT_ONCE = 4;

/** Everything a list query needs: the parsed definition, the scope, statuses in order, the signing secret. */
export interface Prepared {
  scope: ListScope;
  definition: ParsedDefinition;
  raw: Record<string, unknown>;
  statusOrder: string[];
  /** Fields whose narrow-table rows are still being filled in. */
  filling: ReadonlySet<string>;
  secret: string;
  now: Date;
}

export async function prepare(
  db: Database,
  access: WorkspaceAccess,
  collectionId: string,
  raw: Record<string, unknown>,
): Promise<Prepared> {
  const [workspace, secret] = await Promise.all([
    workspaceRegistry(db, access),
    instanceSecret(db, 'cursor'),
  ]);
  if (!workspace.collectionIds.has(collectionId.toLowerCase())) throw notFound('Collection');
  const context = {
    fieldsById: workspace.registry.byId,
    statusIds: new Set(workspace.statusOrder),
  };
  return {
    scope: { workspaceId: access.workspaceId, collectionId },
    definition: parseDefinition(raw, context),
    raw,
    statusOrder: workspace.statusOrder,
    filling: workspace.fillingFieldIds,
    secret,
    now: new Date(),
  };
}

async function page(
  db: Database,
  prepared: Prepared,
  cursor: string | undefined,
  limit: number,
  group?: { value: SqlGroupValue },
): Promise<ItemPage> {
  const { definition, raw, scope } = prepared;
  const bindTo = cursorScope({
    c: scope.collectionId,
    f: raw.filter ?? null,
    s: raw.sort ?? [],
    g: group === undefined ? undefined : { by: raw.groupBy, v: group.value },
  });
  const after = cursor === undefined ? null : decodeCursor(prepared.secret, bindTo, cursor);
  const extra =
    group === undefined || definition.groupBy === null
      ? undefined
      : groupCondition(definition.groupBy, group.value);
  const plan = pagePlan(scope, definition, {
    now: prepared.now,
    statusOrder: prepared.statusOrder,
    after,
    limit: limit + 1,
    extra,
  });
  const rows: Array<{ row: PageRow; segment: Segment }> = [];
  for (const { segment, statement } of plan.segments) {
    if (rows.length > limit) break;
    const result = await statement.execute(db);
    rows.push(...result.rows.map((row) => ({ row, segment })));
  }
  const visible = rows.slice(0, limit);
  const last = visible.at(-1);
  const nextCursor =
    rows.length > limit && last !== undefined
      ? encodeCursor(prepared.secret, bindTo, {
          segment: last.segment,
          position: {
            values: plan.columns.map((_column, index) => {
              const value = last.row[`s${index}`] ?? null;
              return value instanceof Date ? value.toISOString() : value;
            }),
            sortKey: last.row.sort_key,
            id: last.row.id,
          },
        })
      : null;
  return { items: visible.map(({ row }) => toItem(row)), nextCursor };
}

export async function queryView(
  db: Database,
  access: WorkspaceAccess,
  collectionId: string,
  input: QueryView,
): Promise<ItemPage> {
  const prepared = await prepare(db, access, collectionId, input.definition);
  return page(db, prepared, input.cursor, input.limit ?? PAGE_DEFAULT);
}

/** The narrow table's counts when they answer the definition, else the counts over the cards. */
function countsStatement(prepared: Prepared) {
  return (
    narrowCountsStatement(prepared.scope, prepared.definition, prepared.filling) ??
    groupCountsStatement(prepared.scope, prepared.definition, prepared)
  );
}

function requireGroupBy(prepared: Prepared) {
  const group = prepared.definition.groupBy;
  if (group === null)
    throw badRequest('group_by_required', 'The definition has no groupBy', { path: '/groupBy' });
  return group;
}

/** Counts per group value, every declared value first (statuses, options in order), then the others. */
export async function groupCounts(
  db: Database,
  access: WorkspaceAccess,
  collectionId: string,
  raw: Record<string, unknown>,
): Promise<Array<{ value: GroupValue; count: number }>> {
  const prepared = await prepare(db, access, collectionId, raw);
  const group = requireGroupBy(prepared);
  const { rows } = await countsStatement(prepared).execute(db);
  const counts = new Map(rows.map((row) => [row.value, Number(row.count)]));
  const target = group.target;
  const declared: string[] =
    target.kind === 'attribute' && target.attribute === 'statusId'
      ? prepared.statusOrder
      : target.valueKind === 'boolean'
        ? ['true', 'false']
        : target.kind === 'field'
          ? (target.field.config.options ?? []).map((option) => option.id)
          : [];
  const others = [...counts.keys()]
    .filter((value): value is string => value !== null && !declared.includes(value))
    .sort();
  const out: Array<{ value: GroupValue; count: number }> = [...declared, ...others].map(
    (value) => ({
      value: target.valueKind === 'boolean' ? value === 'true' : value,
      count: counts.get(value) ?? 0,
    }),
  );
  const empty = counts.get(null) ?? 0;
  if (empty > 0) out.push({ value: null, count: empty });
  return out;
}

function groupKey(value: GroupValue): string {
  return value === null ? 'null' : String(value);
}

/** Checks a requested group value against what the grouping holds. */
function checkGroupValue(prepared: Prepared, value: GroupValue, index: number): void {
  const kind = requireGroupBy(prepared).target.valueKind;
  const path = `/groups/${index}`;
  if (value === null) return;
  const ok =
    kind === 'boolean'
      ? typeof value === 'boolean'
      : kind === 'date'
        ? typeof value === 'string' && value.length === 10 && isDateValue(value)
        : kind === 'status' || kind === 'person' || kind === 'persons' || kind === 'item'
          ? typeof value === 'string' && uuid.test(value)
          : typeof value === 'string';
  if (!ok)
    throw badRequest('invalid_group', 'A requested group value does not fit the grouping', {
      path,
    });
}

export async function groupedQuery(
  db: Database,
  access: WorkspaceAccess,
  collectionId: string,
  input: GroupedQuery,
): Promise<GroupedPage> {
  const prepared = await prepare(db, access, collectionId, input.definition);
  requireGroupBy(prepared);
  for (const [index, value] of input.groups.entries()) checkGroupValue(prepared, value, index);
  const keys = new Set(input.groups.map(groupKey));
  for (const key of Object.keys(input.cursors ?? {})) {
    if (!keys.has(key))
      throw badRequest('invalid_cursor', 'A cursor names a group that is not requested', {
        group: key,
      });
  }
  const limit = input.limit ?? PAGE_DEFAULT;
  // The counts and the columns' pages run side by side on the pool (a few at a
  // time, so one board does not take every connection); on one connection
  // (a transaction, PGlite) they simply queue.
  const counting = countsStatement(prepared).execute(db);
  // Awaited below; a page failing first must not leave its rejection unhandled.
  counting.catch(() => {});
  const pages: ItemPage[] = [];
  for (let start = 0; start < input.groups.length; start += GROUP_PAGES_AT_ONCE) {
    const slice = input.groups.slice(start, start + GROUP_PAGES_AT_ONCE);
    pages.push(
      ...(await Promise.all(
        slice.map((value) =>
          page(db, prepared, input.cursors?.[groupKey(value)], limit, { value }),
        ),
      )),
    );
  }
  const counts = new Map((await counting).rows.map((row) => [row.value, Number(row.count)]));
  const groups = input.groups.map((value, index) => ({
    value,
    count: counts.get(value === null ? null : String(value)) ?? 0,
    ...(pages[index] ?? { items: [], nextCursor: null }),
  }));
  return { groups };
}
