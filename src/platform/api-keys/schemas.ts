import Type, { type Static } from 'typebox';
import { Strict, Timestamp, Uuid } from '../../http/schemas.js';
import { SCOPE_GRANTS, SCOPES } from '../access/scopes.js';

const scopeList = SCOPES.map((scope) => `- \`${scope}\`: ${SCOPE_GRANTS[scope]}`).join('\n');

export const ScopeSchema = Type.Enum(SCOPES, {
  description: `A scope of the form \`resource:action\`, or \`*\` for all:\n${scopeList}`,
});

export const OwnerType = Type.Enum(['user', 'org'], {
  description:
    '`user`: a personal key that acts as its creator (with their current role) and stops working when they leave the organization. ' +
    '`org`: a service account that acts as the organization (role `admin`) and survives its creator; creating one needs owner or admin.',
});

const keyProperties = {
  id: Uuid,
  orgId: Uuid,
  name: Type.String(),
  ownerType: OwnerType,
  scopes: Type.Array(ScopeSchema),
  tokenPrefix: Type.String({
    description:
      'The first characters of the token (`spk_` and 4 more): the only part ever shown again.',
  }),
  createdBy: Type.Union([Uuid, Type.Null()], {
    description: 'The account that created the key; null once that account is deleted.',
  }),
  createdAt: Timestamp,
  lastUsedAt: Type.Union([Timestamp, Type.Null()], {
    description:
      'When the key last authenticated a request, to the minute: it is written at most once a minute.',
  }),
  revokedAt: Type.Union([Timestamp, Type.Null()], {
    description: 'When the key was revoked; revoked keys stay listed.',
  }),
  active: Type.Boolean({
    description:
      'Whether the key authenticates requests: false once revoked, and for a personal key once its creator has left the organization.',
  }),
};

export const ApiKey = Type.Object(keyProperties, { title: 'ApiKey' });
export type ApiKey = Static<typeof ApiKey>;

export const CreatedApiKey = Type.Object(
  {
    ...keyProperties,
    token: Type.String({
      description:
        'The full token (`spk_...`), shown only in this response; only its SHA-256 is stored.',
    }),
  },
  { title: 'CreatedApiKey' },
);
export type CreatedApiKey = Static<typeof CreatedApiKey>;

export const CreateApiKeyBody = Strict(
  {
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    ownerType: OwnerType,
    scopes: Type.Array(ScopeSchema, { minItems: 1, maxItems: SCOPES.length, uniqueItems: true }),
  },
  { title: 'CreateApiKey' },
);
export type CreateApiKeyBody = Static<typeof CreateApiKeyBody>;

export const KeyParams = Strict({ orgId: Uuid, keyId: Uuid });
