import type { Config } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
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
 * The decrypted secrets a worker of this project, started for this user,
 * receives. The one place values are decrypted; no route returns them. The
 * user must be a member of the project's organization. Which of the two wins
 * when a name is in both is for the worker to decide (it gets both lists).
 */
export async function decryptSecretsForWorker(
  db: Database,
  config: Config,
  target: { orgId: string; projectId: string; userId: string },
): Promise<WorkerSecrets> {
  const membership = await orgs.getMembership(db, target.orgId, target.userId);
  if (membership === undefined) throw notFound('Member');
  return {
    project: await decryptProjectSecrets(db, config, target.orgId, target.projectId),
    user: await users.decryptUserSecrets(db, config, target.userId),
  };
}
