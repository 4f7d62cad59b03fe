/** Recorded provider streams (one chunk per line) kept as fixtures, replayed through the chat route's reader. */
import * as fs from 'fs';
import * as path from 'path';
import { routeById } from '../../core/routes/registry/registry';
import type { StreamEvent } from '../../core/types';
import { usageEvent } from './routeHarness';
import { checkChunk, type Chunk } from '../../core/routes/chat/chatChunk';

export const FIXTURE_DIR = path.join(__dirname, '..', '..', '..', 'src', 'test', 'fixtures', 'streams');

/** The recorded chunks, checked as the transport checks them (chunkShape.ts). */
export function loadChunks(name: string): Chunk[] {
  const text = fs.readFileSync(path.join(FIXTURE_DIR, `${name}.chunks.jsonl`), 'utf8');
  return text.split('\n').filter((line) => line.trim()).map((line) => checkChunk(JSON.parse(line) as Record<string, unknown>).chunk);
}

export function replayStream(name: string): StreamEvent[] {
  const reader = routeById('chat').newReader('fixture');
  const events: StreamEvent[] = [];
  for (const chunk of loadChunks(name)) events.push(...reader.push(chunk).events);
  events.push(...reader.finish(), ...usageEvent(reader));
  return events;
}
