/**
 * The layer list as docs/architecture.md holds it, in a fenced `layers` block: one line a layer,
 * lowest first, naming its rooms; and `room <- rooms…` lines naming the only rooms that may import
 * a room. `#` starts a comment.
 */
export interface LayerSpec {
  /** Room → its layer's position (0 is the lowest). */
  readonly rank: ReadonlyMap<string, number>;
  /** Room → the only rooms that may import it. */
  readonly onlyFrom: ReadonlyMap<string, ReadonlySet<string>>;
}

export function readLayerBlock(markdown: string): string {
  const match = /^```layers\n([\s\S]*?)^```/m.exec(markdown);
  if (match?.[1] === undefined) throw new Error('no ```layers block found: the layer list is a fenced block whose info string is `layers`');
  return match[1];
}

export function parseLayerSpec(block: string): LayerSpec {
  const rank = new Map<string, number>();
  const onlyFrom = new Map<string, Set<string>>();
  let layer = 0;
  block.split('\n').forEach((raw, index) => {
    const line = raw.replace(/#.*/, '').trim();
    if (line === '') return;
    const where = `layers block, line ${index + 1}`;
    const arrow = /^(\S+)\s*<-\s*(.*)$/.exec(line);
    if (arrow !== null) {
      const [, room = '', users = ''] = arrow;
      onlyFrom.set(room, new Set(users.split(/\s+/).filter(Boolean)));
      return;
    }
    for (const room of line.split(/\s+/)) {
      if (rank.has(room)) throw new Error(`${where}: room '${room}' is named twice`);
      rank.set(room, layer);
    }
    layer += 1;
  });
  for (const [room, users] of onlyFrom) {
    for (const name of [room, ...users]) if (!rank.has(name)) throw new Error(`layers block: '${name}' in '${room} <- …' is not a room of any layer`);
  }
  return { rank, onlyFrom };
}
