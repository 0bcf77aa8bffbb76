import type { SecretChange, Service, UpdateService } from '../../../api/deployments.js';
import { type EnvRow, envObject, envRows, sameEnv } from './EnvEditor.js';
import { type SourceDraft, sourceBody, sourceDraft } from './SourceFields.js';

export interface CronDraft {
  name: string;
  schedule: string;
  command: string;
}

/** Every setting of a service as the form holds it (text as typed). */
export interface ServiceDraft {
  name: string;
  source: SourceDraft;
  command: string;
  port: string;
  replicas: string;
  health: { on: boolean; path: string; interval: string; timeout: string; grace: string };
  env: EnvRow[];
  secrets: SecretChange[];
  cronJobs: CronDraft[];
  preDeploy: { on: boolean; command: string; timeout: string };
  accessControl: 'public' | 'private';
  allowlist: string[];
  customDomain: string;
}

export function draftOf(service: Service): ServiceDraft {
  const health = service.healthCheck;
  return {
    name: service.name,
    source: sourceDraft(service.source),
    command: service.command ?? '',
    port: service.port === null ? '' : String(service.port),
    replicas: String(service.replicas),
    health: {
      on: health !== null,
      path: health?.path ?? '/',
      interval: String(health?.intervalSeconds ?? 5),
      timeout: String(health?.timeoutSeconds ?? 2),
      grace: String(health?.graceSeconds ?? 60),
    },
    env: envRows(service.env),
    secrets: [],
    cronJobs: service.cronJobs.map((job) => ({ ...job })),
    preDeploy: {
      on: service.preDeploy !== null,
      command: service.preDeploy?.command ?? '',
      timeout: String(service.preDeploy?.timeoutSeconds ?? 600),
    },
    accessControl: service.accessControl,
    allowlist: [...service.allowlist],
    customDomain: service.customDomain?.name ?? '',
  };
}

/**
 * A number as typed. Text that is no number is sent as the text itself, so
 * that the API refuses it next to its field (NaN would go out as null, which
 * clears a port): the one place the body does not hold the schema's type.
 */
export function numberOf(text: string): number {
  const trimmed = text.trim();
  const value = Number(trimmed);
  return trimmed !== '' && Number.isFinite(value) ? value : (trimmed as unknown as number);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The PATCH body: only the settings that changed. A cleared text field is
 * sent as "" (the API clears it), an emptied list as [], an emptied env as
 * {}, a setting switched off (health check, pre-deploy hook, port) as null.
 */
export function patchOf(service: Service, draft: ServiceDraft): UpdateService {
  const body: UpdateService = {};
  const base = draftOf(service);
  if (draft.name !== base.name) body.name = draft.name;
  const source = sourceBody(draft.source);
  if (!same(source, sourceBody(base.source))) body.source = source;
  if (draft.command !== base.command) body.command = draft.command;
  if (draft.port !== base.port) body.port = draft.port.trim() === '' ? null : numberOf(draft.port);
  if (draft.replicas !== base.replicas) body.replicas = numberOf(draft.replicas);
  const health = draft.health.on
    ? {
        path: draft.health.path,
        intervalSeconds: numberOf(draft.health.interval),
        timeoutSeconds: numberOf(draft.health.timeout),
        graceSeconds: numberOf(draft.health.grace),
      }
    : null;
  if (!same(health, service.healthCheck)) body.healthCheck = health;
  const env = envObject(draft.env);
  if (!sameEnv(env, service.env)) body.env = env;
  if (draft.secrets.length > 0) body.secrets = draft.secrets;
  if (!same(draft.cronJobs, base.cronJobs)) body.cronJobs = draft.cronJobs;
  const preDeploy = draft.preDeploy.on
    ? { command: draft.preDeploy.command, timeoutSeconds: numberOf(draft.preDeploy.timeout) }
    : null;
  if (!same(preDeploy, service.preDeploy)) body.preDeploy = preDeploy;
  if (draft.accessControl !== base.accessControl) body.accessControl = draft.accessControl;
  if (!same([...draft.allowlist].sort(), [...base.allowlist].sort())) {
    body.allowlist = draft.allowlist;
  }
  if (draft.customDomain !== base.customDomain) body.customDomain = draft.customDomain;
  return body;
}
