import { AgentRequestError } from '../../agent/peer.js';
import type { ErrorCode } from '../../http/error-codes.js';
import { AppError } from '../../http/errors.js';

/** The agent's own refusal codes, as API error codes. */
const CODES: Record<string, ErrorCode> = {
  not_found: 'not_found',
  terminal_not_found: 'terminal_not_found',
  command_not_found: 'command_not_found',
  terminal_exists: 'terminal_exists',
  conflict: 'container_state_conflict',
  agent_disconnected: 'node_offline',
  hello_timeout: 'node_offline',
  agent_timeout: 'agent_timeout',
};

/** An agent's refusal as an answer to the client: a stable code, never a 500. */
export function fromAgentError(error: unknown): unknown {
  if (!(error instanceof AgentRequestError)) return error;
  const code = CODES[error.code] ?? 'agent_error';
  return new AppError(code, error.message, { agentCode: error.code });
}

/** Runs a request to an agent, turning its refusals into API errors. */
export async function agentCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw fromAgentError(error);
  }
}
