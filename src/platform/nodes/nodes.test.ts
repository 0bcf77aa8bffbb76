import type Docker from 'dockerode';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBed } from '../../../test/fixtures/app.js';
import { present } from '../../../test/helpers/assert.js';
import { connectTestEngine, describeEngine } from '../../../test/helpers/engine.js';
import { createUser } from '../../../test/helpers/factories.js';
import {
  createNodeTestBed,
  onlineNode,
  registerNode,
  startAgent,
  waitForNodeStatus,
} from '../../../test/helpers/nodes.js';
import { addMember, createKey, createOrg } from '../../../test/helpers/platform.js';
import type { AgentFatalError } from '../../agent/connection.js';

describeEngine('nodes and their agents', () => {
  const bed = useNodeBed();
  let docker: Docker;

  beforeAll(async () => {
    docker = await connectTestEngine();
  });

  const nodesPath = () => `/orgs/${bed.org.id}/nodes` as const;

  it('registers a node with a token shown once, and lists it offline until an agent connects', async () => {
    const response = await bed.t.api.post(
      nodesPath(),
      { name: 'builder', maxWorkers: 3 },
      { token: bed.owner.token },
    );
    expect(response.status).toBe(201);
    const { node, token, agentCommand } = response.body;
    expect(token).toMatch(/^snt_/);
    expect(agentCommand).toBe(
      `sparrow agent --server ${bed.t.ctx.config.publicUrl} --token ${token}`,
    );
    expect(node).toMatchObject({
      name: 'builder',
      status: 'offline',
      connected: false,
      shared: false,
    });
    expect(token.startsWith(node.tokenPrefix)).toBe(true);

    const list = await bed.t.api.get(nodesPath(), { token: bed.owner.token });
    expect(list.body.map((n) => n.id)).toContain(node.id);
    expect(JSON.stringify(list.body)).not.toContain(token);

    const again = await bed.t.api.post(
      nodesPath(),
      { name: 'BUILDER' },
      { token: bed.owner.token },
    );
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('node_name_taken');
  });

  it('shows an online node with its capacity, engine and agent version', async () => {
    const node = await onlineNode(bed, docker, 'capacity');
    const response = await bed.t.api.get(`${nodesPath()}/${node.id}`, { token: bed.owner.token });
    expect(response.body).toMatchObject({
      status: 'online',
      connected: true,
      agentVersion: '0.1.0',
    });
    const capacity = present(response.body.capacity, 'capacity');
    expect(capacity.cpus).toBeGreaterThan(0);
    expect(capacity.memoryBytes).toBeGreaterThan(0);
    expect(response.body.engine).toMatchObject({ reachable: true, name: 'podman' });
    expect(Date.parse(present(response.body.lastSeenAt, 'lastSeenAt'))).toBeGreaterThan(
      Date.now() - 60_000,
    );
  });

  it('refuses an unknown token before the upgrade, and the agent gives up', async () => {
    const agent = startAgent(bed, docker, 'snt_not-a-real-token-at-all');
    const fatal = await new Promise<AgentFatalError>((resolve) => agent.once('fatal', resolve));
    expect(fatal.message).toMatch(/401|token/i);
  });

  it('rotates the token: the old one stops working at once, the new one connects', async () => {
    const node = await onlineNode(bed, docker, 'rotating');
    const fatal = new Promise<AgentFatalError>((resolve) => node.agent.once('fatal', resolve));
    const rotated = await bed.t.api.post(`${nodesPath()}/${node.id}/token`, undefined, {
      token: bed.owner.token,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.token).not.toBe(node.token);
    // The live connection is closed and its token refused when it dials again.
    await fatal;
    await waitForNodeStatus(bed, node.id, 'offline');
    startAgent(bed, docker, rotated.body.token);
    await waitForNodeStatus(bed, node.id, 'online');
  });

  it('drains a node and undrains it', async () => {
    const node = await registerNode(bed, 'draining');
    const drained = await bed.t.api.post(`${nodesPath()}/${node.id}/drain`, undefined, {
      token: bed.owner.token,
    });
    expect(drained.status).toBe(200);
    expect(drained.body).toMatchObject({ status: 'draining', draining: true });
    const back = await bed.t.api.post(
      `${nodesPath()}/${node.id}/drain`,
      { draining: false },
      { token: bed.owner.token },
    );
    expect(back.body).toMatchObject({ status: 'offline', draining: false, drainingSince: null });
  });

  it('deletes a node: its agent is disconnected for good and the node is gone', async () => {
    const node = await onlineNode(bed, docker, 'doomed');
    const fatal = new Promise<AgentFatalError>((resolve) => node.agent.once('fatal', resolve));
    const deleted = await bed.t.api.delete(`${nodesPath()}/${node.id}`, { token: bed.owner.token });
    expect(deleted.status).toBe(204);
    await fatal;
    const gone = await bed.t.api.get(`${nodesPath()}/${node.id}`, { token: bed.owner.token });
    expect(gone.status).toBe(404);
  });

  it('lets members read nodes but only owners and admins manage them', async () => {
    const member = await addMember(bed.t, bed.org, bed.owner, 'member');
    const list = await bed.t.api.get(nodesPath(), { token: member.token });
    expect(list.status).toBe(200);
    const refused = await bed.t.api.post(nodesPath(), { name: 'mine' }, { token: member.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('insufficient_role');
  });

  it('checks API key scopes: nodes:read reads, nodes:write manages', async () => {
    const reader = await createKey(bed.t, bed.org, bed.owner, ['nodes:read']);
    expect((await bed.t.api.get(nodesPath(), { token: reader.token })).status).toBe(200);
    const denied = await bed.t.api.post(nodesPath(), { name: 'k' }, { token: reader.token });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('missing_scope');
    const writer = await createKey(bed.t, bed.org, bed.owner, ['nodes:write']);
    const made = await bed.t.api.post(nodesPath(), { name: 'by-key' }, { token: writer.token });
    expect(made.status).toBe(201);
  });

  it('keeps a node of one organization invisible to another', async () => {
    const node = await registerNode(bed, 'private');
    const stranger = await createUser(bed.t);
    const otherOrg = await createOrg(bed.t, stranger, 'Other');
    const response = await bed.t.api.get(`/orgs/${otherOrg.id}/nodes/${node.id}`, {
      token: stranger.token,
    });
    expect(response.status).toBe(404);
    const list = await bed.t.api.get(`/orgs/${otherOrg.id}/nodes`, { token: stranger.token });
    expect(list.body).toEqual([]);
  });

  it('marks a node offline when its agent goes away', async () => {
    const node = await onlineNode(bed, docker, 'leaving');
    await node.agent.stop();
    await waitForNodeStatus(bed, node.id, 'offline');
  });
});

describe('the agent endpoint', () => {
  it('answers a plain request without a token with 401 and the error body', async () => {
    const bed = await createNodeTestBed();
    try {
      const response = await bed.t.api.get('/agent/connect');
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('invalid_node_token');
    } finally {
      await bed.close();
    }
  });
});
