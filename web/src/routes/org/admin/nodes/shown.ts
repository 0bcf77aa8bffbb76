import type { NodeWithToken } from '../../../../api/nodes.js';
import type { ShownOnce } from '../ShownOnceDialog.js';

/**
 * The agent command for this server as the browser reaches it (the address
 * the person uses is the one an agent can reach too, when PUBLIC_URL is not set).
 */
export function agentCommandFor(token: string): string {
  return `sparrow agent --server ${window.location.origin} --token ${token}`;
}

/** A node's token and the command that connects its agent, to show once. */
export function nodeTokenShown(title: string, answer: NodeWithToken): ShownOnce {
  return {
    title,
    values: [
      { label: 'Node token', value: answer.token },
      { label: 'Agent command', value: agentCommandFor(answer.token) },
    ],
  };
}
