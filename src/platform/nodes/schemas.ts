import Type, { type Static, type TSchema } from 'typebox';
import { ContainerSummary } from '../../agent/protocol/schemas.js';
import { Strict, Timestamp, Uuid } from '../../http/schemas.js';

export const NodeParams = Strict({ orgId: Uuid, nodeId: Uuid });

export const NodeStatus = Type.Enum(['online', 'offline', 'draining'], {
  description:
    '`online`: an agent is connected and new workers may be placed here. `offline`: no agent is ' +
    'connected (workers here cannot be reached until it is back). `draining`: no new workers are ' +
    'placed here; running ones keep running (see `connected` for the agent).',
});

function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

export const Node = Type.Object(
  {
    id: Uuid,
    orgId: Type.Union([Uuid, Type.Null()], {
      description:
        'Null for the shared built-in node (`LOCAL_AGENT`), which every organization uses.',
    }),
    name: Type.String(),
    shared: Type.Boolean(),
    status: NodeStatus,
    connected: Type.Boolean({ description: 'An agent is connected right now.' }),
    draining: Type.Boolean(),
    drainingSince: Nullable(Timestamp),
    lastSeenAt: Type.Union([Timestamp, Type.Null()], {
      description: 'When the agent last connected, reported or answered a heartbeat.',
    }),
    agentVersion: Nullable(Type.String()),
    hostname: Nullable(Type.String()),
    capacity: Type.Union(
      [
        Type.Object({
          cpus: Type.Integer(),
          memoryBytes: Type.Integer(),
          maxWorkers: Nullable(Type.Integer()),
        }),
        Type.Null(),
      ],
      { description: 'What the agent reported of its machine; null until it first connects.' },
    ),
    engine: Type.Union(
      [
        Type.Object({
          reachable: Type.Boolean(),
          name: Nullable(Type.String()),
          version: Nullable(Type.String()),
          error: Nullable(Type.String()),
        }),
        Type.Null(),
      ],
      { description: 'The container engine the agent drives, as of its last hello.' },
    ),
    publicAddress: Type.Union([Type.String(), Type.Null()], {
      description:
        "Where clients reach ports forwarded by workers on this node; null: the node's loopback only.",
    }),
    tokenPrefix: Type.String({ description: 'The first characters of the current token.' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Node' },
);
export type Node = Static<typeof Node>;

const NodeName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const PublicAddress = Type.String({
  minLength: 1,
  maxLength: 253,
  pattern: '^[A-Za-z0-9]([A-Za-z0-9.:-]*[A-Za-z0-9])?$',
  description: 'A host name, IPv4 or IPv6 address (no scheme, no port).',
});

export const RegisterNodeBody = Strict(
  {
    name: NodeName,
    publicAddress: Type.Optional(PublicAddress),
    maxWorkers: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 10_000,
        description: 'No more workers are placed here.',
      }),
    ),
  },
  { title: 'RegisterNode' },
);
export type RegisterNodeBody = Static<typeof RegisterNodeBody>;

export const NodeWithToken = Type.Object(
  {
    node: Node,
    token: Type.String({
      description: 'The node token (`snt_...`): shown this once, stored only as a hash.',
    }),
    agentCommand: Type.String({ description: 'The command line that connects an agent.' }),
  },
  { title: 'NodeWithToken' },
);
export type NodeWithToken = Static<typeof NodeWithToken>;

export const DrainBody = Strict(
  {
    draining: Type.Optional(
      Type.Boolean({ description: 'false lets the node take new workers again; default true.' }),
    ),
  },
  { title: 'DrainNode' },
);

export const InventoryContainer = Type.Object({
  ...ContainerSummary.properties,
  worker: Type.Union(
    [
      Type.Object({ id: Uuid, name: Type.String(), state: Type.String(), projectId: Uuid }),
      Type.Null(),
    ],
    { description: "The worker the container belongs to, if a worker's." },
  ),
  service: Type.Union(
    [
      Type.Object({
        id: Uuid,
        deploymentId: Uuid,
        name: Type.String(),
        state: Type.String(),
      }),
      Type.Null(),
    ],
    {
      description:
        "The deployed service the container runs for (a replica, a cron or one-off job, a pre-deploy hook), if a service's.",
    },
  ),
  orphan: Type.Boolean({
    description:
      'A Sparrow container that no worker or service of this organization owns (left by a worker or service deleted while its node was unreachable).',
  }),
});

export const Inventory = Type.Object(
  {
    nodeId: Uuid,
    readAt: Timestamp,
    containers: Type.Array(InventoryContainer),
  },
  { title: 'NodeInventory' },
);
export type Inventory = Static<typeof Inventory>;
