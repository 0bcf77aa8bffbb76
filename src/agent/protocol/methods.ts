import Type, { type Static, type TSchema } from 'typebox';
import {
  Base64,
  Checkout,
  Command,
  CommandInfo,
  CommandOutput,
  ContainerDetails,
  ContainerRef,
  ContainerStats,
  ContainerSummary,
  Env,
  ExecResult,
  GitStatus,
  Id,
  Labels,
  ListeningPort,
  Port,
  Repository,
  Strict,
  TerminalCols,
  TerminalInfo,
  TerminalName,
  TerminalRows,
} from './schemas.js';

const containerId = { containerId: ContainerRef };
const Empty = Strict({});
const Path = Type.String({ minLength: 1, maxLength: 1024, pattern: '^/' });
const Tail = Type.Integer({ minimum: 0, maximum: 100_000 });

export const NodeInfo = Strict({
  hostname: Type.String(),
  platform: Type.String(),
  arch: Type.String(),
  cpus: Type.Integer({ minimum: 0 }),
  memoryBytes: Type.Integer({ minimum: 0 }),
  agentVersion: Type.String(),
  engine: Strict({
    reachable: Type.Boolean(),
    name: Type.Union([Type.String(), Type.Null()]),
    version: Type.Union([Type.String(), Type.Null()]),
    apiVersion: Type.Union([Type.String(), Type.Null()]),
    error: Type.Union([Type.String(), Type.Null()]),
  }),
});
export type NodeInfo = Static<typeof NodeInfo>;

export const PortRequest = Strict({
  containerPort: Port,
  protocol: Type.Optional(Type.Union([Type.Literal('tcp'), Type.Literal('udp')])),
  /** Omitted or 0: the engine picks a free port. */
  hostPort: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  /** Defaults to 127.0.0.1: the server's proxy reaches it, the network does not. */
  hostIp: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
});
export type PortRequest = Static<typeof PortRequest>;

export const Mount = Strict({
  source: Path,
  target: Path,
  readOnly: Type.Optional(Type.Boolean()),
});

export const ContainerCreateParams = Strict({
  image: Type.String({ minLength: 1, maxLength: 512 }),
  /** Container name; defaults to `sparrow-worker-<workerId>` for a worker. */
  name: Type.Optional(ContainerRef),
  workerId: Type.Optional(Id),
  labels: Type.Optional(Labels),
  env: Type.Optional(Env),
  ports: Type.Optional(Type.Array(PortRequest, { maxItems: 64 })),
  network: Type.Optional(
    Type.Union([Type.Literal('bridge'), Type.Literal('host'), Type.Literal('none')]),
  ),
  workdir: Type.Optional(Path),
  hostname: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9.-]{0,62}$' })),
  /** The main process; defaults to one that sleeps until the container is stopped. */
  command: Type.Optional(Command),
  /** Without `command`: run the image's own command instead of the sleeping one (services). */
  imageCommand: Type.Optional(Type.Boolean()),
  /** Host paths bound into the container: for local nodes and tests, never from users. */
  mounts: Type.Optional(Type.Array(Mount, { maxItems: 32 })),
  memoryBytes: Type.Optional(Type.Integer({ minimum: 4 * 1024 * 1024 })),
  cpus: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1024 })),
  /** The engine's restart policy (services: `unless-stopped`, so a crashed replica comes back). */
  restart: Type.Optional(
    Type.Union([Type.Literal('no'), Type.Literal('on-failure'), Type.Literal('unless-stopped')]),
  ),
});
export type ContainerCreateParams = Static<typeof ContainerCreateParams>;

export const ContainerStartParams = Strict({
  ...containerId,
  /** Cloned after start when their path holds no repository yet. */
  repositories: Type.Optional(Type.Array(Repository, { maxItems: 32 })),
  /** Environment for the clones (credential helpers, GIT_* settings). */
  gitEnv: Type.Optional(Env),
});

export const ReconcileParams = Strict({
  workers: Type.Array(
    Strict({ workerId: Id, containerId: Type.Union([ContainerRef, Type.Null()]) }),
    { maxItems: 100_000 },
  ),
});

export const ReconcileResult = Strict({
  present: Type.Array(Strict({ workerId: Type.String(), container: ContainerSummary })),
  /** Workers whose container no longer exists on this node. */
  missing: Type.Array(Type.String()),
  /** Sparrow containers that belong to no worker the server named. */
  orphans: Type.Array(ContainerSummary),
});
export type ReconcileResult = Static<typeof ReconcileResult>;

export const ExecRunParams = Strict({
  ...containerId,
  command: Command,
  env: Type.Optional(Env),
  workdir: Type.Optional(Path),
  user: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  /** Bytes written to the command's standard input, which is then closed. */
  stdin: Type.Optional(Base64),
  timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 24 * 3600 * 1000 })),
  maxOutputBytes: Type.Optional(Type.Integer({ minimum: 0, maximum: 64 * 1024 * 1024 })),
});
export type ExecRunParams = Static<typeof ExecRunParams>;

export const CommandStartParams = Strict({
  ...containerId,
  command: Command,
  env: Type.Optional(Env),
  workdir: Type.Optional(Path),
  user: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
});
export type CommandStartParams = Static<typeof CommandStartParams>;

const commandId = { commandId: Id };

export const TerminalCreateParams = Strict({
  ...containerId,
  name: TerminalName,
  /** Defaults to a login shell: bash when the image has it, else sh. */
  command: Type.Optional(Command),
  env: Type.Optional(Env),
  workdir: Type.Optional(Path),
  user: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  cols: Type.Optional(TerminalCols),
  rows: Type.Optional(TerminalRows),
});
export type TerminalCreateParams = Static<typeof TerminalCreateParams>;

export const TerminalAttachParams = Strict({
  ...containerId,
  name: TerminalName,
  /** The client's size; the session takes it (the latest attachment wins). */
  cols: Type.Optional(TerminalCols),
  rows: Type.Optional(TerminalRows),
});

/** An image repository: lowercase path components, an optional registry host and port. */
const ImageRepository = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^[a-z0-9]+(?:[._-][a-z0-9]+)*(?::[0-9]{1,5})?(?:/[a-z0-9]+(?:[._-][a-z0-9]+)*)*$',
});
const ImageTag = Type.String({ pattern: '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$' });
/** `repository:tag`, `repository@sha256:...` or an image id. */
const ImageReference = Type.String({
  minLength: 1,
  maxLength: 512,
  pattern: '^[A-Za-z0-9][A-Za-z0-9._/:@-]*$',
});

export const ImageCommitParams = Strict({
  ...containerId,
  repository: ImageRepository,
  tag: ImageTag,
  /** Values are plain (no spaces or quotes): they go into `LABEL` changes as they are. */
  labels: Type.Optional(
    Type.Record(
      Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_./-]{0,127}$' }),
      Type.String({ pattern: '^[A-Za-z0-9_.:/@+-]{0,256}$' }),
      { additionalProperties: false },
    ),
  ),
});
export type ImageCommitParams = Static<typeof ImageCommitParams>;

export const ProbeParams = Strict({
  ...containerId,
  /** The container port, reached through the host port it is published on. */
  port: Port,
  /** An HTTP GET of this path must answer 2xx or 3xx; omitted: the port must accept a connection. */
  path: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, pattern: '^/' })),
  timeoutMs: Type.Integer({ minimum: 1, maximum: 600_000 }),
});

export const ProbeResult = Strict({
  ok: Type.Boolean(),
  status: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  running: Type.Boolean(),
  exitCode: Type.Union([Type.Integer(), Type.Null()]),
});

export const PortConnectParams = Strict({
  ...containerId,
  port: Port,
});

export const PortConnectResult = Strict({
  /** The container's address on the node, as the agent reached it. */
  address: Type.String(),
  port: Port,
});

interface MethodSpec {
  params: TSchema;
  result: TSchema;
  /** A streaming method answers once, then sends `stream.data` until `stream.end`. */
  stream: boolean;
}

function unary<P extends TSchema, R extends TSchema>(params: P, result: R) {
  return { params, result, stream: false as const };
}
function streaming<P extends TSchema, R extends TSchema>(params: P, result: R) {
  return { params, result, stream: true as const };
}

/** Every request the server may send, with its parameters and its result. */
export const methods = {
  'node.info': unary(Empty, NodeInfo),
  'inventory.list': unary(Empty, Strict({ containers: Type.Array(ContainerSummary) })),
  'inventory.reconcile': unary(ReconcileParams, ReconcileResult),
  'container.create': unary(ContainerCreateParams, ContainerDetails),
  'container.start': unary(
    ContainerStartParams,
    Strict({ container: ContainerDetails, checkouts: Type.Array(Checkout) }),
  ),
  'container.stop': unary(
    Strict({ ...containerId, timeoutSeconds: Type.Optional(Type.Integer({ minimum: 0 })) }),
    ContainerDetails,
  ),
  'container.remove': unary(
    Strict({ ...containerId, force: Type.Optional(Type.Boolean()) }),
    Strict({ removed: Type.Boolean() }),
  ),
  'container.inspect': unary(Strict(containerId), ContainerDetails),
  'container.probe': unary(ProbeParams, ProbeResult),
  'container.logs': unary(
    Strict({ ...containerId, tail: Type.Optional(Tail) }),
    Strict({ text: Type.String() }),
  ),
  'container.stats': unary(Strict(containerId), ContainerStats),
  'container.ports': unary(Strict(containerId), Strict({ ports: Type.Array(ListeningPort) })),
  'container.gitStatus': unary(Strict({ ...containerId, path: Path }), GitStatus),
  'exec.run': unary(ExecRunParams, ExecResult),
  'image.commit': unary(ImageCommitParams, Strict({ id: Type.String(), reference: Type.String() })),
  'image.remove': unary(Strict({ reference: ImageReference }), Strict({ removed: Type.Boolean() })),
  'command.start': unary(CommandStartParams, CommandInfo),
  'command.get': unary(Strict(commandId), CommandOutput),
  'command.list': unary(
    Strict({ containerId: Type.Optional(ContainerRef) }),
    Strict({ commands: Type.Array(CommandInfo) }),
  ),
  'command.cancel': unary(Strict(commandId), CommandInfo),
  'command.follow': streaming(Strict(commandId), CommandInfo),
  'terminal.create': unary(TerminalCreateParams, TerminalInfo),
  'terminal.list': unary(Strict(containerId), Strict({ terminals: Type.Array(TerminalInfo) })),
  'terminal.kill': unary(
    Strict({ ...containerId, name: TerminalName }),
    Strict({ killed: Type.Boolean() }),
  ),
  'terminal.attach': streaming(TerminalAttachParams, TerminalInfo),
  /**
   * A TCP connection from the agent to a container's port: `stream.input`
   * bytes go to it, its bytes come back as `stream.data`; `stream.end` when
   * either side closes. The agent sends `stream.pause` while the container
   * reads more slowly than the server writes.
   */
  'port.connect': streaming(PortConnectParams, PortConnectResult),
  'logs.follow': streaming(
    Strict({ ...containerId, tail: Type.Optional(Tail) }),
    Strict({ containerId: Type.String() }),
  ),
} satisfies Record<string, MethodSpec>;

export type Methods = typeof methods;
export type MethodName = keyof Methods;
export type ParamsOf<M extends MethodName> = Static<Methods[M]['params']>;
export type ResultOf<M extends MethodName> = Static<Methods[M]['result']>;
export type StreamMethodName = {
  [M in MethodName]: Methods[M]['stream'] extends true ? M : never;
}[MethodName];
export type UnaryMethodName = Exclude<MethodName, StreamMethodName>;

export const methodNames = Object.keys(methods) as MethodName[];

export function isMethodName(name: string): name is MethodName {
  return Object.hasOwn(methods, name);
}
