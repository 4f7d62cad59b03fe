/** Recorded provider streams (one chunk per line) kept as fixtures, replayed through the StreamMapper. */
import * as fs from 'fs';
import * as path from 'path';
import type { ChunkLike } from '../../core/stream/streamMapper';
import { StreamMapper } from '../../core/stream/streamMapper';
import type { StreamEvent } from '../../core/types';

export const FIXTURE_DIR = path.join(__dirname, '..', '..', '..', 'src', 'test', 'fixtures', 'streams');

export function loadChunks(name: string): ChunkLike[] {
  const text = fs.readFileSync(path.join(FIXTURE_DIR, `${name}.chunks.jsonl`), 'utf8');
  return text.split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line) as ChunkLike);
}

export function replayStream(name: string): StreamEvent[] {
  const mapper = new StreamMapper();
  const events: StreamEvent[] = [];
  for (const chunk of loadChunks(name)) events.push(...mapper.push(chunk));
  events.push(...mapper.finish());
  return events;
}
