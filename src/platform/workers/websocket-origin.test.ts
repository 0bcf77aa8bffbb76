import { randomUUID } from 'node:crypto';
import type Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { connectTestEngine, describeEngine } from '../../../test/helpers/engine.js';
import {
  createNodeTestBed,
  type NodeTestBed,
  onlineNode,
  removeOrgContainers,
} from '../../../test/helpers/nodes.js';
import { refusedUpgrade } from '../../../test/helpers/ws-client.js';

const PUBLIC_URL = 'https://sparrow.example:8443';

/** Opens a socket with these headers; resolves with its first frame, or the refusal's status. */
function handshake(
  url: string,
  headers: Record<string, string>,
): Promise<{ opened: true; first: { type: string } } | { opened: false; status: number }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('message', (data) => {
      resolve({ opened: true, first: JSON.parse(data.toString()) });
      socket.close();
    });
    socket.once('unexpected-response', (_request, response) => {
      response.resume();
      resolve({ opened: false, status: response.statusCode ?? 0 });
    });
    socket.once('error', reject);
  });
}

/**
 * Every WebSocket route family (terminal, container logs, image build logs):
 * a cookie handshake is refused from a foreign Origin and accepted from the
 * service's own or without one; a bearer token needs no Origin.
 */
describeEngine('WebSocket handshakes and the Origin header', () => {
  let bed: NodeTestBed;
  let docker: Docker;
  const urls: Record<string, string> = {};

  beforeAll(async () => {
    docker = await connectTestEngine();
    bed = await createNodeTestBed({ PUBLIC_URL });
    const node = await onlineNode(bed, docker);
    const as = { token: bed.owner.token };
    const project = await bed.t.api.post(`/orgs/${bed.org.id}/projects`, { name: 'origin' }, as);
    const spawned = await bed.t.api.post(
      `/orgs/${bed.org.id}/projects/${project.body.id}/workers`,
      {},
      { ...as, query: { wait: 'true' } },
    );
    expect(spawned.body.state).toBe('ready');
    // A finished build replays at once: the build log socket opens without a build running.
    const buildId = randomUUID();
    await bed.t.db
      .insertInto('image_builds')
      .values({
        id: buildId,
        org_id: bed.org.id,
        project_id: project.body.id,
        node_id: node.id,
        project_version: 1,
        base_image: 'localhost/sparrow/base:v1',
        image: `localhost/sparrow/project-${project.body.id}:v1-${buildId}`,
        status: 'succeeded',
        steps: '[]',
        error: null,
        created_by: null,
        started_at: new Date(),
        finished_at: new Date(),
      })
      .execute();
    const ws = bed.baseUrl.replace(/^http/, 'ws');
    urls.terminal = `${ws}/api/workers/${spawned.body.id}/terminal?session=origin`;
    urls.logs = `${ws}/api/workers/${spawned.body.id}/terminal?mode=logs`;
    urls.buildLogs = `${ws}/api/image-builds/${buildId}/logs`;
  });
  afterAll(async () => {
    await bed.close();
    await removeOrgContainers(docker, bed.org);
  });

  for (const family of ['terminal', 'logs', 'buildLogs']) {
    it(`${family}: cookie from a foreign Origin is 403, own Origin or none opens, bearer needs none`, async () => {
      const url = () => urls[family] ?? '';
      const cookie = `session=${bed.owner.token}`;
      for (const foreign of ['https://evil.example', 'http://sparrow.example:8443', 'null']) {
        const refused = await refusedUpgrade(url(), { cookie, origin: foreign });
        expect(refused.status).toBe(403);
        expect(refused.body.error.code).toBe('origin_not_allowed');
      }
      const accepted: Record<string, string>[] = [
        { cookie, origin: PUBLIC_URL },
        { cookie, origin: 'HTTPS://Sparrow.Example:8443' },
        { cookie },
        { authorization: `Bearer ${bed.owner.token}`, origin: 'https://evil.example' },
        { authorization: `Bearer ${bed.owner.token}` },
      ];
      for (const headers of accepted) {
        const answer = await handshake(url(), headers);
        expect(answer, JSON.stringify(headers)).toMatchObject({ opened: true });
      }
    });
  }

  it('answers a plain request to a socket route as before, whatever its Origin', async () => {
    const http = urls.buildLogs?.replace(/^ws/, 'http') ?? '';
    const response = await fetch(http, {
      headers: { cookie: `session=${bed.owner.token}`, origin: 'https://evil.example' },
    });
    expect(response.status).toBe(426);
  });
});
