import Type, { type Static } from 'typebox';
import { Command } from '../../agent/protocol/schemas.js';
import { Strict, Uuid } from '../../http/schemas.js';
import { WorkerPort } from './schemas.js';

export const LogsQuery = Strict({
  tail: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 100_000, description: 'The last lines; omitted: all.' }),
  ),
});

export const GitStatusQuery = Strict({
  path: Type.Optional(
    Type.String({
      minLength: 2,
      maxLength: 1024,
      pattern: '^/',
      description: 'One checkout; omitted: every repository of the worker.',
    }),
  ),
});

export const PortsResponse = Type.Object(
  {
    listening: Type.Array(
      Type.Object({
        port: Type.Integer(),
        protocol: Type.String(),
        family: Type.String(),
        address: Type.String(),
      }),
      { description: 'TCP ports a process in the container listens on right now.' },
    ),
    forwarded: Type.Array(WorkerPort, { description: "The project's forwarded ports and URLs." }),
  },
  { title: 'WorkerPorts' },
);

export const ExecBody = Strict(
  {
    command: Type.Union([Type.String({ minLength: 1, maxLength: 65536 }), Command], {
      description: 'A shell command line (run with `sh -c`), or an argument vector.',
    }),
    background: Type.Optional(
      Type.Boolean({
        description:
          'Answer at once (202) with the command record; it keeps running whatever the client does. ' +
          'Follow it with GET …/commands/{commandId}, cancel with POST …/commands/{commandId}/cancel.',
      }),
    ),
    env: Type.Optional(
      Type.Record(
        Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }),
        Type.String({ maxLength: 65536 }),
      ),
    ),
    workdir: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, pattern: '^/' })),
    stdin: Type.Optional(
      Type.String({
        maxLength: 10_000_000,
        description: 'Text written to standard input, which is then closed.',
      }),
    ),
    timeoutMs: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 3_600_000,
        description:
          'Waiting mode only: the command is killed after this long (default 10 minutes).',
      }),
    ),
  },
  { title: 'ExecCommand' },
);
export type ExecBody = Static<typeof ExecBody>;

export const CommandParams = Strict({
  orgId: Uuid,
  projectId: Uuid,
  workerId: Uuid,
  commandId: Uuid,
});

export const TerminalParams = Strict({
  orgId: Uuid,
  projectId: Uuid,
  workerId: Uuid,
  name: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$' }),
});

export const CreateTerminalBody = Strict(
  {
    name: Type.String({
      pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$',
      description: 'Unique in the worker (409 `terminal_exists`).',
    }),
    command: Type.Optional(Command),
    cols: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    rows: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    workdir: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, pattern: '^/' })),
  },
  { title: 'CreateTerminal' },
);
