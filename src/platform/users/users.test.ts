import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { createUser, type TestUser } from '../../../test/helpers/factories.js';
import {
  createKey,
  createOrg,
  createPlatformTestApp,
  expectNoSecretLeaks,
  secretValue,
} from '../../../test/helpers/platform.js';
import { decryptUserSecrets } from './service.js';

const t = useApp(() => createPlatformTestApp());
let user: TestUser;

beforeAll(async () => {
  user = await createUser(t, { name: 'Dot Files' });
});

describe('/api/users/me', () => {
  it('answers 401 without a session and 403 to an API key', async () => {
    for (const response of [
      await t.api.get('/users/me'),
      await t.api.patch('/users/me', { dotfilesRepo: '' }),
      await t.api.get('/users/me/secrets'),
      await t.api.post('/users/me/secrets', { name: 'A', value: 'b' }),
      await t.api.delete('/users/me/secrets/0190d6e2-3c4b-7def-8123-456789abcdef'),
    ]) {
      expect(response.status).toBe(401);
    }
    const org = await createOrg(t, user, 'Mine');
    const key = await createKey(t, org, user, ['*']);
    const response = await t.api.post(
      '/users/me/secrets',
      { name: 'A', value: secretValue() },
      { token: key.token },
    );
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('session_required');
    expect((await t.http.get('/users/me', { token: user.token })).status).toBe(404);
  });

  it('returns the account with default settings, with the token or the session cookie', async () => {
    const expected = {
      id: user.user.id,
      email: user.user.email,
      name: 'Dot Files',
      createdAt: user.user.createdAt,
      dotfilesRepo: null,
      extensions: [],
    };
    const byToken = await t.api.get('/users/me', { token: user.token });
    expect(byToken.status).toBe(200);
    expect(byToken.body).toEqual(expected);
    const byCookie = await t.api.get('/users/me', { cookies: { session: user.token } });
    expect(byCookie.body).toEqual(expected);
  });

  it('follows the PATCH rules: named fields only, blank clears, [] empties, omitted keeps', async () => {
    const person = await createUser(t);
    const patch = async (body: Record<string, unknown>) => {
      const response = await t.api.patch('/users/me', body, { token: person.token });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body;
    };
    const set = await patch({
      dotfilesRepo: 'https://github.com/me/dotfiles',
      extensions: ['vscodevim.vim'],
    });
    expect(set).toMatchObject({
      dotfilesRepo: 'https://github.com/me/dotfiles',
      extensions: ['vscodevim.vim'],
    });
    expect(await patch({ extensions: ['eamodio.gitlens', 'vscodevim.vim'] })).toMatchObject({
      dotfilesRepo: 'https://github.com/me/dotfiles',
      extensions: ['eamodio.gitlens', 'vscodevim.vim'],
    });
    expect(await patch({ dotfilesRepo: '   ' })).toMatchObject({
      dotfilesRepo: null,
      extensions: ['eamodio.gitlens', 'vscodevim.vim'],
    });
    await patch({ dotfilesRepo: 'git@github.com:me/dotfiles.git' });
    expect((await patch({ dotfilesRepo: '' })).dotfilesRepo).toBeNull();
    await patch({ dotfilesRepo: 'git@github.com:me/dotfiles.git' });
    expect((await patch({ dotfilesRepo: null })).dotfilesRepo).toBeNull();
    expect((await patch({ extensions: [] })).extensions).toEqual([]);
    await patch({ dotfilesRepo: 'https://example.test/dots.git' });
    expect(await patch({})).toMatchObject({
      dotfilesRepo: 'https://example.test/dots.git',
      extensions: [],
    });
    // Settings are per user.
    expect((await t.api.get('/users/me', { token: user.token })).body.dotfilesRepo).toBeNull();
  });

  it('validates the PATCH body', async () => {
    for (const body of [
      { dotfilesRepo: 'not a url' },
      { dotfilesRepo: 'file:///etc/passwd' },
      { dotfilesRepo: 42 },
      { extensions: ['nodot'] },
      { extensions: null },
      { name: 'Renamed' },
      { email: 'x@example.test' },
    ]) {
      const response = await t.api.patch('/users/me', body, { token: user.token });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe('validation_failed');
    }
  });
});

describe('/api/users/me/secrets', () => {
  it('creates (201), replaces (200, same id), lists names and deletes', async () => {
    const first = secretValue('gh');
    const created = await t.api.post(
      '/users/me/secrets',
      { name: 'GITHUB_TOKEN', value: first },
      { token: user.token },
    );
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'GITHUB_TOKEN',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const second = secretValue('gh2');
    const replaced = await t.api.post(
      '/users/me/secrets',
      { name: 'GITHUB_TOKEN', value: second },
      { token: user.token },
    );
    expect(replaced.status).toBe(200);
    expect(replaced.body.id).toBe(created.body.id);
    await t.api.post(
      '/users/me/secrets',
      { name: 'AWS_KEY', value: secretValue('aws') },
      {
        token: user.token,
      },
    );

    const list = await t.api.get('/users/me/secrets', { token: user.token });
    expect(list.status).toBe(200);
    expect(list.body.map((s: { name: string }) => s.name)).toEqual(['AWS_KEY', 'GITHUB_TOKEN']);
    const values = await decryptUserSecrets(t.db, t.ctx.config, user.user.id);
    expect(values.find((s) => s.name === 'GITHUB_TOKEN')?.value).toBe(second);

    const rows = await t.db.selectFrom('user_secrets').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(second);

    const removed = await t.api.delete(`/users/me/secrets/${created.body.id}`, {
      token: user.token,
    });
    expect(removed.status).toBe(204);
    const after = await t.api.get('/users/me/secrets', { token: user.token });
    expect(after.body.map((s: { name: string }) => s.name)).toEqual(['AWS_KEY']);
    expect(
      (await t.api.delete(`/users/me/secrets/${created.body.id}`, { token: user.token })).status,
    ).toBe(404);
  });

  it("keeps each user's secrets to that user", async () => {
    const other = await createUser(t);
    const mine = await t.api.post(
      '/users/me/secrets',
      { name: 'PRIVATE', value: secretValue('private') },
      { token: user.token },
    );
    expect((await t.api.get('/users/me/secrets', { token: other.token })).body).toEqual([]);
    const stolen = await t.api.delete(`/users/me/secrets/${mine.body.id}`, {
      token: other.token,
    });
    expect(stolen.status).toBe(404);
    expect(await decryptUserSecrets(t.db, t.ctx.config, other.user.id)).toEqual([]);
  });

  it('validates the secret body and id', async () => {
    for (const body of [
      {},
      { name: 'A' },
      { value: 'v' },
      { name: '9LIVES', value: 'v' },
      { name: 'A', value: null },
      { name: 'A', value: 'v', scope: 'all' },
    ]) {
      const response = await t.api.post('/users/me/secrets', body, { token: user.token });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.api.delete('/users/me/secrets/x', { token: user.token })).status).toBe(400);
  });
});

expectNoSecretLeaks();
