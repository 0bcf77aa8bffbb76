import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { orgWithMembers } from '../../../test/fixtures/org.js';
import type { TestUser } from '../../../test/helpers/factories.js';
import { UNKNOWN_ID } from '../../../test/helpers/ids.js';
import {
  addMember,
  createKey,
  createOrg,
  createPlatformTestApp,
  type TestOrg,
} from '../../../test/helpers/platform.js';

const t = useApp(() => createPlatformTestApp());
let owner: TestUser;
let member: TestUser;
let outsider: TestUser;
let org: TestOrg;

beforeAll(async () => {
  ({ owner, org, outsider, member } = await orgWithMembers(t, ['outsider', 'member'], {
    name: 'Projects Org',
  }));
});

const projectsUrl = () => `/orgs/${org.id}/projects` as const;

async function createProject(body: Record<string, unknown>, token = owner.token) {
  const response = await t.api.post(projectsUrl(), body, { token });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

const FULL = {
  name: 'Web app',
  description: 'The storefront',
  repositories: [
    { url: 'https://github.com/acme/web.git', branch: 'main' },
    { url: 'git@github.com:acme/infra.git' },
  ],
  features: {
    'ghcr.io/devcontainers/features/node:1': { version: '20', installYarn: true },
    'ghcr.io/devcontainers/features/docker-in-docker:2': {},
  },
  extensions: ['dbaeumer.vscode-eslint', 'esbenp.prettier-vscode@10.1.0'],
  forwardPorts: [3000, 5432],
};

describe('creating and reading projects', () => {
  it('answers 401 without a credential on every route', async () => {
    const project = `${projectsUrl()}/${UNKNOWN_ID}`;
    const responses = await Promise.all([
      t.api.get(projectsUrl()),
      t.api.post(projectsUrl(), { name: 'x' }),
      t.api.get(project),
      t.api.patch(project, { name: 'x' }),
      t.api.delete(project),
      t.api.get(`${project}/secrets`),
      t.api.post(`${project}/secrets`, { name: 'A', value: 'b' }),
      t.api.delete(`${project}/secrets/${UNKNOWN_ID}`),
      t.api.get(`${project}/versions`),
      t.api.get(`${project}/versions/1`),
      t.api.post(`${project}/versions/1/restore`),
    ]);
    for (const response of responses) expect(response.status).toBe(401);
  });

  it('creates a project with its whole configuration as version 1', async () => {
    const project = await createProject(FULL);
    expect(project).toEqual({
      id: expect.any(String),
      orgId: org.id,
      name: 'Web app',
      description: 'The storefront',
      repositories: [
        { url: 'https://github.com/acme/web.git', branch: 'main' },
        { url: 'git@github.com:acme/infra.git', branch: null },
      ],
      features: FULL.features,
      extensions: FULL.extensions,
      forwardPorts: [3000, 5432],
      secrets: [],
      version: 1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const got = await t.api.get(`${projectsUrl()}/${project.id}`, { token: member.token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(project);
  });

  it('fills defaults for a project with a name only, and any member may create one', async () => {
    const project = await createProject({ name: 'Bare', description: '   ' }, member.token);
    expect(project).toMatchObject({
      name: 'Bare',
      description: null,
      repositories: [],
      features: {},
      extensions: [],
      forwardPorts: [],
    });
  });

  it('validates the body', async () => {
    const cases: Record<string, unknown>[] = [
      {},
      { name: '' },
      { name: '  ' },
      { name: 'x'.repeat(101) },
      { name: 'A', unknown: true },
      { name: 'A', description: 'x'.repeat(2001) },
      { name: 'A', forwardPorts: [0] },
      { name: 'A', forwardPorts: [65536] },
      { name: 'A', forwardPorts: [80, 80] },
      { name: 'A', forwardPorts: ['80'] },
      { name: 'A', forwardPorts: [80.5] },
      { name: 'A', forwardPorts: null },
      { name: 'A', extensions: ['not-an-extension'] },
      { name: 'A', extensions: ['a.b', 'a.b'] },
      { name: 'A', repositories: [{ url: 'ftp://example.com/repo' }] },
      { name: 'A', repositories: [{ url: '/srv/local/repo' }] },
      { name: 'A', repositories: [{ url: 'https://x.test/r', depth: 1 }] },
      { name: 'A', repositories: [{ url: 'https://x.test/r', branch: 'a..b' }] },
      { name: 'A', repositories: [{ url: 'https://x.test/r', branch: 'has space' }] },
      { name: 'A', repositories: 'https://x.test/r' },
      { name: 'A', features: { 'Not A Feature': {} } },
      { name: 'A', features: { 'ghcr.io/x/y:1': { version: 20 } } },
      { name: 'A', features: { 'ghcr.io/x/y:1': 'latest' } },
      { name: 'A', features: [] },
    ];
    for (const body of cases) {
      const response = await t.api.post(projectsUrl(), body, { token: owner.token });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe('validation_failed');
    }
    const duplicate = await t.api.post(
      projectsUrl(),
      { name: 'A', repositories: [{ url: 'https://x.test/r' }, { url: 'https://x.test/r' }] },
      { token: owner.token },
    );
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.error.code).toBe('duplicate_repository');
  });

  it('keeps names unique within an organization, whatever their case', async () => {
    await createProject({ name: 'Unique' });
    const again = await t.api.post(projectsUrl(), { name: 'UNIQUE' }, { token: owner.token });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('project_name_taken');
    const other = await createOrg(t, owner, 'Other');
    const elsewhere = await t.api.post(
      `/orgs/${other.id}/projects`,
      { name: 'Unique' },
      { token: owner.token },
    );
    expect(elsewhere.status).toBe(201);
    const rename = await t.api.patch(
      `${projectsUrl()}/${(await createProject({ name: 'Renamed later' })).id}`,
      { name: 'unique' },
      { token: owner.token },
    );
    expect(rename.status).toBe(409);
    expect(rename.body.error.code).toBe('project_name_taken');
  });

  it('lists the projects of the organization by name', async () => {
    const response = await t.api.get(projectsUrl(), { token: member.token });
    expect(response.status).toBe(200);
    const names = response.body.map((project) => project.name);
    expect(names).toEqual(
      [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
    );
    expect(names).toContain('Web app');
  });

  it('answers 404 outside the organization and for unknown ids, 400 for bad ids', async () => {
    const project = await createProject({ name: 'Hidden' });
    const url = `${projectsUrl()}/${project.id}` as const;
    for (const response of [
      await t.api.get(projectsUrl(), { token: outsider.token }),
      await t.api.post(projectsUrl(), { name: 'Nope' }, { token: outsider.token }),
      await t.api.get(url, { token: outsider.token }),
      await t.api.patch(url, { name: 'Mine now' }, { token: outsider.token }),
      await t.api.delete(url, { token: outsider.token }),
      await t.api.get(`${projectsUrl()}/${UNKNOWN_ID}`, { token: owner.token }),
    ]) {
      expect(response.status).toBe(404);
    }
    expect((await t.api.get(`${projectsUrl()}/123`, { token: owner.token })).status).toBe(400);
  });
});

describe('PATCH semantics', () => {
  let url: `/orgs/${string}/projects/${string}`;

  beforeAll(async () => {
    url = `${projectsUrl()}/${(await createProject({ ...FULL, name: 'Patched' })).id}`;
  });

  async function patch(body: Record<string, unknown>, token = owner.token) {
    const response = await t.api.patch(url, body, { token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  }

  it('1. touches only the fields it names', async () => {
    const before = (await t.api.get(url, { token: owner.token })).body;
    const after = await patch({ forwardPorts: [8080] });
    expect(after).toEqual({
      ...before,
      forwardPorts: [8080],
      version: before.version + 1,
      updatedAt: expect.any(String),
    });
    const renamed = await patch({ name: 'Patched again' }, member.token);
    expect(renamed).toMatchObject({
      name: 'Patched again',
      description: before.description,
      repositories: before.repositories,
      features: before.features,
      extensions: before.extensions,
      forwardPorts: [8080],
    });
  });

  it('2. empties a list sent explicitly empty, and refuses null for a list', async () => {
    const emptied = await patch({
      forwardPorts: [],
      repositories: [],
      extensions: [],
      features: {},
    });
    expect(emptied).toMatchObject({
      forwardPorts: [],
      repositories: [],
      extensions: [],
      features: {},
    });
    expect(emptied.description).toBe('The storefront');
    for (const field of ['forwardPorts', 'repositories', 'extensions', 'features']) {
      const response = await t.api.patch(url, { [field]: null }, { token: owner.token });
      expect(response.status, field).toBe(400);
    }
    const refilled = await patch({
      repositories: [{ url: 'ssh://git@example.test/acme/app.git' }],
    });
    expect(refilled.repositories).toEqual([
      { url: 'ssh://git@example.test/acme/app.git', branch: null },
    ]);
    expect(refilled.forwardPorts).toEqual([]);
  });

  it('3. clears free text with an empty or whitespace string, to null; omitting never erases', async () => {
    expect((await patch({ description: '  Trimmed text  ' })).description).toBe('Trimmed text');
    expect((await patch({ name: 'Still here' })).description).toBe('Trimmed text');
    expect((await patch({ description: '' })).description).toBeNull();
    await patch({ description: 'Back' });
    expect((await patch({ description: ' \t\n ' })).description).toBeNull();
    await patch({ description: 'Again' });
    expect((await patch({ description: null })).description).toBeNull();
    const row = await t.db
      .selectFrom('projects')
      .select('description')
      .where('id', '=', url.split('/').at(-1) ?? '')
      .executeTakeFirstOrThrow();
    expect(row.description).toBeNull();
    // The name is not free text: it cannot be cleared.
    expect((await t.api.patch(url, { name: '  ' }, { token: owner.token })).status).toBe(400);
  });

  it('accepts an empty PATCH and changes nothing', async () => {
    const before = (await t.api.get(url, { token: owner.token })).body;
    expect(await patch({})).toEqual(before);
  });

  it('validates the PATCH body like the create body', async () => {
    for (const body of [
      { unknown: 1 },
      { forwardPorts: [70000] },
      { extensions: ['nodot'] },
      { name: 7 },
      { secrets: [{ name: 'A' }] },
    ]) {
      const response = await t.api.patch(url, body, { token: owner.token });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('deleting projects and roles', () => {
  it('lets owners and admins delete, not members', async () => {
    const project = await createProject({ name: 'Doomed' }, member.token);
    const url = `${projectsUrl()}/${project.id}` as const;
    const byMember = await t.api.delete(url, { token: member.token });
    expect(byMember.status).toBe(403);
    expect(byMember.body.error.code).toBe('insufficient_role');
    const admin = await addMember(t, org, owner, 'admin');
    expect((await t.api.delete(url, { token: admin.token })).status).toBe(204);
    expect((await t.api.get(url, { token: owner.token })).status).toBe(404);
    expect((await t.api.delete(url, { token: owner.token })).status).toBe(404);
  });
});

describe('projects with API keys', () => {
  it('reads with projects:read and writes with projects:write', async () => {
    const project = await createProject({ name: 'Keyed' });
    const url = `${projectsUrl()}/${project.id}` as const;
    const reader = await createKey(t, org, owner, ['projects:read']);
    expect((await t.api.get(projectsUrl(), { token: reader.token })).status).toBe(200);
    expect((await t.api.get(url, { token: reader.token })).status).toBe(200);
    for (const response of [
      await t.api.post(projectsUrl(), { name: 'By reader' }, { token: reader.token }),
      await t.api.patch(url, { description: 'x' }, { token: reader.token }),
      await t.api.delete(url, { token: reader.token }),
    ]) {
      expect(response.status).toBe(403);
      expect(response.body.error.details).toMatchObject({ missingScope: 'projects:write' });
    }

    const writer = await createKey(t, org, owner, ['projects:write']);
    expect((await t.api.get(url, { token: writer.token })).status).toBe(403);
    const patched = await t.api.patch(url, { description: 'By key' }, { token: writer.token });
    expect(patched.status).toBe(200);
    expect(patched.body.description).toBe('By key');
  });

  it("acts with the key's role: a member's key cannot delete, an org key can", async () => {
    const project = await createProject({ name: 'Role bound' });
    const url = `${projectsUrl()}/${project.id}` as const;
    const memberKey = await createKey(t, org, member, ['projects:write']);
    const refused = await t.api.delete(url, { token: memberKey.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('insufficient_role');
    const orgKey = await createKey(t, org, owner, ['projects:write'], 'org');
    expect((await t.api.delete(url, { token: orgKey.token })).status).toBe(204);
  });
});
