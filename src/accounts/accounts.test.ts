import { describe, expect, it } from 'vitest';
import { useApp } from '../../test/fixtures/app.js';
import { createTestApp } from '../../test/helpers/app.js';
import { createUser, TEST_PASSWORD, uniqueEmail } from '../../test/helpers/factories.js';
import type { Client } from '../../test/helpers/http.js';

const PASSWORD = 'a long enough password';

describe('registration closed (the default)', () => {
  const t = useApp();

  it('reports the invite mode with only the invitation door open', async () => {
    const response = await t.http.get('/auth/registration');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      mode: 'invite',
      doors: { password: false, provider: false, invitation: true },
      providerSignIn: false,
      providerName: null,
    });
  });

  it('refuses registration with 403 registration_closed on both roots', async () => {
    for (const client of [t.http, t.api]) {
      const response = await client.post('/auth/register', {
        email: uniqueEmail(),
        password: PASSWORD,
        name: 'Closed',
      });
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('registration_closed');
    }
    const { rows } = await t.db
      .selectFrom('users')
      .select('id')
      .execute()
      .then((rows) => ({ rows }));
    expect(rows).toHaveLength(0);
  });

  it('refuses an unknown invitation with 403 invitation_invalid', async () => {
    const response = await t.http.post('/auth/register', {
      email: uniqueEmail(),
      password: PASSWORD,
      name: 'Invited',
      invitation: 'some-token',
    });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('invitation_invalid');
  });
});

describe('registration open', () => {
  const t = useApp(() =>
    createTestApp({ REGISTRATION_MODE: 'open', PUBLIC_URL: 'https://sparrow.example' }),
  );

  it('reports the open password door', async () => {
    const response = await t.api.get('/auth/registration');
    expect(response.body).toEqual({
      mode: 'open',
      doors: { password: true, provider: false, invitation: true },
      providerSignIn: false,
      providerName: null,
    });
  });

  it('registers, answers 201 with token and user, and sets a secure session cookie', async () => {
    const email = uniqueEmail('Mixed.Case');
    const response = await t.http.post('/auth/register', {
      email,
      password: PASSWORD,
      name: ' Ada ',
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      token: expect.stringMatching(/^ses_[A-Za-z0-9_-]{43}$/),
      user: { id: expect.any(String), email, name: 'Ada', createdAt: expect.any(String) },
    });
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toContain(`session=${response.body.token}`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Secure/);

    const stored = await t.db.selectFrom('sessions').select('token_hash').execute();
    expect(stored.map((row) => row.token_hash)).not.toContain(response.body.token);
    const user = await t.db
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^scrypt\$17\$8\$1\$/);
    expect(user.password_hash).not.toContain(PASSWORD);
  });

  it('answers 409 email_taken for a used e-mail in any case', async () => {
    const email = uniqueEmail('taken');
    expect(
      (await t.http.post('/auth/register', { email, password: PASSWORD, name: 'A' })).status,
    ).toBe(201);
    const again = await t.api.post('/auth/register', {
      email: email.toUpperCase(),
      password: PASSWORD,
      name: 'B',
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('email_taken');
  });

  it('validates the registration body', async () => {
    const cases = [
      { email: 'not-an-email', password: PASSWORD, name: 'A' },
      { email: uniqueEmail(), password: 'short', name: 'A' },
      { email: uniqueEmail(), password: PASSWORD, name: '' },
      { email: uniqueEmail(), password: PASSWORD, name: '   ' },
      { email: uniqueEmail(), password: PASSWORD },
      { email: uniqueEmail(), password: PASSWORD, name: 'A', role: 'admin' },
      { email: uniqueEmail(), password: 12345678901234, name: 'A' },
      { email: uniqueEmail(), password: 'x'.repeat(300), name: 'A' },
    ];
    for (const body of cases) {
      const response = await t.http.post('/auth/register', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe('validation_failed');
    }
  });
});

describe('login, me and logout', () => {
  const t = useApp();

  async function signIn(client: Client) {
    const { user } = await createUser(t, { email: uniqueEmail('login') });
    const response = await client.post('/auth/login', {
      email: user.email.toUpperCase(),
      password: TEST_PASSWORD,
    });
    expect(response.status).toBe(200);
    return { user, response };
  }

  it('logs in with any e-mail case and sets the session cookie', async () => {
    for (const client of [t.http, t.api]) {
      const { user, response } = await signIn(client);
      expect(response.body.user).toEqual(user);
      expect(response.body.token).toMatch(/^ses_/);
      const cookie = String(response.headers['set-cookie']);
      expect(cookie).toMatch(/^session=ses_/);
      expect(cookie).not.toMatch(/Secure/);
    }
  });

  it('answers 401 with the same message for a wrong password and an unknown e-mail', async () => {
    const { user } = await createUser(t);
    const wrongPassword = await t.http.post('/auth/login', {
      email: user.email,
      password: 'wrong password!',
    });
    const unknownEmail = await t.http.post('/auth/login', {
      email: uniqueEmail('ghost'),
      password: TEST_PASSWORD,
    });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(wrongPassword.body).toEqual(unknownEmail.body);
    expect(wrongPassword.body.error.code).toBe('invalid_credentials');
  });

  it('refuses login to an account without a password', async () => {
    const email = uniqueEmail('nopassword');
    await t.db
      .insertInto('users')
      .values({
        id: '0190d6e2-3c4b-7def-8123-456789abcdef',
        email,
        name: 'No password',
        password_hash: null,
      })
      .execute();
    const response = await t.http.post('/auth/login', { email, password: TEST_PASSWORD });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('invalid_credentials');
  });

  it('returns the account from /auth/me with the bearer token or the cookie', async () => {
    const { user, response } = await signIn(t.http);
    const byHeader = await t.http.get('/auth/me', { token: response.body.token });
    expect(byHeader.status).toBe(200);
    expect(byHeader.body).toEqual(user);
    const byCookie = await t.api.get('/auth/me', { cookies: { session: response.body.token } });
    expect(byCookie.status).toBe(200);
    expect(byCookie.body).toEqual(user);
  });

  it('answers 401 on /auth/me without a valid session', async () => {
    expect((await t.http.get('/auth/me')).status).toBe(401);
    expect(
      (await t.api.get('/auth/me', { token: 'ses_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }))
        .status,
    ).toBe(401);
  });

  it('revokes the session on logout, idempotently, and clears the cookie', async () => {
    for (const client of [t.http, t.api]) {
      const { response } = await signIn(client);
      const token = response.body.token;
      const other = (await signIn(client)).response.body.token;

      const logout = await client.post('/auth/logout', undefined, { token });
      expect(logout.status).toBe(204);
      expect(logout.text).toBe('');
      expect(String(logout.headers['set-cookie'])).toMatch(/^session=;/);

      expect((await client.get('/auth/me', { token })).status).toBe(401);
      expect((await client.get('/auth/me', { cookies: { session: token } })).status).toBe(401);
      expect((await client.post('/auth/logout', undefined, { token })).status).toBe(204);
      // Another session of the same user is untouched.
      expect((await client.get('/auth/me', { token: other })).status).toBe(200);
    }
  });

  it('answers 401 on logout without a session token', async () => {
    expect((await t.http.post('/auth/logout')).status).toBe(401);
    expect(
      (await t.http.post('/auth/logout', undefined, { token: 'ses_neverissued-neverissued' }))
        .status,
    ).toBe(401);
    expect(
      (await t.http.post('/auth/logout', undefined, { token: 'spk_not-a-session-token' })).status,
    ).toBe(401);
  });

  it('does not accept an expired session', async () => {
    const { response } = await signIn(t.http);
    await t.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    expect((await t.http.get('/auth/me', { token: response.body.token })).status).toBe(401);
  });
});
