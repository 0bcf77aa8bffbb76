import { type ColumnType, type Generated, sql } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { badRequest } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import type { SecretInfo } from '../common/schemas.js';
import { decryptSecret, encryptSecret } from './cipher.js';
import { secretsKeyring } from './keyring.js';

/**
 * The shape of every table of encrypted secrets (project and user secrets):
 * one row per owner and name, the value encrypted with AES-256-GCM.
 */
export interface EncryptedSecretsTable {
  id: string;
  /** The project or user the secret belongs to. */
  owner_id: string;
  name: string;
  /** base64 of ciphertext and GCM tag; never the value. */
  ciphertext: string;
  nonce: string;
  key_id: string;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** The tables that hold secrets; each module owns its own and hands it to a store. */
export type SecretsTableName =
  | 'project_secrets'
  | 'user_secrets'
  | 'deployment_secrets'
  | 'service_secrets';

interface SecretRow {
  id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
}

const infoColumns = ['id', 'name', 'created_at', 'updated_at'] as const;

function toSecretInfo(row: SecretRow): SecretInfo {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * Reads and writes the secrets of one table. Values go in encrypted and come
 * out only through `decrypt`; everything else returns names. The owner and
 * name are the associated data of each ciphertext, so a ciphertext copied to
 * another row does not decrypt.
 */
export function secretStore(options: {
  table: SecretsTableName;
  /** Prefix of the associated data, such as `project-secret`. */
  context: string;
  /** Most secrets one owner holds. */
  max: number;
  /** Who holds them, for the limit's message: "A project". */
  ownerLabel: string;
}) {
  const { table, max } = options;
  const context = (ownerId: string, name: string) => `${options.context}:${ownerId}:${name}`;

  return {
    /** Names of an owner's secrets, by name. */
    async list(db: Database, ownerId: string): Promise<SecretInfo[]> {
      const rows = await db
        .selectFrom(table)
        .select(infoColumns)
        .where('owner_id', '=', ownerId)
        .orderBy('name')
        .execute();
      return rows.map(toSecretInfo);
    },

    /** Names of the secrets of several owners, by owner, each list by name. */
    async listOf(db: Database, ownerIds: readonly string[]): Promise<Map<string, SecretInfo[]>> {
      const byOwner = new Map<string, SecretInfo[]>();
      if (ownerIds.length === 0) return byOwner;
      const rows = await db
        .selectFrom(table)
        .select([...infoColumns, 'owner_id'])
        .where('owner_id', 'in', ownerIds)
        .orderBy('owner_id')
        .orderBy('name')
        .execute();
      for (const row of rows) {
        byOwner.set(row.owner_id, [...(byOwner.get(row.owner_id) ?? []), toSecretInfo(row)]);
      }
      return byOwner;
    },

    /**
     * Creates the secret or replaces its value, in one statement. A replaced
     * secret keeps its id, so the id returned tells whether it was created.
     */
    async write(
      db: Database,
      config: Config,
      ownerId: string,
      name: string,
      value: string,
    ): Promise<{ secret: SecretInfo; created: boolean }> {
      const keyring = await secretsKeyring(config);
      const encrypted = encryptSecret(keyring, value, context(ownerId, name));
      const stored = {
        ciphertext: encrypted.ciphertext,
        nonce: encrypted.nonce,
        key_id: encrypted.keyId,
      };
      const id = newId();
      const row = await db
        .insertInto(table)
        .values({ id, owner_id: ownerId, name, ...stored })
        .onConflict((conflict) =>
          conflict
            .columns(['owner_id', 'name'])
            .doUpdateSet({ ...stored, updated_at: sql<Date>`now()` }),
        )
        .returning(infoColumns)
        .executeTakeFirstOrThrow();
      return { secret: toSecretInfo(row), created: row.id === id };
    },

    async removeByName(db: Database, ownerId: string, name: string): Promise<void> {
      await db.deleteFrom(table).where('owner_id', '=', ownerId).where('name', '=', name).execute();
    },

    /** False when the owner has no secret with this id. */
    async removeById(db: Database, ownerId: string, secretId: string): Promise<boolean> {
      const deleted = await db
        .deleteFrom(table)
        .where('owner_id', '=', ownerId)
        .where('id', '=', secretId)
        .returning('id')
        .executeTakeFirst();
      return deleted !== undefined;
    },

    /** Throws 400 `too_many_secrets` when the owner now holds more than the limit. */
    async ensureWithinLimit(db: Database, ownerId: string): Promise<void> {
      const { count } = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('owner_id', '=', ownerId)
        .executeTakeFirstOrThrow();
      if (Number(count) > max) {
        throw badRequest('too_many_secrets', `${options.ownerLabel} holds at most ${max} secrets`, {
          max,
        });
      }
    },

    /**
     * Applies the `secrets` list of a create or PATCH (the caller has checked
     * the right to write secrets and locked the owner): a string value
     * creates or replaces, null removes, names not mentioned stay. A name
     * given twice is refused (400 `duplicate_secret_name`), and so is going
     * over the limit.
     */
    async applyChanges(
      db: Database,
      config: Config,
      ownerId: string,
      changes: readonly { name: string; value: string | null }[],
    ): Promise<void> {
      if (changes.length === 0) return;
      const names = new Set<string>();
      for (const { name } of changes) {
        if (names.has(name)) {
          throw badRequest('duplicate_secret_name', `The secret ${name} is changed twice`, {
            name,
          });
        }
        names.add(name);
      }
      for (const { name, value } of changes) {
        if (value === null) await this.removeByName(db, ownerId, name);
        else await this.write(db, config, ownerId, name, value);
      }
      await this.ensureWithinLimit(db, ownerId);
    },

    /** The decrypted values, by name: only for the code that starts workers, never a route. */
    async decrypt(
      db: Database,
      config: Config,
      ownerId: string,
    ): Promise<Array<{ name: string; value: string }>> {
      const rows = await db
        .selectFrom(table)
        .select(['name', 'ciphertext', 'nonce', 'key_id'])
        .where('owner_id', '=', ownerId)
        .orderBy('name')
        .execute();
      if (rows.length === 0) return [];
      const keyring = await secretsKeyring(config);
      return rows.map((row) => ({
        name: row.name,
        value: decryptSecret(
          keyring,
          { ciphertext: row.ciphertext, nonce: row.nonce, keyId: row.key_id },
          context(ownerId, row.name),
        ),
      }));
    },
  };
}

/** A table's secret store, as `secretStore` makes it. */
export type SecretStore = ReturnType<typeof secretStore>;
