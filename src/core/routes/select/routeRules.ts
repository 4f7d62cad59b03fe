/**
 * What names a model's route when no card does (route selection's own facts; the model table applies them,
 * models/modelTable.ts): the family rule's table — what a model id alone says, by prefix: its route on OpenCode's
 * endpoints (and, after a wrong-format refusal, on any endpoint) and whether it reasons (Go and Zen differ for some
 * families: MiniMax is chat on Zen, Messages on Go; sources in docs/routes.md) — models.dev's SDK package and shape
 * (OpenCode's own client picks its SDK by the package: the OpenAI one speaks Responses, the Anthropic one Messages,
 * the Google one Gemini, the OpenAI-compatible one Chat Completions), and the route of a model nothing names. A
 * wrong guess corrects itself on the gateway's "not supported for format" answer. Data only: nothing here runs
 * per request.
 */
import type { EndpointCatalog, RouteId } from '../../routeId';

/** The route of a model nothing else names (any OpenAI-compatible endpoint speaks it). */
export const DEFAULT_ROUTE: RouteId = 'chat';

export interface Family {
  /** Matched against the model id, case-insensitively, from its start. */
  prefix: string;
  route: RouteId;
  /** The model reasons (Responses asks for encrypted reasoning, Gemini for thoughts). Undefined: unknown. */
  reasons?: boolean;
  /** The endpoints that serve the family on this route; on the others it is chat. */
  catalogs: readonly EndpointCatalog[];
}

const BOTH: readonly EndpointCatalog[] = ['zen', 'go'];

export const FAMILIES: readonly Family[] = [
  { prefix: 'gpt-', route: 'responses', reasons: true, catalogs: BOTH },
  { prefix: 'o1', route: 'responses', reasons: true, catalogs: BOTH },
  { prefix: 'o3', route: 'responses', reasons: true, catalogs: BOTH },
  { prefix: 'o4', route: 'responses', reasons: true, catalogs: BOTH },
  { prefix: 'codex-', route: 'responses', reasons: true, catalogs: BOTH },
  // Zen's page says chat for grok; models.dev and the gateway's own errors say /responses (docs/routes.md).
  { prefix: 'grok-', route: 'responses', reasons: true, catalogs: BOTH },
  { prefix: 'muse-', route: 'responses', catalogs: BOTH },
  { prefix: 'claude-', route: 'messages', catalogs: BOTH },
  { prefix: 'qwen3', route: 'messages', catalogs: BOTH },
  // MiniMax is chat on Zen.
  { prefix: 'minimax-', route: 'messages', catalogs: ['go'] },
  { prefix: 'gemini-', route: 'gemini', reasons: true, catalogs: BOTH },
];

/** models.dev's `provider.npm` → the route that SDK package speaks. */
const NPM_ROUTES: ReadonlyMap<string, RouteId> = new Map([
  ['@ai-sdk/openai', 'responses'],
  ['@ai-sdk/anthropic', 'messages'],
  ['@ai-sdk/google', 'gemini'],
  ['@ai-sdk/openai-compatible', 'chat'],
]);

/** models.dev's `provider.shape` (an OpenAI package's choice of API) → the route. */
const SHAPE_ROUTES: ReadonlyMap<string, RouteId> = new Map([
  ['responses', 'responses'],
  ['completions', 'chat'],
]);

/** The route a models.dev SDK package speaks, if it is one we know. */
export function routeOfNpm(npm: unknown): RouteId | undefined {
  return typeof npm === 'string' ? NPM_ROUTES.get(npm) : undefined;
}

/** The route a models.dev provider shape names, if any. */
export function routeOfShape(shape: unknown): RouteId | undefined {
  return typeof shape === 'string' ? SHAPE_ROUTES.get(shape) : undefined;
}
