import type { KeyScope } from '../../../../api/platform-keys.js';

/** Every scope a key can hold, with its meaning (the API contract's scope table). */
export const SCOPES: readonly { scope: KeyScope; meaning: string }[] = [
  { scope: '*', meaning: 'Every scope.' },
  { scope: 'projects:read', meaning: 'List and get projects, image builds, version history.' },
  {
    scope: 'projects:write',
    meaning: 'Create, update, delete projects, trigger builds, restore versions.',
  },
  { scope: 'workers:read', meaning: 'List and get workers, logs, stats, git status, ports.' },
  { scope: 'workers:write', meaning: 'Spawn, stop, start, rebuild, delete workers.' },
  { scope: 'workers:exec', meaning: 'Run commands, open terminal sessions, get SSH tokens.' },
  {
    scope: 'deployments:read',
    meaning: 'List and get deployments and services, service logs, job runs.',
  },
  {
    scope: 'deployments:write',
    meaning: 'Create, update, delete deployments and services; start, stop, deploy; run jobs.',
  },
  {
    scope: 'deployments:access',
    meaning: 'Reach a private service’s own URL without a browser session.',
  },
  { scope: 'nodes:read', meaning: 'List and get nodes and their inventory.' },
  { scope: 'nodes:write', meaning: 'Register and delete nodes, rotate their tokens, drain them.' },
  {
    scope: 'secrets:write',
    meaning: 'Write project secrets (needed in addition to projects:write).',
  },
];
