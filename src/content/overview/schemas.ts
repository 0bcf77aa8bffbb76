import Type, { type Static } from 'typebox';
import { Strict, Uuid } from '../../http/schemas.js';

const Count = Type.Integer({ minimum: 0 });

export const WorkspaceOverview = Type.Object(
  {
    cardsByCategory: Type.Object(
      { backlog: Count, unstarted: Count, started: Count, completed: Count, canceled: Count },
      { description: 'Active (not archived) cards per status category.' },
    ),
    cardsByCollection: Type.Array(
      Type.Object({
        collectionId: Uuid,
        name: Type.String(),
        keyPrefix: Type.String(),
        cards: Count,
      }),
      { description: 'Active cards whose home is each list, in sidebar order.' },
    ),
    activity: Type.Array(Type.Object({ date: Type.String({ format: 'date' }), events: Count }), {
      description: 'Events per calendar day over the last 14 days, oldest first, today last.',
    }),
    catalog: Type.Object(
      {
        collections: Count,
        fields: Count,
        statuses: Count,
        views: Count,
        members: Count,
        items: Count,
        archivedItems: Count,
        files: Count,
      },
      { description: 'Catalog size.' },
    ),
  },
  { title: 'WorkspaceOverview' },
);
export type WorkspaceOverview = Static<typeof WorkspaceOverview>;

export const OverviewQuery = Strict({
  timeZone: Type.Optional(
    Type.String({
      maxLength: 64,
      description: 'IANA time zone of the activity days (default UTC).',
    }),
  ),
});
