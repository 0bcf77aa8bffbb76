import type { EventType, WorkspaceEvent } from '../../../api/events.js';

/** Names the feed knows beyond the event itself (the registry, the lists, looked-up cards). */
export interface EventNames {
  /** A field's name by its key (for `properties.<key>` changes). */
  fieldByKey: ReadonlyMap<string, string>;
  /** A list's name by its id. */
  collectionById: ReadonlyMap<string, string>;
  /** A card's title by its id, for cards whose events do not carry it. */
  cardById: ReadonlyMap<string, string>;
}

/** An event in words: who, what was done, to what (the thing's name apart, to link it). */
export interface EventSentence {
  actor: string;
  action: string;
  /** "the card", "the list", ... */
  thing: string;
  /** The thing's name, or undefined when it is not known (a card since deleted). */
  name: string | undefined;
  /** What changed, in words ("title, status and Priority"), when the event says it. */
  detail: string | undefined;
}

const THINGS: Record<string, string> = {
  item: 'the card',
  collection: 'the list',
  collection_group: 'the sidebar group',
  field: 'the field',
  status: 'the status',
  view: 'the view',
  workspace: 'the workspace',
};

const VERBS: Record<string, string> = {
  created: 'created',
  updated: 'changed',
  deleted: 'deleted',
  moved: 'moved',
  attached: 'added',
  detached: 'removed',
};

const CHANGE_WORDS: Record<string, string> = {
  title: 'title',
  statusId: 'status',
  icon: 'icon',
  body: 'body',
  blocks: 'body',
  archivedAt: 'archive state',
  collectionId: 'home list',
  parentId: 'parent',
  sortKey: 'position',
  name: 'name',
  color: 'color',
  definition: 'filters and sort',
  display: 'layout',
  config: 'settings',
  coverLayout: 'cover layout',
};

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The name an event carries: a title or name it set, changed or removed. */
function carriedName(event: WorkspaceEvent): string | undefined {
  const change = event.changes.title ?? event.changes.name;
  if (change === undefined) return undefined;
  return textOf(change.after) ?? textOf(change.before);
}

export function changeWords(event: WorkspaceEvent, names: EventNames): string | undefined {
  if (!event.type.endsWith('.updated') && event.type !== 'item.moved') return undefined;
  const words = new Set<string>();
  for (const key of Object.keys(event.changes)) {
    if (key.startsWith('properties.')) {
      const fieldKey = key.slice('properties.'.length);
      words.add(names.fieldByKey.get(fieldKey) ?? fieldKey);
    } else {
      words.add(CHANGE_WORDS[key] ?? key);
    }
  }
  const list = [...words];
  if (list.length === 0) return undefined;
  if (list.length === 1) return list[0];
  return `${list.slice(0, -1).join(', ')} and ${list.at(-1)}`;
}

function listOfChange(event: WorkspaceEvent, names: EventNames): string | undefined {
  const change = event.changes.collectionIds;
  if (change === undefined) return undefined;
  const before = Array.isArray(change.before) ? change.before : [];
  const after = Array.isArray(change.after) ? change.after : [];
  const moved =
    event.type === 'item.attached'
      ? after.find((id) => !before.includes(id))
      : before.find((id) => !after.includes(id));
  return typeof moved === 'string' ? names.collectionById.get(moved) : undefined;
}

function archiveAction(event: WorkspaceEvent): string | undefined {
  const change = event.changes.archivedAt;
  if (change === undefined || Object.keys(event.changes).length !== 1) return undefined;
  return change.after === null ? 'restored' : 'archived';
}

export function describeEvent(event: WorkspaceEvent, names: EventNames): EventSentence {
  const [kind = '', verb = ''] = event.type.split('.');
  const thing = THINGS[kind] ?? kind;
  const id = event.resource.id;
  const name =
    carriedName(event) ??
    (kind === 'item' ? names.cardById.get(id) : undefined) ??
    (kind === 'collection' ? names.collectionById.get(id) : undefined);
  const archived = kind === 'item' ? archiveAction(event) : undefined;
  const list = listOfChange(event, names);
  let action = archived ?? VERBS[verb] ?? verb;
  if (event.type === 'item.attached') action = 'added';
  const detail =
    archived !== undefined
      ? undefined
      : list !== undefined
        ? `${event.type === 'item.attached' ? 'to' : 'from'} ${list}`
        : changeWords(event, names);
  return { actor: event.actor.label, action, thing, name, detail };
}

/** The words of an event type in a filter's menu ("Card changed"). */
export function typeLabel(type: EventType): string {
  const [kind = '', verb = ''] = type.split('.');
  const thing = (THINGS[kind] ?? kind).replace(/^the /, '');
  const verbWord = VERBS[verb] ?? verb;
  return `${thing.charAt(0).toUpperCase()}${thing.slice(1)} ${verbWord}`;
}
