import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useDatabase } from '../../../test/fixtures/database.js';
import { insertUser } from '../../accounts/repository.js';
import { loadConfig } from '../../config.js';
import { inTransaction } from '../../db/transaction.js';
import { newId } from '../../lib/ids.js';
import { secretStore } from './store.js';

const t = useDatabase();
const config = loadConfig({ SECRETS_KEY: Buffer.alloc(32, 9).toString('base64') });
const store = secretStore({
  table: 'user_secrets',
  context: 'test-secret',
  max: 2,
  ownerLabel: 'A user',
});

async function owner(): Promise<string> {
  const user = await insertUser(t.db, {
    id: newId(),
    email: `secrets-${randomBytes(5).toString('hex')}@example.test`,
    name: 'Secret keeper',
    password_hash: 'not used',
  });
  return user.id;
}

/** The secret store's rules on the database alone. */
describe('a secret store', () => {
  it('creates, then replaces in place, lists names only and decrypts the values', async () => {
    const id = await owner();
    const first = await store.write(t.db, config, id, 'TOKEN', 'one');
    const second = await store.write(t.db, config, id, 'TOKEN', 'two');
    expect(first.created).toBe(true);
    expect(second).toMatchObject({
      created: false,
      secret: { id: first.secret.id, name: 'TOKEN' },
    });
    const listed = await store.list(t.db, id);
    expect(listed.map((secret) => Object.keys(secret).sort())).toEqual([
      ['createdAt', 'id', 'name', 'updatedAt'],
    ]);
    expect(await store.decrypt(t.db, config, id)).toEqual([{ name: 'TOKEN', value: 'two' }]);
    const stored = await t.db
      .selectFrom('user_secrets')
      .select('ciphertext')
      .where('owner_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored.ciphertext).not.toContain('two');
  });

  it('does not decrypt a ciphertext copied to another owner', async () => {
    const from = await owner();
    const to = await owner();
    await store.write(t.db, config, from, 'KEY', 'secret value');
    const row = await t.db
      .selectFrom('user_secrets')
      .select(['ciphertext', 'nonce', 'key_id'])
      .where('owner_id', '=', from)
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('user_secrets')
      .values({ id: newId(), owner_id: to, name: 'KEY', ...row })
      .execute();
    await expect(store.decrypt(t.db, config, to)).rejects.toThrow();
  });

  it('refuses a name changed twice and going over the limit, and the transaction writes nothing', async () => {
    const id = await owner();
    await store.write(t.db, config, id, 'A', 'a');
    const apply = (changes: { name: string; value: string | null }[]) =>
      inTransaction(t.db, (trx) => store.applyChanges(trx, config, id, changes));
    await expect(
      apply([
        { name: 'B', value: 'b' },
        { name: 'B', value: null },
      ]),
    ).rejects.toMatchObject({ status: 400, code: 'duplicate_secret_name' });
    await expect(
      apply([
        { name: 'B', value: 'b' },
        { name: 'C', value: 'c' },
      ]),
    ).rejects.toMatchObject({ status: 400, code: 'too_many_secrets' });
    expect((await store.list(t.db, id)).map((secret) => secret.name)).toEqual(['A']);
    await apply([
      { name: 'A', value: null },
      { name: 'B', value: 'b' },
      { name: 'C', value: 'c' },
    ]);
    expect(await store.decrypt(t.db, config, id)).toEqual([
      { name: 'B', value: 'b' },
      { name: 'C', value: 'c' },
    ]);
  });
});
