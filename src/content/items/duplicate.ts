import { sql } from 'kysely';
import { jsonb } from '../../db/json.js';
import type { Database } from '../../db/schema.js';
import { created, diffProperties } from '../../events/changes.js';
import { recordEvents } from '../../events/writer.js';
import { badRequest, notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import type { WorkspaceAccess } from '../access/authorize.js';
import { takeItemNumbers } from '../workspaces/service.js';
import { keyBetween } from './order.js';
import * as repository from './repository.js';
import { type ItemDetail, MAX_TITLE } from './schemas.js';
import { createdValues, getItem, itemScope } from './service.js';

export const MAX_DUPLICATE = 200;

const COPY_WORDS: Record<string, string> = {
  en: 'copy',
  fr: 'copie',
  de: 'Kopie',
  es: 'copia',
  it: 'copia',
  pt: 'cópia',
  nl: 'kopie',
  sv: 'kopia',
  pl: 'kopia',
  ja: 'コピー',
  zh: '副本',
};

/** " (copy)" in the caller's first supported language (Accept-Language), English otherwise. */
export function copySuffix(acceptLanguage: string | undefined): string {
  const languages = (acceptLanguage ?? '')
    .split(',')
    .map((part) => part.trim().split(';')[0]?.split('-')[0]?.toLowerCase() ?? '');
  const word =
    languages.map((language) => COPY_WORDS[language]).find((found) => found !== undefined) ??
    'copy';
  return ` (${word})`;
}

/**
 * Copies a card and its sub-items (archived ones and their subtrees are
 * skipped; at most 200 cards). Each copy lands right after its original, gets
 * a new number, keeps status, icon, body, properties (as stored) and
 * secondary lists; the root's title takes the copy suffix.
 */
export async function duplicateItem(
  db: Database,
  access: WorkspaceAccess,
  itemId: string,
  acceptLanguage: string | undefined,
): Promise<ItemDetail> {
  const workspaceId = access.workspaceId;
  if ((await repository.lockItem(db, workspaceId, itemId)) === undefined) throw notFound('Item');
  const ids = await repository.subtreeIds(db, [itemId], true);
  if (ids.length > MAX_DUPLICATE) {
    throw badRequest(
      'subtree_too_large',
      `At most ${MAX_DUPLICATE} cards can be duplicated at once`,
      {
        max: MAX_DUPLICATE,
        count: ids.length,
      },
    );
  }
  const originals = await db
    .selectFrom('items')
    .selectAll()
    .select(
      sql<
        string | null
      >`(select min(next.sort_key) from items next where next.collection_id = items.collection_id and next.sort_key > items.sort_key)`.as(
        'next_key',
      ),
    )
    .where('id', 'in', ids)
    .execute();
  const collectionIds = [...new Set(originals.map((row) => row.collection_id))];
  await db
    .selectFrom('collections')
    .select('id')
    .where('id', 'in', collectionIds)
    .forNoKeyUpdate()
    .execute();
  const attachments = await db
    .selectFrom('item_collections')
    .selectAll()
    .where('item_id', 'in', ids)
    .execute();
  const firstNumber = await takeItemNumbers(db, workspaceId, originals.length);
  const copyOf = new Map(originals.map((row) => [row.id, newId()]));
  const suffix = copySuffix(acceptLanguage);
  const copies = originals.map((row, index) => ({
    id: copyOf.get(row.id) ?? newId(),
    workspace_id: workspaceId,
    collection_id: row.collection_id,
    number: firstNumber + index,
    title: row.id === itemId ? row.title.slice(0, MAX_TITLE - suffix.length) + suffix : row.title,
    status_id: row.status_id,
    parent_id: row.id === itemId ? row.parent_id : (copyOf.get(row.parent_id ?? '') ?? null),
    properties: jsonb(row.properties),
    blocks: jsonb(row.blocks),
    body: row.body,
    icon: row.icon,
    sort_key: keyBetween(row.sort_key, row.next_key),
    created_by: access.userId,
  }));
  await db.insertInto('items').values(copies).execute();
  if (attachments.length > 0) {
    await db
      .insertInto('item_collections')
      .values(
        attachments.map((attachment) => ({
          item_id: copyOf.get(attachment.item_id) ?? '',
          collection_id: attachment.collection_id,
          workspace_id: workspaceId,
        })),
      )
      .execute();
  }
  const rootCopy = copyOf.get(itemId) ?? '';
  const details = (
    await repository.findItemDetails(
      db,
      workspaceId,
      copies.map((copy) => copy.id),
    )
  ).map(repository.toItemDetail);
  await recordEvents(
    db,
    itemScope(access, copies.length > 1 ? newId() : null),
    details.map((copy) => ({
      type: 'item.created',
      resource: { kind: 'item', id: copy.id },
      changes: {
        ...created(createdValues(copy)),
        ...diffProperties({}, copy.properties),
        ...(copy.id === rootCopy ? { duplicatedFrom: { before: null, after: itemId } } : {}),
      },
    })),
  );
  return details.find((copy) => copy.id === rootCopy) ?? getItem(db, workspaceId, rootCopy);
}
