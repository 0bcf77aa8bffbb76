import Type, { type Static } from 'typebox';
import { NodeInfo } from './methods.js';
import {
  Base64,
  CommandInfo,
  ContainerSummary,
  Id,
  Strict,
  TerminalCols,
  TerminalInfo,
  TerminalRows,
  Timestamp,
} from './schemas.js';

/** Bumped on any change a peer of the previous version would misread. */
export const PROTOCOL_VERSION = 1;

/** WebSocket close codes the server uses to refuse an agent. */
export const CloseCodes = {
  /** The node token is unknown or was rotated: reconnecting will not help. */
  unauthorized: 4401,
  /** Another connection of the same node replaced this one. */
  replaced: 4409,
  /** The peer sent a message that is not valid protocol. */
  protocolError: 4400,
} as const;

export const ErrorPayload = Strict({
  /** Stable: not_found, image_not_found, terminal_not_found, terminal_exists, ... */
  code: Type.String(),
  message: Type.String(),
});
export type ErrorPayload = Static<typeof ErrorPayload>;

export const Channel = Type.Union([Type.Literal('stdout'), Type.Literal('stderr')]);
export type Channel = Static<typeof Channel>;

// Agent to server.

export const HelloMessage = Strict({
  type: Type.Literal('hello'),
  protocol: Type.Integer({ minimum: 1 }),
  node: NodeInfo,
  /** Containers labelled `sparrow.managed`, as they are now. */
  inventory: Type.Array(ContainerSummary),
  /** Sessions and commands that outlived the previous connection. */
  terminals: Type.Array(TerminalInfo),
  commands: Type.Array(CommandInfo),
  /** The agent reads and writes stream bytes as binary messages (`binary.ts`) if the server agrees. */
  binaryFrames: Type.Optional(Type.Boolean()),
});
export type HelloMessage = Static<typeof HelloMessage>;

export const ResponseMessage = Type.Union([
  Strict({
    type: Type.Literal('response'),
    id: Id,
    ok: Type.Literal(true),
    result: Type.Unknown(),
  }),
  Strict({ type: Type.Literal('response'), id: Id, ok: Type.Literal(false), error: ErrorPayload }),
]);
export type ResponseMessage = Static<typeof ResponseMessage>;

/** Bytes of a stream opened by the request with the same id. */
export const StreamDataMessage = Strict({
  type: Type.Literal('stream.data'),
  id: Id,
  data: Base64,
  channel: Type.Optional(Channel),
});
export type StreamDataMessage = Static<typeof StreamDataMessage>;

/** The stream is over: the program exited, the session was killed, or an error. */
export const StreamEndMessage = Strict({
  type: Type.Literal('stream.end'),
  id: Id,
  exitCode: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  error: Type.Optional(ErrorPayload),
});
export type StreamEndMessage = Static<typeof StreamEndMessage>;

/**
 * Flow control the other way (`port.connect`): what the server sends with
 * `stream.input` backs up at the agent; the server stops sending input for
 * this stream until `stream.resume`.
 */
export const InputPauseMessage = Strict({
  type: Type.Literal('stream.pause'),
  id: Id,
});
export type InputPauseMessage = Static<typeof InputPauseMessage>;

export const InputResumeMessage = Strict({
  type: Type.Literal('stream.resume'),
  id: Id,
});
export type InputResumeMessage = Static<typeof InputResumeMessage>;

/** Sent when the engine reports a container change, so the server's view stays live. */
export const InventoryMessage = Strict({
  type: Type.Literal('inventory'),
  containers: Type.Array(ContainerSummary),
  at: Timestamp,
});
export type InventoryMessage = Static<typeof InventoryMessage>;

export const AgentMessage = Type.Union([
  HelloMessage,
  ResponseMessage,
  StreamDataMessage,
  StreamEndMessage,
  InputPauseMessage,
  InputResumeMessage,
  InventoryMessage,
]);
export type AgentMessage = Static<typeof AgentMessage>;

// Server to agent.

export const WelcomeMessage = Strict({
  type: Type.Literal('welcome'),
  nodeId: Type.String(),
  serverTime: Timestamp,
  /** Answers the hello's `binaryFrames`: from now on stream bytes may go as binary messages. */
  binaryFrames: Type.Optional(Type.Boolean()),
});
export type WelcomeMessage = Static<typeof WelcomeMessage>;

/** The envelope; `params` are checked against the method's own schema. */
export const RequestMessage = Strict({
  type: Type.Literal('request'),
  id: Id,
  method: Type.String({ maxLength: 64 }),
  params: Type.Unknown(),
});
export type RequestMessage = Static<typeof RequestMessage>;

export const StreamInputMessage = Strict({
  type: Type.Literal('stream.input'),
  id: Id,
  data: Base64,
});
export type StreamInputMessage = Static<typeof StreamInputMessage>;

export const StreamResizeMessage = Strict({
  type: Type.Literal('stream.resize'),
  id: Id,
  cols: TerminalCols,
  rows: TerminalRows,
});
export type StreamResizeMessage = Static<typeof StreamResizeMessage>;

/** Detach: the agent stops sending; a terminal's program keeps running. */
export const StreamCloseMessage = Strict({
  type: Type.Literal('stream.close'),
  id: Id,
});
export type StreamCloseMessage = Static<typeof StreamCloseMessage>;

/**
 * Flow control: the server's client is backed up. The agent stops reading
 * what feeds the stream (a terminal's program blocks on its TTY) until
 * `stream.resume`; nothing is dropped.
 */
export const StreamPauseMessage = Strict({
  type: Type.Literal('stream.pause'),
  id: Id,
});
export type StreamPauseMessage = Static<typeof StreamPauseMessage>;

export const StreamResumeMessage = Strict({
  type: Type.Literal('stream.resume'),
  id: Id,
});
export type StreamResumeMessage = Static<typeof StreamResumeMessage>;

export const ServerMessage = Type.Union([
  WelcomeMessage,
  RequestMessage,
  StreamInputMessage,
  StreamResizeMessage,
  StreamCloseMessage,
  StreamPauseMessage,
  StreamResumeMessage,
]);
export type ServerMessage = Static<typeof ServerMessage>;
