/** One record of an SSE body: its `event:` name (absent for plain messages) and its `data:` JSON. */
export interface SseRecord {
  readonly event: string | undefined;
  readonly data: Record<string, unknown>;
}

/** The records of an SSE body as they arrive, until `enough` says so (then the body is cancelled). */
export async function readSseRecords(body: ReadableStream<Uint8Array>, enough: (records: SseRecord[]) => boolean): Promise<SseRecord[]> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const records: SseRecord[] = [];
  let buffer = '';
  while (!enough(records)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = /^data: (.+)$/m.exec(block)?.[1];
      if (data !== undefined) records.push({ event: /^event: (.+)$/m.exec(block)?.[1], data: JSON.parse(data) as Record<string, unknown> });
    }
  }
  await reader.cancel().catch(() => undefined);
  return records;
}
