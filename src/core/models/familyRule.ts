/**
 * The family rule: what a model id alone says about a model no data lists — its route on OpenCode's endpoints
 * (and, after a wrong-format refusal, on any endpoint), whether it reasons, whether it is a free-tier id. Go and
 * Zen differ for some families (MiniMax is chat on Zen, Messages on Go). Sources in docs/routes.md. Knowledge
 * only improves a request: an id no family matches goes to Chat Completions and a wrong guess corrects itself on
 * the gateway's "not supported for format" answer.
 */
import type { RouteId } from '../routeId';
import type { EndpointCatalog } from './modelData';

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

/** The family an id belongs to. `catalog` undefined (a custom endpoint): the first row whatever its endpoints. */
export function familyOf(modelId: string, catalog: EndpointCatalog | undefined): Family | undefined {
  const id = bareId(modelId);
  return FAMILIES.find((family) => id.startsWith(family.prefix) && (!catalog || family.catalogs.includes(catalog)));
}

/** OpenCode's free-tier ids end in `-free`. */
export function isFreeTierId(modelId: string): boolean {
  return bareId(modelId).endsWith('-free');
}

/** The one id-matching rule: lowercase, without a `provider/` prefix (`opencode/claude-opus-4-7`). */
export function bareId(modelId: string): string {
  return modelId.toLowerCase().replace(/^.*\//, '');
}
