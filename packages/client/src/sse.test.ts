import { describe, expect, it } from 'vitest';
import { decodeBase64, encodeBase64 } from './frames.js';
import { parseSse, type SseMessage } from './sse.js';

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function parse(chunks: string[]) {
  const messages: SseMessage[] = [];
  const comments: string[] = [];
  let retry: number | undefined;
  const control = {
    comment: (text: string) => comments.push(text),
    retry: (ms: number) => (retry = ms),
  };
  for await (const message of parseSse(streamOf(chunks), control)) messages.push(message);
  return { messages, comments, retry };
}

describe('parseSse', () => {
  it('reads fields, comments, retry and multi-line data, whatever the chunks and line ends', async () => {
    const text =
      'retry: 2000\n\n: keep-alive\r\nid: 1\ndata: {"a":\ndata: 1}\n\nevent: ready\r\nid: 2\r\ndata: {}\r\n\r\ndata:x\rdata: y\r\r';
    for (const size of [1, 3, 7, text.length]) {
      const chunks: string[] = [];
      for (let start = 0; start < text.length; start += size)
        chunks.push(text.slice(start, start + size));
      const { messages, comments, retry } = await parse(chunks);
      expect(retry).toBe(2000);
      expect(comments).toEqual(['keep-alive']);
      expect(messages).toEqual([
        { event: 'message', id: '1', data: '{"a":\n1}' },
        { event: 'ready', id: '2', data: '{}' },
        // The last event id is kept, as EventSource keeps it.
        { event: 'message', id: '2', data: 'x\ny' },
      ]);
    }
  });

  it('dispatches nothing for a message cut short', async () => {
    expect((await parse(['data: half'])).messages).toEqual([]);
  });
});

describe('base64', () => {
  it('round-trips every byte value and large buffers', () => {
    const bytes = new Uint8Array(200_000).map((_, index) => index % 256);
    expect(decodeBase64(encodeBase64(bytes))).toEqual(bytes);
    expect(encodeBase64(new TextEncoder().encode('é'))).toBe(Buffer.from('é').toString('base64'));
  });
});
