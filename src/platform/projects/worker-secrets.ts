import type { Config } from '../../config.js';
import type { Database } from '../../db/schema.js';
import * as orgs from '../orgs/service.js';
import * as users from '../users/service.js';
import { decryptProjectSecrets } from './secrets.js';

export interface WorkerSecrets {
  /** The project's shared secrets, by name. */
  project: Array<{ name: string; value: string }>;
  /** The secrets of the user the worker is for, by name. */
  user: Array<{ name: string; value: string }>;
}

/**
 * The decrypted secrets a worker of this project receives: the project's
 * shared ones, and the personal ones of the person it is for while that
 * person is a member of the organization (none for a worker started by an
 * organization key, or once its person has left). The one place values are
 * decrypted; no route returns them. 404 when the project is not the
 * organization's. Which of the two wins when a name is in both is for the
 * worker to decide (it gets both lists).
 */
export async function decryptSecretsForWorker(
  db: Database,
  config: Config,
  target: { orgId: string; projectId: string; userId: string | null },
): Promise<WorkerSecrets> {
  const project = await decryptProjectSecrets(db, config, target.orgId, target.projectId);
  const membership =
    target.userId === null ? undefined : await orgs.getMembership(db, target.orgId, target.userId);
  return {
    project,
    user:
      membership === undefined ? [] : await users.decryptUserSecrets(db, config, membership.userId),
  };
}
