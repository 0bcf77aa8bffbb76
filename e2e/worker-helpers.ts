import type Docker from 'dockerode';
import { expect } from 'vitest';
import type { BrowserApp } from '../test/helpers/browser.js';
import { connectTestEngine, eventually } from '../test/helpers/engine.js';
import type { TestUser } from '../test/helpers/factories.js';
import { removeOrgContainers } from '../test/helpers/nodes.js';
import type { TestOrg } from '../test/helpers/platform.js';

/**
 * The container engine the built-in agent (LOCAL_AGENT) drives, to remove
 * what a file's organizations left.
 */
export function engine(): Promise<Docker> {
  return connectTestEngine();
}

export async function removeContainersOf(docker: Docker, orgs: readonly TestOrg[]) {
  for (const org of orgs) await removeOrgContainers(docker, org);
}

/** Waits until the shared built-in node `local` is online for the organization; its id. */
export async function localNode(web: BrowserApp, org: TestOrg, owner: TestUser): Promise<string> {
  return eventually(
    async () => {
      const nodes = await web.t.api.get(`/orgs/${org.id}/nodes`, { token: owner.token });
      expect(nodes.status).toBe(200);
      const local = nodes.body.find(
        (node: { name: string; status: string }) =>
          node.name === 'local' && node.status === 'online',
      );
      return local === undefined ? undefined : String(local.id);
    },
    30_000,
    'the local node online',
  );
}
