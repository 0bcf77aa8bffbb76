import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { badRequest, notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import type { WorkspaceAccess } from '../access/authorize.js';
import { spreadKeyBetween } from './order.js';
import * as repository from './repository.js';
import { type ItemDetail, MAX_TITLE } from './schemas.js';
import { itemScope } from './service.js';
import { insertCards } from './write/insert.js';

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
  // The root first, then its subtree, as the tree was walked.
  originals.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
  const attachments = await db
    .selectFrom('item_collections')
    .select(['item_id', 'collection_id'])
    .where('item_id', 'in', ids)
    .orderBy('created_at')
    .orderBy('collection_id')
    .execute();
  const copyOf = new Map(originals.map((row) => [row.id, newId()]));
  const suffix = copySuffix(acceptLanguage);
  const copies = await insertCards(
    db,
    itemScope(access, originals.length > 1 ? newId() : null),
    originals.map((row) => ({
      id: copyOf.get(row.id) ?? newId(),
      collectionId: row.collection_id,
      title: row.id === itemId ? row.title.slice(0, MAX_TITLE - suffix.length) + suffix : row.title,
      statusId: row.status_id,
      parentId: row.id === itemId ? row.parent_id : (copyOf.get(row.parent_id ?? '') ?? null),
      properties: row.properties,
      content: { blocks: row.blocks, body: row.body },
      icon: row.icon,
      sortKey: spreadKeyBetween(row.sort_key, row.next_key),
      archivedAt: null,
      createdBy: access.userId,
      collectionIds: attachments
        .filter((attachment) => attachment.item_id === row.id)
        .map((attachment) => attachment.collection_id),
      note: row.id === itemId ? { duplicatedFrom: { before: null, after: itemId } } : undefined,
    })),
  );
  const root = copies.find((copy) => copy.id === copyOf.get(itemId));
  if (root === undefined) throw new Error('the copy of the card was not created');
  return root;
}
