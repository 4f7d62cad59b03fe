/**
 * The bundled route table: which wire format OpenCode serves each model family on, per catalogue (Go and Zen
 * differ: MiniMax is chat on Zen but Messages on Go). Data only; sources in ../../../../docs/routes.md
 * (OpenCode's zen.mdx / go.mdx, models.dev). The model catalogue (models/catalog) is asked first; these prefixes
 * are the fallback for ids it does not list. Anything not listed goes to Chat Completions, and a wrong guess
 * corrects itself on the gateway's "not supported for format" answer.
 */
import { catalogRoute } from '../../models/catalog/catalog';
import type { RouteId } from '../route';

export type Catalog = 'go' | 'zen';

export interface Family {
  /** Matched against the model id, case-insensitively, from its start. */
  prefix: string;
  route: RouteId;
  /**
   * The model reasons: Responses asks for encrypted reasoning to pass back; Gemini asks for thoughts and signs
   * unsigned calls with the stand-in. Undefined: unknown (Gemini then assumes it thinks, as every served one does).
   */
  reasoning?: boolean;
}

interface CatalogFamily extends Family {
  catalogs: readonly Catalog[];
}

const BOTH: readonly Catalog[] = ['zen', 'go'];

/** One row per family, with the catalogues that serve it so (a family only one lists is chat on the other). */
const FAMILIES: readonly CatalogFamily[] = [
  { prefix: 'gpt-', route: 'responses', reasoning: true, catalogs: BOTH },
  // Zen's page says chat for grok; models.dev and the gateway's own errors say /responses (docs/routes.md).
  { prefix: 'grok-', route: 'responses', reasoning: true, catalogs: BOTH },
  { prefix: 'muse-', route: 'responses', catalogs: ['go'] },
  { prefix: 'claude-', route: 'messages', catalogs: BOTH },
  { prefix: 'qwen3', route: 'messages', catalogs: BOTH },
  // MiniMax is chat on Zen.
  { prefix: 'minimax-', route: 'messages', catalogs: ['go'] },
  { prefix: 'gemini-', route: 'gemini', catalogs: ['zen'] },
];

const familiesOf = (catalog: Catalog): Family[] =>
  FAMILIES.filter((f) => f.catalogs.includes(catalog)).map(({ prefix, route, reasoning }) => (reasoning === undefined ? { prefix, route } : { prefix, route, reasoning }));

export const ROUTE_TABLE: Readonly<Record<Catalog, readonly Family[]>> = { zen: familiesOf('zen'), go: familiesOf('go') };

/** The catalogue an endpoint serves, from its URL (custom endpoints have none: chat unless overridden). */
export function catalogOf(baseUrl: string): Catalog | undefined {
  let path: string;
  try {
    const url = new URL(baseUrl);
    if (url.hostname !== 'opencode.ai' && !url.hostname.endsWith('.opencode.ai')) return undefined;
    path = url.pathname;
  } catch {
    return undefined;
  }
  if (/\/zen\/go(\/|$)/.test(path)) return 'go';
  return /\/zen(\/|$)/.test(path) ? 'zen' : undefined;
}

/** The catalogue's own entry first (catalogData.ts); the prefix families cover ids it does not list. */
export function tableFamily(modelId: string, catalog: Catalog | undefined): Family | undefined {
  if (!catalog) return undefined;
  const listed = catalogRoute(catalog, modelId);
  if (listed) return { prefix: modelId.toLowerCase(), route: listed.route, reasoning: listed.reasoning };
  const id = modelId.toLowerCase();
  return ROUTE_TABLE[catalog].find((family) => id.startsWith(family.prefix));
}
