import type { ErrorPayload } from './protocol/messages.js';

/** A failure the agent reports to the server with a stable code. */
export class AgentError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AgentError';
  }
}

interface EngineFailure {
  statusCode?: unknown;
  json?: unknown;
  code?: unknown;
  message?: unknown;
}

function engineMessage(error: EngineFailure): string {
  const json = error.json;
  if (typeof json === 'object' && json !== null && 'message' in json) {
    const message = json.message;
    if (typeof message === 'string' && message !== '') return message;
  }
  if (typeof json === 'string' && json.trim() !== '') return json.trim();
  return typeof error.message === 'string' ? error.message : String(error);
}

/**
 * The engine refused because of the container's state: Docker says 409,
 * Podman 500 with "container state improper".
 */
export function isStateConflict(error: unknown): boolean {
  const status = engineStatus(error);
  if (status === 409) return true;
  if (status !== 500 || typeof error !== 'object' || error === null) return false;
  return engineMessage(error).includes('state improper');
}

/** The HTTP status of a failed engine call, when it got that far. */
export function engineStatus(error: unknown): number | null {
  if (typeof error !== 'object' || error === null || !('statusCode' in error)) return null;
  return typeof error.statusCode === 'number' ? error.statusCode : null;
}

/**
 * Maps a dockerode failure to an AgentError. `subject` names what was asked
 * for ("container abc"), so a 404 reads well whatever the engine said.
 */
export function fromEngineError(
  error: unknown,
  subject: string,
  notFound = 'not_found',
): AgentError {
  if (error instanceof AgentError) return error;
  const failure: EngineFailure = typeof error === 'object' && error !== null ? error : {};
  const status = engineStatus(error);
  const detail = engineMessage(failure);
  if (status === 404) return new AgentError(notFound, `${subject} not found: ${detail}`);
  // Docker says 409 for a name in use; Podman 500 with these words.
  if (isStateConflict(error) || detail.includes('already in use')) {
    return new AgentError('conflict', `${subject}: ${detail}`);
  }
  if (status !== null) return new AgentError('engine_error', `${subject}: ${detail}`);
  const code = typeof failure.code === 'string' ? failure.code : '';
  if (['ENOENT', 'ECONNREFUSED', 'EACCES', 'ECONNRESET', 'EPIPE'].includes(code)) {
    return new AgentError('engine_unavailable', `container engine unreachable: ${detail}`);
  }
  return new AgentError('engine_error', `${subject}: ${detail}`);
}

export function toErrorPayload(error: unknown): ErrorPayload {
  if (error instanceof AgentError) return { code: error.code, message: error.message };
  return {
    code: 'internal_error',
    message: error instanceof Error ? error.message : String(error),
  };
}
