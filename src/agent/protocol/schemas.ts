import Type, { type Static, type TSchema } from 'typebox';
import { Format } from 'typebox/format';

/**
 * Shapes shared by the agent protocol's requests and results. Every object
 * refuses unknown properties, so both ends notice a peer speaking another
 * version instead of silently dropping fields.
 */
export function Strict<T extends Record<string, TSchema>>(properties: T) {
  return Type.Object(properties, { additionalProperties: false });
}

export const Id = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$' });

/** A container id or name, as the engine accepts them. */
export const ContainerRef = Type.String({
  minLength: 1,
  maxLength: 128,
  pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$',
});

export const TerminalName = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$' });

/**
 * Canonical base64 (with padding). Checked by a decode and re-encode, which
 * runs natively about ten times faster than the equivalent regular
 * expression: terminal output crosses here at tens of megabytes a second.
 */
Format.Set(
  'sparrow-base64',
  (value) => value.length % 4 === 0 && Buffer.from(value, 'base64').toString('base64') === value,
);

/** Raw bytes on the wire. */
export const Base64 = Type.String({ format: 'sparrow-base64' });

export const EnvName = '^[A-Za-z_][A-Za-z0-9_]*$';
// Keys outside the pattern are refused, not merely left unchecked.
export const Env = Type.Record(
  Type.String({ pattern: EnvName }),
  Type.String({ maxLength: 65536 }),
  { additionalProperties: false },
);
export type Env = Static<typeof Env>;

export const Labels = Type.Record(
  Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_./-]{0,127}$' }),
  Type.String({ maxLength: 4096 }),
  { additionalProperties: false },
);

export const Command = Type.Array(Type.String({ maxLength: 65536 }), {
  minItems: 1,
  maxItems: 1024,
});

export const Timestamp = Type.String({ format: 'date-time' });

export const Port = Type.Integer({ minimum: 1, maximum: 65535 });

export const TerminalCols = Type.Integer({ minimum: 1, maximum: 1000 });
export const TerminalRows = Type.Integer({ minimum: 1, maximum: 1000 });

export const ContainerState = Type.Union([
  Type.Literal('created'),
  Type.Literal('running'),
  Type.Literal('paused'),
  Type.Literal('restarting'),
  Type.Literal('exited'),
  Type.Literal('removing'),
  Type.Literal('dead'),
  Type.Literal('unknown'),
]);
export type ContainerState = Static<typeof ContainerState>;

export const PortMapping = Strict({
  containerPort: Port,
  protocol: Type.Union([Type.Literal('tcp'), Type.Literal('udp')]),
  hostIp: Type.Union([Type.String(), Type.Null()]),
  hostPort: Type.Union([Port, Type.Null()]),
});
export type PortMapping = Static<typeof PortMapping>;

/** One container of the node, as the inventory lists it. */
export const ContainerSummary = Strict({
  id: Type.String(),
  name: Type.String(),
  image: Type.String(),
  state: ContainerState,
  /** The engine's own words, such as "Up 3 minutes". */
  status: Type.String(),
  labels: Type.Record(Type.String(), Type.String()),
  /** The `sparrow.worker` label, when the container belongs to a worker. */
  workerId: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.Union([Timestamp, Type.Null()]),
  ports: Type.Array(PortMapping),
});
export type ContainerSummary = Static<typeof ContainerSummary>;

export const ContainerDetails = Strict({
  ...ContainerSummary.properties,
  running: Type.Boolean(),
  exitCode: Type.Union([Type.Integer(), Type.Null()]),
  startedAt: Type.Union([Timestamp, Type.Null()]),
  finishedAt: Type.Union([Timestamp, Type.Null()]),
});
export type ContainerDetails = Static<typeof ContainerDetails>;

export const Repository = Strict({
  /** Anything `git clone` accepts: https URL, ssh address, or a path in the container. */
  url: Type.String({ minLength: 1, maxLength: 4096 }),
  /** Checked out, or created from the default branch when the remote lacks it. */
  branch: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  /** Absolute path in the container. */
  path: Type.String({ minLength: 2, maxLength: 1024, pattern: '^/' }),
});
export type Repository = Static<typeof Repository>;

export const Checkout = Strict({
  path: Type.String(),
  ok: Type.Boolean(),
  /** True when the path already held a repository and was left alone. */
  existing: Type.Boolean(),
  branch: Type.Union([Type.String(), Type.Null()]),
  message: Type.String(),
});
export type Checkout = Static<typeof Checkout>;

export const ContainerStats = Strict({
  cpuPercent: Type.Number({ minimum: 0, description: '100 is one full core.' }),
  onlineCpus: Type.Integer({ minimum: 0 }),
  memoryBytes: Type.Integer({ minimum: 0 }),
  memoryLimitBytes: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  memoryPercent: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
  pids: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  readAt: Timestamp,
});
export type ContainerStats = Static<typeof ContainerStats>;

export const ListeningPort = Strict({
  port: Port,
  protocol: Type.Literal('tcp'),
  family: Type.Union([Type.Literal('ipv4'), Type.Literal('ipv6')]),
  address: Type.String(),
});
export type ListeningPort = Static<typeof ListeningPort>;

export const GitFile = Strict({
  path: Type.String(),
  /** Porcelain v2 "XY": index then work tree; `?` untracked, `!` ignored, `U` conflict. */
  index: Type.String({ minLength: 1, maxLength: 1 }),
  workTree: Type.String({ minLength: 1, maxLength: 1 }),
  originalPath: Type.Optional(Type.String()),
});
export type GitFile = Static<typeof GitFile>;

export const GitStatus = Strict({
  path: Type.String(),
  /** Null when HEAD is detached. */
  branch: Type.Union([Type.String(), Type.Null()]),
  commit: Type.Union([Type.String(), Type.Null()]),
  upstream: Type.Union([Type.String(), Type.Null()]),
  ahead: Type.Integer({ minimum: 0 }),
  behind: Type.Integer({ minimum: 0 }),
  clean: Type.Boolean(),
  files: Type.Array(GitFile),
});
export type GitStatus = Static<typeof GitStatus>;

export const ExecResult = Strict({
  /** Null when the command was killed at its time-out before the engine reported a code. */
  exitCode: Type.Union([Type.Integer(), Type.Null()]),
  stdout: Type.String(),
  stderr: Type.String(),
  /** Output beyond the cap was dropped (the first bytes are kept). */
  truncated: Type.Boolean(),
  timedOut: Type.Boolean(),
  durationMs: Type.Integer({ minimum: 0 }),
});
export type ExecResult = Static<typeof ExecResult>;

export const CommandState = Type.Union([
  Type.Literal('running'),
  Type.Literal('exited'),
  Type.Literal('cancelled'),
  Type.Literal('failed'),
]);
export type CommandState = Static<typeof CommandState>;

export const CommandInfo = Strict({
  id: Type.String(),
  containerId: Type.String(),
  command: Type.Array(Type.String()),
  state: CommandState,
  exitCode: Type.Union([Type.Integer(), Type.Null()]),
  /** Why a `failed` command failed (the engine refused it, the container went away). */
  error: Type.Union([Type.String(), Type.Null()]),
  startedAt: Timestamp,
  endedAt: Type.Union([Timestamp, Type.Null()]),
  /** Bytes written so far, all channels; the agent keeps only the last `outputLimit`. */
  outputBytes: Type.Integer({ minimum: 0 }),
  droppedBytes: Type.Integer({ minimum: 0 }),
});
export type CommandInfo = Static<typeof CommandInfo>;

export const CommandOutput = Strict({
  ...CommandInfo.properties,
  stdout: Type.String(),
  stderr: Type.String(),
});
export type CommandOutput = Static<typeof CommandOutput>;

export const TerminalInfo = Strict({
  name: TerminalName,
  containerId: Type.String(),
  command: Type.Array(Type.String()),
  cols: TerminalCols,
  rows: TerminalRows,
  createdAt: Timestamp,
  /** Clients attached right now. */
  attachments: Type.Integer({ minimum: 0 }),
});
export type TerminalInfo = Static<typeof TerminalInfo>;
