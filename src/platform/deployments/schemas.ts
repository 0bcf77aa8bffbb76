import Type, { type Static } from 'typebox';
import { Strict, Timestamp, Uuid } from '../../http/schemas.js';
import { ClearableText, EnvVars, SecretChanges, SecretInfo } from '../common/schemas.js';
import { SERVICE_STATES } from '../services/tables.js';

export const MAX_DEPLOYMENT_SECRETS = 100;

export const ResourceName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });

const Description = ClearableText(2000, 'Free text, up to 2000 characters.');

const DeploymentEnv = EnvVars(
  'Environment variables every service of the deployment gets (a service may override them).',
);

const DeploymentSecrets = SecretChanges(MAX_DEPLOYMENT_SECRETS, '`deployments:write`');

export const CreateDeploymentBody = Strict(
  {
    name: ResourceName,
    description: Type.Optional(Description),
    env: Type.Optional(DeploymentEnv),
    secrets: Type.Optional(DeploymentSecrets),
  },
  { title: 'CreateDeployment' },
);
export type CreateDeploymentBody = Static<typeof CreateDeploymentBody>;

export const UpdateDeploymentBody = Strict(
  {
    name: Type.Optional(ResourceName),
    description: Type.Optional(Description),
    env: Type.Optional(DeploymentEnv),
    secrets: Type.Optional(DeploymentSecrets),
  },
  {
    title: 'UpdateDeployment',
    description:
      'Only the fields sent change. `env` is replaced as a whole (`{}` empties it); an empty or ' +
      'whitespace `description` clears it to null; an omitted field is never erased.',
  },
);
export type UpdateDeploymentBody = Static<typeof UpdateDeploymentBody>;

export const DeploymentState = Type.Enum(['empty', ...SERVICE_STATES, 'partial'], {
  description:
    "Summed up from its services' states: `empty` without services; the services' common state when " +
    'they all share one; else `failed` if one failed, `deploying` or `stopping` if one is moving, and ' +
    '`partial` when some run and some are stopped.',
});

export const Deployment = Type.Object(
  {
    id: Uuid,
    orgId: Uuid,
    name: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    env: Type.Record(Type.String(), Type.String()),
    secrets: Type.Array(SecretInfo, { description: 'By name; values are never returned.' }),
    state: DeploymentState,
    serviceCount: Type.Integer({ minimum: 0 }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Deployment' },
);
export type Deployment = Static<typeof Deployment>;

export const NameQuery = Strict({
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Only those whose name contains this text, whatever its case.',
    }),
  ),
});
export type NameQuery = Static<typeof NameQuery>;

export const DeploymentParams = Strict({ orgId: Uuid, deploymentId: Uuid });
