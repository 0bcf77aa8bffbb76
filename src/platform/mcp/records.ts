import Type from 'typebox';
import {
  CommandInfo,
  CommandOutput,
  GitStatus,
  TerminalInfo,
} from '../../agent/protocol/schemas.js';
import { Deployment } from '../deployments/schemas.js';
import { JobRun } from '../job-runs/schemas.js';
import { Node } from '../nodes/schemas.js';
import { Organization } from '../orgs/schemas.js';
import { Project } from '../projects/schemas.js';
import { Service } from '../services/schemas.js';
import { Worker } from '../workers/schemas.js';

/**
 * What tools/list shows of each record: the fields an agent acts on, picked
 * from the route's own schema (so a field's type and meaning are declared
 * once), with `description` saying what the record is. The structured
 * content carries the whole record as the route answers it: the other fields
 * pass through (the schemas allow them), and tools/list stays small enough
 * for an agent's context.
 */
export const ShownOrganization = Type.Object(
  Type.Pick(Organization, ['id', 'name', 'role']).properties,
  {
    description: 'An organization, with the role held in it.',
  },
);

export const ShownProject = Type.Object(
  Type.Pick(Project, ['id', 'name', 'description', 'repositories']).properties,
  {
    description: 'A project: the development environment its workers are spawned from.',
  },
);

export const ShownWorker = Type.Object(
  Type.Pick(Worker, ['id', 'name', 'projectId', 'orgId', 'state', 'stateReason', 'branch', 'urls'])
    .properties,
  {
    description: 'A worker: an isolated workspace container spawned from a project.',
  },
);

export const ShownNode = Type.Object(
  Type.Pick(Node, ['id', 'name', 'status', 'draining']).properties,
  {
    description: 'A compute node that runs workers and services.',
  },
);

export const ShownDeployment = Type.Object(
  Type.Pick(Deployment, ['id', 'name', 'description', 'state', 'serviceCount']).properties,
  {
    description: 'A deployment: a group of services started, stopped and deployed together.',
  },
);

export const ShownService = Type.Object(
  Type.Pick(Service, ['id', 'name', 'deploymentId', 'accessControl']).properties,
  {
    description: 'A service of a deployment.',
  },
);

export const ShownJobRun = Type.Object(
  Type.Pick(JobRun, ['id', 'serviceId', 'kind', 'status', 'reason', 'exitCode']).properties,
  {
    description: 'A deploy, pre-deploy hook or cron run.',
  },
);

const COMMAND_FIELDS = [
  'id',
  'command',
  'state',
  'exitCode',
  'error',
  'startedAt',
  'endedAt',
] as const;

export const ShownCommand = Type.Object(Type.Pick(CommandInfo, COMMAND_FIELDS).properties, {
  description: 'A background command.',
});

export const ShownCommandOutput = Type.Object(
  Type.Pick(CommandOutput, [...COMMAND_FIELDS, 'stdout', 'stderr', 'droppedBytes']).properties,
  {
    description: 'A background command with its output so far (the last 1 MiB is kept).',
  },
);

export const ShownGitStatus = Type.Object(
  Type.Pick(GitStatus, ['path', 'branch', 'commit', 'ahead', 'behind', 'clean', 'files'])
    .properties,
  {
    description: 'One repository checkout.',
  },
);

export const ShownTerminal = Type.Object(
  Type.Pick(TerminalInfo, ['name', 'command', 'attachments']).properties,
  {
    description: 'A persistent terminal session.',
  },
);
