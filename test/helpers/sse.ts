/**
 * A Server-Sent Events client over `node:http`, parsing the stream as
 * `EventSource` does (fields, comments, blank line to dispatch), for tests
 * against a listening server.
 */
import { get, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';

export interface SseMessage {
  event: string;
  id: string;
  data: string;
}

export interface SseStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** Messages dispatched so far, in order. */
  messages: SseMessage[];
  comments: string[];
  retry: number | null;
  /** The last `id:` seen, as `EventSource` keeps it for `Last-Event-ID`. */
  lastEventId: string;
  /** Resolves when the server ends the stream (or `close` is called). */
  ended: Promise<void>;
  close(): void;
}

export interface SseError {
  status: number;
  body: { error: { code: string } };
}

/**
 * Opens a stream on a connection of its own (`node:http` without an agent:
 * no pool that opens another connection behind the test's back, which would
 * hold the server's close); a non-200 answer comes back as the error body.
 */
export async function openSse(
  url: string,
  headers: Record<string, string> = {},
): Promise<SseStream | SseError> {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const request = get(url, {
      agent: false,
      headers: { accept: 'text/event-stream', ...headers },
    });
    request.on('response', resolve);
    request.on('error', reject);
  });
  const status = response.statusCode ?? 0;
  if (status !== 200) {
    let text = '';
    response.setEncoding('utf8');
    for await (const chunk of response) text += String(chunk);
    return { status, body: JSON.parse(text) as SseError['body'] };
  }
  const stream: SseStream = {
    status,
    headers: response.headers,
    messages: [],
    comments: [],
    retry: null,
    lastEventId: '',
    ended: new Promise((resolve) => response.on('close', () => resolve())),
    close: () => response.destroy(),
  };
  let buffer = '';
  let data: string[] = [];
  let event = '';
  const line = (text: string) => {
    if (text === '') {
      if (data.length > 0)
        stream.messages.push({
          event: event || 'message',
          id: stream.lastEventId,
          data: data.join('\n'),
        });
      data = [];
      event = '';
      return;
    }
    if (text.startsWith(':')) {
      stream.comments.push(text.slice(1).trim());
      return;
    }
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    const value = colon === -1 ? '' : text.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id') stream.lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) stream.retry = Number(value);
  };
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => {
    buffer += chunk;
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop() ?? '';
    for (const text of lines) line(text);
  });
  return stream;
}

/** The stream, failing the test when the server refused it. */
export function opened(stream: SseStream | SseError): SseStream {
  if (!('messages' in stream)) throw new Error(`stream refused: ${JSON.stringify(stream)}`);
  return stream;
}

/** The `data` of the ordinary messages (the events), parsed. */
export function eventsOf<T = { id: string; type: string }>(stream: SseStream): T[] {
  return stream.messages
    .filter((message) => message.event === 'message')
    .map((message) => JSON.parse(message.data) as T);
}
