import Type, { type Static, type TSchema } from 'typebox';
import { Strict, Timestamp, Uuid } from '../../http/schemas.js';
import { BUILD_STATUSES, STEP_STATUSES } from './tables.js';

function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

export const BuildParams = Strict({ buildId: Uuid });

export const BuildStep = Type.Object(
  {
    name: Type.String({
      description: '`base image`, `repositories`, `feature <id>` (one per feature), `commit`.',
    }),
    status: Type.Enum(STEP_STATUSES, {
      description:
        '`skipped`: not run, with the reason in `message` (a feature, which cannot be installed ' +
        'yet; a project without repositories; a step after a failed one).',
    }),
    startedAt: Nullable(Timestamp),
    finishedAt: Nullable(Timestamp),
    message: Nullable(Type.String({ description: 'What the step did, or why it failed.' })),
  },
  { title: 'ImageBuildStep' },
);

export const ImageBuild = Type.Object(
  {
    id: Uuid,
    orgId: Uuid,
    projectId: Uuid,
    nodeId: Uuid,
    projectVersion: Type.Integer({ description: 'The project version built.' }),
    baseImage: Type.String({ description: 'The image built from (the `WORKER_IMAGE` then).' }),
    image: Type.String({
      description:
        'The image made on the node: `localhost/sparrow/project-<projectId>:v<version>-<buildId>`.',
    }),
    status: Type.Enum(BUILD_STATUSES),
    current: Type.Boolean({
      description:
        'New workers of the project on this node start from this image: it is the latest ' +
        'successful build of the current project version from the current base image there.',
    }),
    steps: Type.Array(BuildStep),
    log: Type.String({ description: 'What the build did, line by line.' }),
    error: Nullable(Type.String({ description: 'Why a `failed` build failed.' })),
    createdBy: Nullable(Uuid),
    createdAt: Timestamp,
    startedAt: Nullable(Timestamp),
    finishedAt: Nullable(Timestamp),
  },
  { title: 'ImageBuild' },
);
export type ImageBuild = Static<typeof ImageBuild>;
