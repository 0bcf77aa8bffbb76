import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEngine, eventually } from '../../../test/helpers/engine.js';
import { RestartBed } from '../../../test/helpers/restart-bed.js';

/**
 * A server killed (kill -9) and started again on the same port, database
 * and INTERNAL_URL: the database still names the dead process, at the same
 * URL, as the agent's holder until its heartbeat runs out. The new process
 * must not relay to itself, nor crash when a relay fails.
 */
describeEngine('a server restarted after kill -9', () => {
  let bed: RestartBed;

  beforeAll(async () => {
    bed = await RestartBed.start();
  }, 180_000);
  afterAll(() => bed?.close());

  it('stays up, answers node_offline until the agent is back, then serves it again', async () => {
    const agent = bed.agent;
    const inventory = `/orgs/${bed.orgId}/nodes/${bed.nodeId}/inventory`;
    expect((await bed.call('GET', inventory)).status).toBe(200);
    for (let round = 0; round < 2; round++) {
      // The agent is held away while the server restarts: the new process starts without it.
      agent?.kill('SIGSTOP');
      await bed.kill();
      await bed.restart();
      for (let request = 0; request < 5; request++) {
        const away = await bed.call<{ error: { code: string } }>('GET', inventory);
        expect(away.status, 'the restarted server answers').toBe(503);
        expect(away.body.error.code).toBe('node_offline');
      }
      agent?.kill('SIGCONT');
      await bed.waitOnline();
      await eventually(
        async () => ((await bed.call('GET', inventory)).status === 200 ? true : undefined),
        30_000,
        'inventory through the agent',
      );
      expect(bed.alive()).toBe(true);
    }
  }, 300_000);
});
