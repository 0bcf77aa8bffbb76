/** One Server-Sent Events message, as `EventSource` dispatches it. */
export interface SseMessage {
  event: string;
  id: string | undefined;
  data: string;
}

/** What a stream says besides its messages. */
export interface SseControl {
  /** `retry:` the server's reconnection delay (milliseconds). */
  retry?(ms: number): void;
  /** A comment line (`: keep-alive`). */
  comment?(text: string): void;
}

/**
 * Parses a `text/event-stream` body as the HTML standard says (fields,
 * comments, a blank line dispatches, `\r\n`, `\r` or `\n` line ends), for
 * `fetch`, which unlike `EventSource` can send an Authorization header.
 */
export async function* parseSse(
  body: ReadableStream<Uint8Array>,
  control: SseControl = {},
): AsyncIterableIterator<SseMessage> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  let sawData = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (!done) buffer += decoder.decode(value, { stream: true });
      for (;;) {
        const end = /\r\n|\r|\n/.exec(buffer);
        // A lone `\r` at the end may be the first half of `\r\n`: wait for more, unless the stream ended.
        if (end === null || (!done && end[0] === '\r' && end.index === buffer.length - 1)) break;
        const line = buffer.slice(0, end.index);
        buffer = buffer.slice(end.index + end[0].length);
        if (line === '') {
          if (sawData) yield { event: event || 'message', id, data: data.join('\n') };
          event = '';
          data = [];
          sawData = false;
          continue;
        }
        if (line.startsWith(':')) {
          control.comment?.(line.slice(1).trimStart());
          continue;
        }
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'event') event = value;
        else if (field === 'data') {
          data.push(value);
          sawData = true;
        } else if (field === 'id' && !value.includes('\0')) id = value;
        else if (field === 'retry' && /^\d+$/.test(value)) control.retry?.(Number(value));
      }
      if (done) return;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
