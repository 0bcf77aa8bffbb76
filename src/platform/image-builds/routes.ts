import Type from 'typebox';
import type { AppContext, Router } from '../../module.js';
import { orgRoutes } from '../access/org-route.js';
import { socketRoutes } from '../access/socket-route.js';
import { FOLLOWERS } from '../common/follower-quota.js';
import { ProjectParams } from '../projects/schemas.js';
import { followBuild } from './follow.js';
import { BuildParams, ImageBuild } from './schemas.js';
import * as service from './service.js';

const WHAT_A_BUILD_DOES =
  'A build starts a container from the base image (`WORKER_IMAGE`) on its node, clones the ' +
  "project's repositories into `/workspaces/<name>` on their configured (else default) branches, " +
  'and commits the container as `localhost/sparrow/project-<projectId>:v<version>-<buildId>` in ' +
  "that node's engine. Dev container features are not installed yet: installing one needs its " +
  'feature registry (such as ghcr.io), which the server does not reach, so each `feature <id>` ' +
  'step is `skipped` with that reason and the build still succeeds; put such tools in the base ' +
  'image. New workers on a node start from the latest successful build there of the current ' +
  'project version and the current base image (`current: true`); after a project change, or a ' +
  'new `WORKER_IMAGE`, they start from the base image again until the project is built anew. ' +
  'A build cut off by its server process stopping becomes `failed` with an `Interrupted: ...` ' +
  "error when the node's agent connects again, and its build container is removed. A node " +
  "keeps a project's two newest built images: a successful build removes older ones that no " +
  'container uses, and says so in its log.';

export function imageBuildRoutes(router: Router, ctx: AppContext): void {
  const { route } = orgRoutes(router, ctx, ['Image builds']);

  route({
    method: 'POST',
    url: '/orgs/:orgId/projects/:projectId/build',
    key: ['projects:write'],
    permission: 'projects.write',
    // The builds are queued in their own transaction, then started on the nodes.
    transaction: false,
    operationId: 'buildProjectImage',
    summary: 'Pre-build the project image',
    description:
      'Queues one build of the current project version on every node the organization can use ' +
      'that is online and not draining (409 `no_node_available` when there is none), and answers ' +
      'at once with the build records (`queued`); follow them in the list or live at ' +
      '`GET /api/image-builds/{id}/logs`. Any member may build.\n\n' +
      WHAT_A_BUILD_DOES,
    params: ProjectParams,
    response: Type.Array(ImageBuild),
    status: 202,
    errors: ['no_node_available'],
    handler: (_db, access, request) => service.startBuilds(ctx, access, request.params.projectId),
  });

  route({
    method: 'GET',
    url: '/orgs/:orgId/projects/:projectId/image-builds',
    key: ['projects:read'],
    permission: 'projects.read',
    operationId: 'listImageBuilds',
    summary: 'List image builds',
    description:
      "The project's builds, newest first, with their steps, status, log and error. `current` " +
      'marks, per node, the one new workers start from.\n\n' +
      WHAT_A_BUILD_DOES,
    params: ProjectParams,
    response: Type.Array(ImageBuild),
    handler: (_db, access, request) => service.listBuilds(ctx, access, request.params.projectId),
  });

  socketRoutes(router, ctx, ['Image builds']).member({
    url: '/image-builds/:buildId/logs',
    key: ['projects:read'],
    permission: 'projects.read',
    resource: 'Image build',
    operationId: 'followImageBuild',
    summary: 'Follow an image build (WebSocket)',
    description:
      "A WebSocket upgrade, authenticated like any call (an unknown build, or another organization's, " +
      'is 404 before the upgrade; a handshake authenticated by the `session` cookie is 403 `origin_not_allowed` ' +
      'unless its `Origin` is the origin of `PUBLIC_URL` or absent). The server sends JSON text frames: `{"type":"step","index":n,...step}` for each ' +
      'step, `{"type":"log","data":"..."}` with the log so far, then the same as the build goes ' +
      '(a step again when it changes; `log` frames carry what was appended), and finally ' +
      '`{"type":"end","status":"succeeded"|"failed","error":...}` before closing with code 1000. ' +
      `A finished build is replayed and ended at once. ${FOLLOWERS}`,
    params: BuildParams,
    errors: ['upgrade_required', 'origin_not_allowed', 'too_many_followers'],
    find: (db, request) => service.findBuild(db, request.params.buildId),
    followers: true,
    prepare: async (_access, build) => build.id,
    connect: (socket, buildId) => followBuild(ctx, socket, buildId),
  });
}
