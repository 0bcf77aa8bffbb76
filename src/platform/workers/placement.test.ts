import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useNodeBed } from '../../../test/fixtures/app.js';
import { connectFakeAgent, type FakeAgent } from '../../../test/helpers/fake-agent.js';
import { waitForNodeStatus } from '../../../test/helpers/nodes.js';

/**
 * Concurrent spawns against one free place. The fake agent never answers
 * `container.create`, so a placed worker stays `creating` and keeps its
 * place for the whole round.
 */
describe('worker placement under concurrency', () => {
  const bed = useNodeBed();
  let projectId: string;
  const agents: FakeAgent[] = [];
  const ROUNDS = 12;
  const SPAWNS = 10;

  beforeAll(async () => {
    const project = await bed.t.api.post(
      `/orgs/${bed.org.id}/projects`,
      { name: 'placement' },
      { token: bed.owner.token },
    );
    expect(project.status).toBe(201);
    projectId = project.body.id;
  });
  afterAll(async () => {
    await Promise.all(agents.map((agent) => agent.close()));
  });

  async function slotNode(name: string, maxWorkers: number) {
    const response = await bed.t.api.post(
      `/orgs/${bed.org.id}/nodes`,
      { name, maxWorkers },
      { token: bed.owner.token },
    );
    expect(response.status).toBe(201);
    const node = { id: response.body.node.id, token: response.body.token };
    const agent = connectFakeAgent(bed.baseUrl, node.token);
    agents.push(agent);
    await agent.welcomed;
    await waitForNodeStatus(bed, node.id, 'online');
    return node;
  }

  /** Ten spawns at once over real HTTP; the statuses, sorted. */
  async function spawnTogether(nodeId?: string): Promise<number[]> {
    const responses = await Promise.all(
      Array.from({ length: SPAWNS }, () =>
        fetch(`${bed.baseUrl}/api/orgs/${bed.org.id}/projects/${projectId}/workers`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${bed.owner.token}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify(nodeId === undefined ? {} : { nodeId }),
        }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    await Promise.all(responses.map((response) => response.arrayBuffer()));
    return statuses.sort();
  }

  async function workersOn(nodeId: string): Promise<number> {
    const rows = await bed.t.ctx.db
      .selectFrom('workers')
      .select('id')
      .where('node_id', '=', nodeId)
      .execute();
    return rows.length;
  }

  it('places exactly one of ten concurrent spawns naming a node with one free place, every round', async () => {
    for (let round = 0; round < ROUNDS / 2; round++) {
      const node = await slotNode(`named-${round}`, 1);
      const statuses = await spawnTogether(node.id);
      expect(statuses).toEqual([201, ...Array<number>(SPAWNS - 1).fill(409)]);
      expect(await workersOn(node.id)).toBe(1);
    }
  });

  it('places exactly one of ten concurrent spawns left to choose when one place is free, every round', async () => {
    // Every node of the previous test is full: each round adds one free place.
    for (let round = 0; round < ROUNDS / 2; round++) {
      const node = await slotNode(`auto-${round}`, 1);
      const statuses = await spawnTogether();
      expect(statuses).toEqual([201, ...Array<number>(SPAWNS - 1).fill(409)]);
      expect(await workersOn(node.id)).toBe(1);
    }
  });

  it('answers 404 for a node of another organization and 409 for a full one', async () => {
    const node = await slotNode('full', 1);
    expect(await spawnTogether(node.id)).toContain(201);
    const again = await bed.t.api.post(
      `/orgs/${bed.org.id}/projects/${projectId}/workers`,
      { nodeId: node.id },
      { token: bed.owner.token },
    );
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: { code: 'node_unavailable' } });
    const missing = await bed.t.api.post(
      `/orgs/${bed.org.id}/projects/${projectId}/workers`,
      { nodeId: '01900000-0000-7000-8000-000000000000' },
      { token: bed.owner.token },
    );
    expect(missing.status).toBe(404);
  });
});
