import Type, { type Static } from 'typebox';
import { Strict, Timestamp, Uuid } from '../../http/schemas.js';
import { BranchName } from '../common/schemas.js';
import { WORKER_STATES } from './tables.js';

export const ProjectWorkersParams = Strict({ orgId: Uuid, projectId: Uuid });
export const WorkerParams = Strict({ orgId: Uuid, projectId: Uuid, workerId: Uuid });

export const WorkerStateSchema = Type.Enum(WORKER_STATES, {
  description: [
    'The lifecycle, every move visible here (with `stateReason` where one applies):',
    '- `creating`: placed on a node; the container is created and started and the repositories cloned. Then `ready`, or `failed`.',
    '- `ready`: running, repositories checked out. Stop: `stopping`. A container that exits by itself: `stopped`, with the reason.',
    '- `stopping`: then `stopped` (or `failed`).',
    '- `stopped`: the container exists but does not run; files are kept. Start: `starting`.',
    '- `starting`: then `ready` (missing repositories are cloned again) or `failed`.',
    '- `deleting`: the container is being removed; then the worker is gone (404).',
    '- `failed`: `stateReason` says what failed; start retries when a container exists; delete always works.',
    '- `lost`: the node no longer has the container (removed outside Sparrow); only delete.',
  ].join('\n'),
});

export const WorkerPort = Type.Object({
  port: Type.Integer({ description: 'The port in the container.' }),
  protocol: Type.String(),
  hostPort: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Where the node publishes it; null until the container runs.',
  }),
  url: Type.Union([Type.String(), Type.Null()], {
    description:
      "The public URL: the node's `publicAddress` and the host port (loopback when the node has none).",
  }),
});

export const Worker = Type.Object(
  {
    id: Uuid,
    orgId: Uuid,
    projectId: Uuid,
    nodeId: Uuid,
    userId: Type.Union([Uuid, Type.Null()], {
      description: 'The member it was spawned for (their secrets); null for an organization key.',
    }),
    name: Type.String(),
    branch: Type.Union([Type.String(), Type.Null()]),
    state: WorkerStateSchema,
    stateReason: Type.Union([Type.String(), Type.Null()]),
    stateChangedAt: Timestamp,
    containerId: Type.Union([Type.String(), Type.Null()]),
    image: Type.String(),
    repositories: Type.Array(
      Type.Object({
        url: Type.String(),
        path: Type.String(),
        branch: Type.Union([Type.String(), Type.Null()]),
        cloned: Type.Union([Type.Boolean(), Type.Null()], {
          description: 'Whether the checkout succeeded; null until tried.',
        }),
        message: Type.Union([Type.String(), Type.Null()]),
      }),
    ),
    ports: Type.Array(WorkerPort, { description: "The project's forwarded ports." }),
    urls: Type.Array(Type.String(), { description: 'The public URLs of the forwarded ports.' }),
    readyAt: Type.Union([Timestamp, Type.Null()], { description: 'When it last became ready.' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Worker' },
);
export type Worker = Static<typeof Worker>;

export const SpawnWorkerBody = Strict(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' })),
    branch: Type.Optional(BranchName),
    /** Place it here (online, not draining); omitted: the least loaded node. */
    nodeId: Type.Optional(Uuid),
  },
  { title: 'SpawnWorker' },
);
export type SpawnWorkerBody = Static<typeof SpawnWorkerBody>;

export const WaitQuery = Strict({
  wait: Type.Optional(
    Type.Boolean({
      description:
        'Answer once the move has settled (ready, stopped, failed or deleted) instead of at once.',
    }),
  ),
});

export const DeleteWorkerQuery = Strict({
  ...WaitQuery.properties,
  force: Type.Optional(
    Type.Boolean({
      description:
        'Forget the worker even when its node cannot be reached (its container, if any, shows up later as an orphan in the node inventory).',
    }),
  ),
});
