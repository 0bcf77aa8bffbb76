import { workspaceRegistry } from '../src/content/fields/registry-cache.js';
import { searchStatement } from '../src/content/queries/search.js';
import { instanceSecret } from '../src/content/queries/secret.js';
import { cursorScope, decodeCursor } from '../src/content/view-compiler/cursor.js';
import { groupCondition } from '../src/content/view-compiler/group.js';
import { parseDefinition } from '../src/content/view-compiler/parse.js';
import {
  groupCountsStatement,
  narrowCountsStatement,
  pagePlan,
} from '../src/content/view-compiler/statements.js';
import type { Database } from '../src/db/schema.js';

/**
 * The bare SQL of each bench case: the very statements the API sends (the
 * same text, prepared on the same pool), run back to back without HTTP,
 * authentication, registry or JSON. What the API figure is compared with.
 */
export async function bareSql(db: Database, workspaceId: string, collectionId: string) {
  const workspace = await workspaceRegistry(db, { workspaceId });
  const context = {
    fieldsById: workspace.registry.byId,
    statusIds: new Set(workspace.statusOrder),
  };
  const secret = await instanceSecret(db, 'cursor');
  const scope = { workspaceId, collectionId };
  const options = { now: new Date(), statusOrder: workspace.statusOrder };

  async function page(raw: Record<string, unknown>, limit: number, cursor?: string) {
    const definition = parseDefinition(raw, context);
    const bindTo = cursorScope({ c: collectionId, f: raw.filter ?? null, s: raw.sort ?? [] });
    const after = cursor === undefined ? null : decodeCursor(secret, bindTo, cursor);
    const plan = pagePlan(scope, definition, { ...options, after, limit: limit + 1 });
    let rows = 0;
    for (const { statement } of plan.segments) {
      if (rows > limit) break;
      rows += (await statement.execute(db)).rows.length;
    }
    return rows;
  }

  async function counts(raw: Record<string, unknown>) {
    const definition = parseDefinition(raw, context);
    const statement =
      narrowCountsStatement(scope, definition, workspace.fillingFieldIds) ??
      groupCountsStatement(scope, definition, options);
    return (await statement.execute(db)).rows.length;
  }

  /** Counts and one page per column, as the grouped query runs them (four pages at a time, beside the counts). */
  async function kanban(raw: Record<string, unknown>, groups: string[], limit: number) {
    const definition = parseDefinition(raw, context);
    const groupBy = definition.groupBy;
    if (groupBy === null) throw new Error('kanban needs a groupBy');
    const counting = counts(raw);
    const column = async (value: string) => {
      const plan = pagePlan(scope, definition, {
        ...options,
        after: null,
        limit: limit + 1,
        extra: groupCondition(groupBy, value),
      });
      for (const { statement } of plan.segments) await statement.execute(db);
    };
    for (let start = 0; start < groups.length; start += 4)
      await Promise.all(groups.slice(start, start + 4).map(column));
    await counting;
  }

  async function search(q: string, limit: number) {
    return (await searchStatement(workspaceId, q, null, limit + 1).execute(db)).rows.length;
  }

  return { page, counts, kanban, search };
}
