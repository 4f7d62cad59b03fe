/** What a reader made of one answer, in one neutral shape, so the SDK's reading and the extension's compare. */
export interface DeliveredUsage {
  /** Tokens in the context window: input + cache read + cache write. */
  context: number;
  cached: number;
  cacheWrite: number;
  completion: number;
}

export interface Delivered {
  text: string;
  thinking: string;
  calls: { name: string; input: unknown }[];
  usage?: DeliveredUsage;
}

/** A route's side of the differential test: how an answer goes on its wire and how its official SDK reads it. */
export interface RouteCase {
  route: 'chat' | 'responses' | 'messages' | 'gemini';
  /** Usage shapes `encode` knows (Answer.usageShape indexes them). */
  usageShapes: number;
  /** Whether a stream without any usage is valid on this wire. */
  noUsage: boolean;
  encode(answer: import('./answerArb').Answer): string;
  /** The SDK's own stream accumulator on the bytes the server serves. */
  oracle(origin: string): Promise<Delivered>;
}

/** A count as a well-read number: numbers and numeric strings; anything else is 0. */
export function tokenCountOf(value: unknown): number {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.round(n) : 0;
}

export const sse = (payload: unknown, event?: string): string => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(payload)}\n\n`;
