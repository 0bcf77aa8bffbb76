import Type from 'typebox';
import { Timestamp } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { orgRoutes } from '../access/org-route.js';
import { requireWorkerAction } from './policy.js';
import { WorkerParams } from './schemas.js';
import { workerInProject } from './service.js';
import { issueSshToken, SSH_TOKEN_TTL_MS } from './ssh-tokens.js';

const SshToken = Type.Object(
  {
    token: Type.String({ description: 'An `sst_` token, shown once.' }),
    expiresAt: Timestamp,
    workerId: Type.String(),
    terminalUrl: Type.String({ description: 'The WebSocket endpoint the token opens.' }),
  },
  { title: 'WorkerSshToken' },
);

export function sshRoute(router: Router, ctx: AppContext): void {
  orgRoutes(router, ctx, ['Terminals']).route({
    method: 'POST',
    url: '/orgs/:orgId/projects/:projectId/workers/:workerId/ssh-token',
    key: ['workers:exec'],
    permission: 'workers.use',
    operationId: 'createWorkerSshToken',
    summary: 'Generate an SSH token',
    description:
      `A short-lived credential (${SSH_TOKEN_TTL_MS / 60_000} minutes) for a shell entry point into ` +
      'this worker. It opens exactly one thing: the terminal endpoint of this worker, ' +
      '`GET /api/workers/{workerId}/terminal` (as `Authorization: Bearer sst_...`), acting as the ' +
      'person who asked for it, whose role is checked again at each use. Any other route refuses it ' +
      '(403). It is what an SSH gateway or a `websocat`-style client presents on behalf of a user; ' +
      'Sparrow itself runs no SSH daemon. Needs a session or a personal key.',
    params: WorkerParams,
    response: SshToken,
    status: 201,
    errors: ['insufficient_role', 'person_required'],
    handler: async (trx, access, request) => {
      const { projectId, workerId } = request.params;
      const row = await workerInProject(trx, access, projectId, workerId);
      requireWorkerAction(access, row);
      const { token, expiresAt } = await issueSshToken(trx, access, row.id);
      const base = ctx.config.publicUrl.replace(/^http/, 'ws');
      return {
        token,
        expiresAt: expiresAt.toISOString(),
        workerId: row.id,
        terminalUrl: `${base}/api/workers/${row.id}/terminal`,
      };
    },
  });
}
