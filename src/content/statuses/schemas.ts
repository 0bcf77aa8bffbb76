import Type, { type Static } from 'typebox';
import { Color, Name, Strict, Timestamp, Uuid } from '../../http/schemas.js';

export const STATUS_CATEGORIES = [
  'backlog',
  'unstarted',
  'started',
  'completed',
  'canceled',
] as const;
export type StatusCategory = (typeof STATUS_CATEGORIES)[number];

export const StatusCategorySchema = Type.Enum(STATUS_CATEGORIES, {
  description:
    'Groups statuses for the overview: backlog, unstarted, started, completed, canceled.',
});

export const Status = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    color: Type.String(),
    category: StatusCategorySchema,
    position: Type.Integer({ description: 'Order among the workspace statuses, lowest first.' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Status' },
);
export type Status = Static<typeof Status>;

export const CreateStatus = Strict(
  {
    name: Name(100),
    color: Color,
    category: StatusCategorySchema,
  },
  { title: 'CreateStatus', description: 'A new status goes last in the order.' },
);
export type CreateStatus = Static<typeof CreateStatus>;

export const UpdateStatus = Strict(
  {
    name: Type.Optional(Name(100)),
    color: Type.Optional(Color),
    category: Type.Optional(StatusCategorySchema),
  },
  { title: 'UpdateStatus' },
);
export type UpdateStatus = Static<typeof UpdateStatus>;

export const ReorderStatuses = Strict(
  {
    statusIds: Type.Array(Uuid, {
      minItems: 1,
      maxItems: 500,
      description: 'Every status of the workspace, once each, in the new order.',
    }),
  },
  { title: 'ReorderStatuses' },
);
export type ReorderStatuses = Static<typeof ReorderStatuses>;
