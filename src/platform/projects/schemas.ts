import Type, { type Static } from 'typebox';
import { Strict, Timestamp, Uuid } from '../../http/schemas.js';
import {
  BranchName,
  ClearableText,
  Extensions,
  GitUrl,
  SecretChanges,
  SecretInfo,
} from '../common/schemas.js';

export const MAX_REPOSITORIES = 20;
export const MAX_PROJECT_SECRETS = 100;

const ProjectName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });

const Description = ClearableText(2000, 'Free text, up to 2000 characters.');

const RepositoryInput = Strict({
  url: GitUrl,
  branch: Type.Optional(
    Type.Union([BranchName, Type.Null()], {
      description: 'The branch to check out; omitted or null: the default branch.',
    }),
  ),
});

const Repositories = Type.Array(RepositoryInput, {
  maxItems: MAX_REPOSITORIES,
  description:
    'Repositories cloned into each worker, each URL at most once. An empty list removes them all.',
});

const FeatureOptions = Type.Record(
  Type.String({ pattern: '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$' }),
  Type.Union([Type.String({ maxLength: 4096 }), Type.Boolean()]),
  { additionalProperties: false, maxProperties: 100 },
);

const Features = Type.Record(
  Type.String({
    pattern:
      '^(?:https://\\S{1,500}|[a-z0-9][a-z0-9._/-]{0,400}(?::[A-Za-z0-9._-]{1,128}|@sha256:[a-f0-9]{64})?)$',
  }),
  FeatureOptions,
  {
    additionalProperties: false,
    maxProperties: 50,
    description:
      'Dev container features: a feature id (`ghcr.io/devcontainers/features/node:1`, or an https URL of a tarball) ' +
      'to its options (strings and booleans). Replaced as a whole; `{}` removes them all.',
  },
);

const ForwardPorts = Type.Array(Type.Integer({ minimum: 1, maximum: 65535 }), {
  maxItems: 100,
  uniqueItems: true,
  description:
    'Ports forwarded from each worker, each at most once. An empty list removes them all.',
});

const SecretChangesInput = SecretChanges(MAX_PROJECT_SECRETS, '`projects:write`');

export const CreateProjectBody = Strict(
  {
    name: ProjectName,
    description: Type.Optional(Description),
    repositories: Type.Optional(Repositories),
    features: Type.Optional(Features),
    extensions: Type.Optional(Extensions),
    forwardPorts: Type.Optional(ForwardPorts),
    secrets: Type.Optional(SecretChangesInput),
  },
  { title: 'CreateProject' },
);
export type CreateProjectBody = Static<typeof CreateProjectBody>;

export const UpdateProjectBody = Strict(
  {
    name: Type.Optional(ProjectName),
    description: Type.Optional(Description),
    repositories: Type.Optional(Repositories),
    features: Type.Optional(Features),
    extensions: Type.Optional(Extensions),
    forwardPorts: Type.Optional(ForwardPorts),
    secrets: Type.Optional(SecretChangesInput),
  },
  {
    title: 'UpdateProject',
    description:
      'Only the fields sent change. Lists and `features` are replaced as a whole (send `[]` or `{}` to empty them); ' +
      'an empty or whitespace `description` clears it to null; an omitted field is never erased.',
  },
);
export type UpdateProjectBody = Static<typeof UpdateProjectBody>;

const configProperties = {
  name: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  repositories: Type.Array(
    Type.Object({ url: Type.String(), branch: Type.Union([Type.String(), Type.Null()]) }),
  ),
  features: Type.Record(
    Type.String(),
    Type.Record(Type.String(), Type.Union([Type.String(), Type.Boolean()])),
  ),
  extensions: Type.Array(Type.String()),
  forwardPorts: Type.Array(Type.Integer()),
};

export const ProjectConfig = Type.Object(configProperties, {
  title: 'ProjectConfig',
  description: 'A project configuration as a version records it: never secrets.',
});

export const Project = Type.Object(
  {
    id: Uuid,
    orgId: Uuid,
    ...configProperties,
    secrets: Type.Array(SecretInfo, {
      description: 'Secret names, by name; values are never returned.',
    }),
    version: Type.Integer({ description: 'The number of the latest configuration version.' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Project' },
);
export type Project = Static<typeof Project>;

export const ProjectVersion = Type.Object(
  {
    version: Type.Integer({ minimum: 1 }),
    action: Type.Enum(['create', 'update', 'restore']),
    restoredFrom: Type.Union([Type.Integer(), Type.Null()], {
      description: 'For a restore: the version it copied.',
    }),
    config: ProjectConfig,
    createdBy: Type.Object({
      userId: Type.Union([Uuid, Type.Null()], {
        description: "The person, or a personal key's creator.",
      }),
      apiKeyId: Type.Union([Uuid, Type.Null()], {
        description: 'The API key, when one made the change.',
      }),
    }),
    createdAt: Timestamp,
  },
  { title: 'ProjectVersion' },
);
export type ProjectVersion = Static<typeof ProjectVersion>;

export const ProjectVersionPage = Type.Object(
  {
    versions: Type.Array(ProjectVersion),
    nextBefore: Type.Union([Type.Integer(), Type.Null()], {
      description: 'Pass as `before` for the next (older) page; null on the last page.',
    }),
  },
  { title: 'ProjectVersionPage' },
);
export type ProjectVersionPage = Static<typeof ProjectVersionPage>;

export const VersionQuery = Strict({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  before: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 2147483647,
      description: 'Only versions older than this number.',
    }),
  ),
});

export const ProjectParams = Strict({ orgId: Uuid, projectId: Uuid });
export const VersionParams = Strict({
  orgId: Uuid,
  projectId: Uuid,
  version: Type.Integer({ minimum: 1, maximum: 2147483647 }),
});
export const ProjectSecretParams = Strict({ orgId: Uuid, projectId: Uuid, secretId: Uuid });
