import { AgentRequestError } from '../../agent/peer.js';
import { AppError } from '../../http/errors.js';

const STATUS: Record<string, [number, string]> = {
  not_found: [404, 'not_found'],
  terminal_not_found: [404, 'terminal_not_found'],
  command_not_found: [404, 'command_not_found'],
  terminal_exists: [409, 'terminal_exists'],
  conflict: [409, 'container_state_conflict'],
  agent_disconnected: [503, 'node_offline'],
  hello_timeout: [503, 'node_offline'],
  agent_timeout: [504, 'agent_timeout'],
};

/** An agent's refusal as an answer to the client: a stable code, never a 500. */
export function fromAgentError(error: unknown): unknown {
  if (!(error instanceof AgentRequestError)) return error;
  const [status, code] = STATUS[error.code] ?? [502, 'agent_error'];
  return new AppError(status, code, error.message, { agentCode: error.code });
}

/** Runs a request to an agent, turning its refusals into API errors. */
export async function agentCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw fromAgentError(error);
  }
}
