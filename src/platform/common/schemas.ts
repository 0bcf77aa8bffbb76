import Type, { type Static } from 'typebox';
import { Strict, Timestamp, Uuid } from '../../http/schemas.js';

/** A repository to clone: https, ssh or git URL, or the scp-like `user@host:path`. */
export const GitUrl = Type.String({
  minLength: 1,
  maxLength: 2048,
  pattern: '^(?:(?:https?|ssh|git)://[^\\s/]+\\S*|[\\w.-]+@[\\w.-]+:\\S+)$',
  description: 'An `https://`, `ssh://` or `git://` URL, or `user@host:path`.',
});

export const BranchName = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^(?!.*\\.\\.)[^\\s\\x00-\\x1f\\x7f~^:?*\\[\\\\]+$',
  description: 'A git branch name.',
});

/** An editor extension: `publisher.name`, optionally `@version`. */
export const ExtensionId = Type.String({
  minLength: 3,
  maxLength: 256,
  pattern: '^[A-Za-z0-9][A-Za-z0-9-]*\\.[A-Za-z0-9][A-Za-z0-9._-]*(?:@[A-Za-z0-9._+-]+)?$',
  description: 'An editor extension id, `publisher.name` (optionally `@version`).',
});

export const Extensions = Type.Array(ExtensionId, {
  maxItems: 100,
  uniqueItems: true,
  description: 'Editor extension ids, each at most once. An empty list removes them all.',
});

export const SecretName = Type.String({
  minLength: 1,
  maxLength: 128,
  pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
  description: 'An environment variable name: letters, digits and `_`, not starting with a digit.',
});

export const SecretValue = Type.String({
  maxLength: 32768,
  description: 'Write-only: stored encrypted and never returned by any route.',
});

/** A secret as every route shows it: its name, never its value. */
export const SecretInfo = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'SecretInfo', description: 'A secret without its value, which is never returned.' },
);
export type SecretInfo = Static<typeof SecretInfo>;

export const SetSecretBody = Strict(
  { name: SecretName, value: SecretValue },
  {
    title: 'SetSecret',
    description: 'Creates the secret, or replaces the value of the secret of this name.',
  },
);
export type SetSecretBody = Static<typeof SetSecretBody>;

/**
 * Empty or whitespace-only text, accepted beside a stricter format where
 * the PATCH rule says such text clears the field (null is stored).
 */
export const BlankText = Type.String({ maxLength: 256, pattern: '^\\s*$', title: 'BlankText' });

/** A free-text field in a PATCH: empty or whitespace (or null) clears it to null. */
export function ClearableText(maxLength: number, description: string) {
  return Type.Union([Type.String({ maxLength }), Type.Null()], {
    description: `${description} An empty or whitespace-only string (or null) clears it to null.`,
  });
}

const SecretChange = Strict(
  {
    name: SecretName,
    value: Type.Union([SecretValue, Type.Null()], {
      description: 'A string creates or replaces the secret; null removes it.',
    }),
  },
  { title: 'SecretChange' },
);

/** The write-only `secrets` of a create or PATCH body: changes by name. */
export function SecretChanges(max: number, who: string) {
  return Type.Array(SecretChange, {
    maxItems: max,
    description:
      'Write-only secret changes, each name at most once; names not mentioned are kept. ' +
      `Needs owner or admin, and for an API key the scope \`secrets:write\` too (besides ${who}).`,
  });
}

/** Environment variables: a name to its value, replaced as a whole by a PATCH. */
export function EnvVars(description: string) {
  return Type.Record(SecretName, Type.String({ maxLength: 32768 }), {
    maxProperties: 100,
    additionalProperties: false,
    description: `${description} Replaced as a whole; \`{}\` removes them all.`,
  });
}
