import { describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { createTestApp } from '../../../test/helpers/app.js';
import {
  addMember,
  createUser,
  createWorkspace,
  type TestWorkspace,
} from '../../../test/helpers/factories.js';
import { sniff } from './sniff.js';

const t = useApp(() => createTestApp({ MAX_UPLOAD_BYTES: '65536', BODY_LIMIT: '4096' }));

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

function multipart(bytes: Buffer, filename: string, field = 'file', claimedType = 'image/png') {
  const boundary = 'TESTBOUNDARY';
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${claimedType}\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  };
}

async function upload(
  workspace: TestWorkspace,
  bytes: Buffer,
  filename: string,
  token = workspace.owner.token,
  field = 'file',
) {
  const body = multipart(bytes, filename, field);
  return t.api.raw({
    method: 'POST',
    url: `/workspaces/${workspace.id}/files`,
    headers: { ...body.headers, authorization: `Bearer ${token}` },
    payload: body.payload,
  });
}

describe('files', () => {
  it('stores bytes, sniffs the type and serves them back', async () => {
    const workspace = await createWorkspace(t);
    const response = await upload(workspace, PNG, '../../etc/avatar.png');
    expect(response.status).toBe(201);
    const file = response.body;
    expect(file).toMatchObject({
      name: 'avatar.png',
      contentType: 'image/png',
      isImage: true,
      size: PNG.length,
      createdBy: workspace.owner.user.id,
    });
    const download = await t.app.inject({
      url: `/workspaces/${workspace.id}/files/${file.id}/content`,
      headers: { authorization: `Bearer ${workspace.owner.token}` },
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(PNG)).toBe(true);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(String(download.headers['content-disposition'])).toMatch(
      /^inline; filename="avatar.png"/,
    );
    const meta = await t.http.get(`/workspaces/${workspace.id}/files/${file.id}`, {
      token: workspace.owner.token,
    });
    expect(meta.body).toEqual(file);
    expect(
      (await t.http.get(`/workspaces/${workspace.id}/files`, { token: workspace.owner.token }))
        .body,
    ).toEqual([file]);
  });

  it('never trusts the claimed type: HTML claimed as PNG is text, served as an attachment', async () => {
    const workspace = await createWorkspace(t);
    const response = await upload(workspace, Buffer.from('<script>alert(1)</script>'), 'x.png');
    const file = response.body;
    expect(file).toMatchObject({ contentType: 'text/plain; charset=utf-8', isImage: false });
    const download = await t.app.inject({
      url: `/workspaces/${workspace.id}/files/${file.id}/content`,
      headers: { authorization: `Bearer ${workspace.owner.token}` },
    });
    expect(String(download.headers['content-disposition'])).toMatch(/^attachment;/);
    expect(download.headers['content-security-policy']).toContain('sandbox');
  });

  it('answers 413 above the upload limit and keeps nothing', async () => {
    const workspace = await createWorkspace(t);
    const response = await upload(workspace, Buffer.alloc(70_000, 1), 'big.bin');
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('payload_too_large');
    expect(
      (await t.http.get(`/workspaces/${workspace.id}/files`, { token: workspace.owner.token }))
        .body,
    ).toEqual([]);
  });

  it('refuses a body that is not multipart, or lacks the file part', async () => {
    const workspace = await createWorkspace(t);
    const json = await t.http.post(
      `/workspaces/${workspace.id}/files`,
      { file: 'x' },
      { token: workspace.owner.token },
    );
    expect(json.status).toBe(400);
    expect(json.body.error.code).toBe('multipart_required');
    const wrongField = await upload(workspace, PNG, 'a.png', workspace.owner.token, 'document');
    expect(wrongField.status).toBe(400);
    expect(wrongField.body.error.code).toBe('file_missing');
  });

  it('keeps files to their workspace and their roles', async () => {
    const workspace = await createWorkspace(t);
    const file = (await upload(workspace, PNG, 'a.png')).body;
    const outsider = await createUser(t);
    expect(
      (await t.http.get(`/workspaces/${workspace.id}/files/${file.id}`, { token: outsider.token }))
        .status,
    ).toBe(404);
    const other = await createWorkspace(t);
    expect(
      (await t.http.get(`/workspaces/${other.id}/files/${file.id}`, { token: other.owner.token }))
        .status,
    ).toBe(404);
    const viewer = await addMember(t, workspace, 'viewer');
    expect((await upload(workspace, PNG, 'b.png', viewer.token)).status).toBe(403);
    expect(
      (await t.http.delete(`/workspaces/${workspace.id}/files/${file.id}`, { token: viewer.token }))
        .status,
    ).toBe(403);
    expect(
      (
        await t.http.delete(`/workspaces/${workspace.id}/files/${file.id}`, {
          token: workspace.owner.token,
        })
      ).status,
    ).toBe(204);
    expect(
      (
        await t.http.get(`/workspaces/${workspace.id}/files/${file.id}/content`, {
          token: workspace.owner.token,
        })
      ).status,
    ).toBe(404);
  });
});

describe('sniff', () => {
  it.each([
    ['ffd8ffe000104a464946', 'image/jpeg', true],
    ['474946383961', 'image/gif', true],
    ['524946460000000057454250', 'image/webp', true],
    ['255044462d312e34', 'application/pdf', false],
    ['504b0304', 'application/zip', false],
    ['0001020304', 'application/octet-stream', false],
    ['', 'application/octet-stream', false],
  ])('%s is %s', (hex, contentType, isImage) => {
    expect(sniff(Buffer.from(hex, 'hex'))).toEqual({ contentType, isImage });
  });
  it('treats UTF-8 cut in the middle of a character as text', () => {
    const bytes = Buffer.from('héllo wörld', 'utf8');
    expect(sniff(bytes.subarray(0, bytes.length - 1)).contentType).toBe(
      'text/plain; charset=utf-8',
    );
  });
});
