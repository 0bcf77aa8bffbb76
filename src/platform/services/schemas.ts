import Type, { type Static } from 'typebox';
import { Strict, Timestamp, Uuid } from '../../http/schemas.js';
import { BlankText, BranchName, EnvVars, SecretChanges, SecretInfo } from '../common/schemas.js';
import { ResourceName } from '../deployments/schemas.js';
import { MAX_SERVICE_SECRETS } from './secrets.js';
import { SERVICE_STATES } from './tables.js';

export const MAX_CRON_JOBS = 20;
export const MAX_ALLOWLIST = 200;

const ImageReference = Type.String({
  minLength: 1,
  maxLength: 512,
  pattern: '^[a-z0-9][a-z0-9._/:@-]*$',
  description:
    'An image reference the node engine can pull or already holds, such as `busybox:1.36`.',
});

const Source = Type.Union(
  [
    Strict({ type: Type.Literal('image'), image: ImageReference }, { title: 'ImageSource' }),
    Strict(
      {
        type: Type.Literal('project'),
        projectId: Uuid,
        branch: Type.Optional(Type.Union([BranchName, Type.Null()])),
      },
      {
        title: 'ProjectSource',
        description:
          "Built from a project of the organization with the image-build pipeline; `branch` null: the project's.",
      },
    ),
  ],
  { description: 'Where the image comes from.' },
);

const Command = Type.String({
  minLength: 1,
  maxLength: 4096,
  pattern: '\\S',
  description: 'Run with `/bin/sh -c` in the container.',
});

const Port = Type.Integer({
  minimum: 1,
  maximum: 65535,
  description:
    'The container port the service answers HTTP on (its URL and health check go there).',
});

const HealthCheckInput = Strict(
  {
    path: Type.String({
      pattern: '^/[\\x21-\\x7e]*$',
      maxLength: 1024,
      description: 'Path asked with GET.',
    }),
    intervalSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 300, default: 5 })),
    timeoutSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 60, default: 2 })),
    graceSeconds: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1800,
        default: 60,
        description:
          'How long a new replica has to answer 2xx or 3xx before the deploy is rolled back.',
      }),
    ),
  },
  { title: 'HealthCheck', description: 'Needs `port`. null removes it.' },
);

const PreDeployInput = Strict(
  {
    command: Command,
    timeoutSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600, default: 600 })),
  },
  {
    title: 'PreDeployHook',
    description:
      'Runs once in a container of the new version before traffic moves (a migration); ' +
      'a non-zero exit ends the deploy with nothing moved. null removes it.',
  },
);

const CronJobInput = Strict(
  {
    name: Type.String({
      pattern: '^[a-z0-9][a-z0-9-]{0,62}$',
      description: 'Unique within the service.',
    }),
    schedule: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Five fields (minute hour day month weekday), in UTC; `@daily` style names too.',
    }),
    command: Command,
  },
  { title: 'CronJob' },
);

const CronJobs = Type.Array(CronJobInput, {
  maxItems: MAX_CRON_JOBS,
  description:
    'Each due run happens once, whatever the number of server processes. Replaced as a whole.',
});

const Allowlist = Type.Array(Uuid, {
  maxItems: MAX_ALLOWLIST,
  uniqueItems: true,
  description:
    'Members (user ids) whose personal API keys may reach the service when it is private; when it names ' +
    'anyone, also the only members who may sign in to it with a browser (empty: every member may). ' +
    'Replaced as a whole.',
});

const DomainName = Type.String({
  minLength: 4,
  maxLength: 253,
  pattern: '^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63}$',
  description: 'A domain name in lower case, such as `app.example.com`. null removes it.',
});

const settable = {
  command: Type.Optional(
    Type.Union([Command, BlankText, Type.Null()], {
      description: "null (or empty or whitespace-only text): the image's own.",
    }),
  ),
  port: Type.Optional(Type.Union([Port, Type.Null()])),
  env: Type.Optional(EnvVars("The service's variables; they override the deployment's.")),
  secrets: Type.Optional(SecretChanges(MAX_SERVICE_SECRETS, '`deployments:write`')),
  replicas: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 10,
      description: 'Containers placed across online nodes.',
    }),
  ),
  healthCheck: Type.Optional(Type.Union([HealthCheckInput, Type.Null()])),
  accessControl: Type.Optional(Type.Enum(['public', 'private'])),
  allowlist: Type.Optional(Allowlist),
  customDomain: Type.Optional(
    Type.Union([DomainName, BlankText, Type.Null()], {
      description: 'null, or empty or whitespace-only text, removes it.',
    }),
  ),
  preDeploy: Type.Optional(Type.Union([PreDeployInput, Type.Null()])),
  cronJobs: Type.Optional(CronJobs),
};

export const CreateServiceBody = Strict(
  { name: ResourceName, source: Source, ...settable },
  { title: 'CreateService' },
);
export type CreateServiceBody = Static<typeof CreateServiceBody>;

export const UpdateServiceBody = Strict(
  { name: Type.Optional(ResourceName), source: Type.Optional(Source), ...settable },
  {
    title: 'UpdateService',
    description:
      'Only the fields sent change; lists and `env` are replaced as a whole; null removes an optional ' +
      'setting. A running service takes the change at its next deploy.',
  },
);
export type UpdateServiceBody = Static<typeof UpdateServiceBody>;

export const Service = Type.Object(
  {
    id: Uuid,
    orgId: Uuid,
    deploymentId: Uuid,
    name: Type.String(),
    url: Type.String({
      format: 'uri',
      description:
        "Where the service answers: `svc-{serviceId}` under the server's service domain " +
        '(SERVICE_DOMAIN). Requests and WebSocket upgrades with this Host are proxied to a ' +
        "running replica through its node's agent; a verified custom domain answers the same.",
    }),
    source: Type.Union([
      Type.Object({ type: Type.Literal('image'), image: Type.String() }),
      Type.Object({
        type: Type.Literal('project'),
        projectId: Uuid,
        branch: Type.Union([Type.String(), Type.Null()]),
      }),
    ]),
    command: Type.Union([Type.String(), Type.Null()]),
    port: Type.Union([Type.Integer(), Type.Null()]),
    env: Type.Record(Type.String(), Type.String()),
    secrets: Type.Array(SecretInfo, { description: 'By name; values are never returned.' }),
    replicas: Type.Integer(),
    healthCheck: Type.Union([
      Type.Object({
        path: Type.String(),
        intervalSeconds: Type.Integer(),
        timeoutSeconds: Type.Integer(),
        graceSeconds: Type.Integer(),
      }),
      Type.Null(),
    ]),
    accessControl: Type.Enum(['public', 'private']),
    allowlist: Type.Array(Uuid),
    customDomain: Type.Union([
      Type.Object({
        name: Type.String(),
        verified: Type.Boolean(),
        verifiedAt: Type.Union([Timestamp, Type.Null()]),
        challenge: Type.Object(
          { type: Type.Literal('TXT'), name: Type.String(), value: Type.String() },
          { description: 'The DNS record that proves control of the domain.' },
        ),
      }),
      Type.Null(),
    ]),
    preDeploy: Type.Union([
      Type.Object({ command: Type.String(), timeoutSeconds: Type.Integer() }),
      Type.Null(),
    ]),
    cronJobs: Type.Array(
      Type.Object({ name: Type.String(), schedule: Type.String(), command: Type.String() }),
    ),
    state: Type.Enum(SERVICE_STATES, {
      description:
        '`stopped` (no container; where a new service starts), `deploying` (a deploy is queued or runs), ' +
        '`running` (the replicas of `activeRunId` serve), `stopping`, `failed` (the last move failed and ' +
        'nothing serves: `stateReason` says why). A deploy that fails while an earlier one serves leaves ' +
        'the service `running`, with `stateReason` naming the failure.',
    }),
    stateReason: Type.Union([Type.String(), Type.Null()]),
    activeRunId: Type.Union([Uuid, Type.Null()], {
      description: 'The deploy (job run) whose replicas serve traffic; null while nothing serves.',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Service' },
);
export type Service = Static<typeof Service>;

export const ServiceParams = Strict({ orgId: Uuid, deploymentId: Uuid, serviceId: Uuid });
