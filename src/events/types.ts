import Type, { type Static } from 'typebox';

/** The closed list of event types (spec: Events, Log 4). */
export const EVENT_TYPES = [
  'item.created',
  'item.updated',
  'item.moved',
  'item.deleted',
  'item.attached',
  'item.detached',
  'collection.created',
  'collection.updated',
  'collection.deleted',
  'collection_group.created',
  'collection_group.updated',
  'collection_group.deleted',
  'field.created',
  'field.updated',
  'field.deleted',
  'status.created',
  'status.updated',
  'status.deleted',
  'view.created',
  'view.updated',
  'view.deleted',
  'workspace.updated',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const EventTypeSchema = Type.Enum(EVENT_TYPES, {
  description: 'One of the closed list of event types.',
});

export type ResourceKind =
  | 'item'
  | 'collection'
  | 'collection_group'
  | 'field'
  | 'status'
  | 'view'
  | 'workspace';

export type Cause = 'edit' | 'import';

/** Who caused an event, frozen when it is written (a revoked key keeps its label). */
export const ActorSchema = Type.Object({
  kind: Type.Union([Type.Literal('user'), Type.Literal('api_key'), Type.Literal('app')]),
  label: Type.String(),
  userId: Type.Optional(Type.String({ description: 'The person, for `user` actors.' })),
  apiKeyId: Type.Optional(Type.String({ description: 'The key, for `api_key` actors.' })),
  appInstallationId: Type.Optional(
    Type.String({ description: 'The installation, for `app` actors.' }),
  ),
});
export type Actor = Static<typeof ActorSchema>;

export interface Change {
  before: unknown;
  after: unknown;
}

/** Only the keys that changed; a registry property appears as `properties.<key>`. */
export type Changes = Record<string, Change>;

export interface EventInput {
  type: EventType;
  resource: { kind: ResourceKind; id: string };
  changes: Changes;
}

export interface EventRecord extends EventInput {
  id: string;
  workspaceId: string;
  occurredAt: Date;
  actor: Actor;
  batchId: string | null;
  cause: Cause;
}
