import Type, { type Static } from 'typebox';
import { Strict, Timestamp, Uuid } from '../../http/schemas.js';
import { JOB_RUN_OUTPUT_CAP } from './output.js';
import { JOB_RUN_KINDS, JOB_RUN_STATUSES } from './tables.js';

export const JOB_RUN_PAGE_DEFAULT = 20;
export const JOB_RUN_PAGE_MAX = 100;

const Kind = Type.Enum([...JOB_RUN_KINDS], {
  description:
    '`deploy` (a deploy of the service), `pre_deploy` (its pre-deploy hook, a child of the deploy), ' +
    '`cron` (a run of one of its cron jobs).',
});
const Status = Type.Enum([...JOB_RUN_STATUSES], {
  description: '`queued`, `running`, then `succeeded`, `failed` or `cancelled`.',
});
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

export const JobRun = Type.Object(
  {
    id: Uuid,
    deploymentId: Uuid,
    serviceId: Uuid,
    kind: Kind,
    jobName: Type.Union([Type.String(), Type.Null()], {
      description: "The cron job's name (cron runs only).",
    }),
    parentId: Type.Union([Uuid, Type.Null()], {
      description: 'The deploy run a pre-deploy hook ran for.',
    }),
    status: Status,
    reason: Type.Union([Type.String(), Type.Null()], {
      description: 'Why it failed or was cancelled, in words.',
    }),
    exitCode: Type.Union([Type.Integer(), Type.Null()], {
      description: "The exit code of the run's command, when it ran one and it ended.",
    }),
    image: Type.Union([Type.String(), Type.Null()], {
      description: 'The image it ran; a deploy records it so that it can be deployed again.',
    }),
    scheduledAt: Type.Union([Timestamp, Type.Null()], {
      description: 'The cron tick it ran for (cron runs only).',
    }),
    createdAt: Timestamp,
    startedAt: NullableTimestamp,
    endedAt: NullableTimestamp,
    outputBytes: Type.Integer({
      minimum: 0,
      description: `Bytes of output kept (at most ${JOB_RUN_OUTPUT_CAP}, 1 MiB).`,
    }),
    outputTruncated: Type.Boolean({
      description: 'True when the run wrote more than the cap: what came past it was dropped.',
    }),
  },
  { title: 'JobRun' },
);
export type JobRun = Static<typeof JobRun>;

export const JobRunPage = Type.Object(
  {
    runs: Type.Array(JobRun),
    nextBefore: Type.Union([Uuid, Type.Null()], {
      description: 'Pass as `before` for the next (older) page; null on the last page.',
    }),
  },
  { title: 'JobRunPage' },
);
export type JobRunPage = Static<typeof JobRunPage>;

export const JobRunQuery = Strict({
  kind: Type.Optional(Type.Array(Kind, { description: 'Repeat to include several kinds.' })),
  status: Type.Optional(Type.Array(Status, { description: 'Repeat to include several statuses.' })),
  before: Type.Optional(
    Type.String({
      format: 'uuid',
      description:
        'A run id of this list (`nextBefore` of the previous page): only runs older than it.',
    }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: JOB_RUN_PAGE_MAX,
      description: `Default ${JOB_RUN_PAGE_DEFAULT}, at most ${JOB_RUN_PAGE_MAX}.`,
    }),
  ),
});
export type JobRunQuery = Static<typeof JobRunQuery>;

export const RunParams = Strict({ orgId: Uuid, runId: Uuid });
export const RunSocketParams = Strict({ runId: Uuid });
export const CronJobParams = Strict({
  orgId: Uuid,
  deploymentId: Uuid,
  serviceId: Uuid,
  jobName: Type.String({ minLength: 1, maxLength: 100, description: "The cron job's `name`." }),
});
