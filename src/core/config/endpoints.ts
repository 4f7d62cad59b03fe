/**
 * The endpoints the picker lists at once (docs/endpoints.md): the default one (opencode.preset / opencode.baseUrl,
 * as before) and those `opencode.endpoints` adds beside it — OpenCode Go and Zen built in, any OpenAI-compatible
 * endpoint by URL. A model's identity is endpoint + id: the default endpoint's models keep their bare ids (picks made
 * before several endpoints existed still work), another endpoint's are `<endpoint id>/<model id>`. Also the facts
 * about an endpoint's URL that decide whether a key is needed and whether to warn (loopback, plain HTTP, catalogue).
 */
import { outsideText } from '../util/excerpt';
import { redact, redactUrl } from '../util/redact';
import { parsedHttpUrl, urlProblem } from './endpointUrl';
import type { Settings } from './settings';
import { type EndpointCatalog } from '../routeId';

export interface EndpointConfig {
  /** Short and stable: the key's name in secret storage, the prefix of its models' ids, the scope of its saved state. */
  id: string;
  /** What the picker and messages call it ("OpenCode Zen", a host name). */
  label: string;
  baseUrl: string;
  /** Whose model data applies (undefined: a custom endpoint). */
  catalog?: EndpointCatalog;
}

export const BUILT_IN_ENDPOINTS: Readonly<Record<EndpointCatalog, EndpointConfig>> = {
  go: { id: 'go', label: 'OpenCode Go', baseUrl: 'https://opencode.ai/zen/go/v1', catalog: 'go' },
  zen: { id: 'zen', label: 'OpenCode Zen', baseUrl: 'https://opencode.ai/zen/v1', catalog: 'zen' },
};

const ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const CATALOG_CHOICES = ['zen', 'go', 'none'] as const;

/** The default endpoint, from the single-endpoint settings (resolved in settings.ts). */
export function defaultEndpoint(baseUrl: string, catalog: EndpointCatalog | undefined): EndpointConfig {
  const builtIn = Object.values(BUILT_IN_ENDPOINTS).find((endpoint) => endpoint.baseUrl === baseUrl);
  if (builtIn) return { ...builtIn, catalog };
  return { id: catalog && catalogOf(baseUrl) === catalog ? catalog : 'custom', label: labelOf(baseUrl, catalog), baseUrl, catalog };
}

/**
 * `opencode.endpoints`: each item "go", "zen", or `{ id, baseUrl, label?, catalog? }` (a built-in id with a URL is that
 * endpoint behind a proxy). An unusable item is left out with a warning; one that repeats an id or the URL of an
 * endpoint before it is left out too. The default endpoint comes first.
 */
export function resolveEndpoints(raw: unknown, first: EndpointConfig, warn: (message: string) => void): EndpointConfig[] {
  const endpoints = [first];
  if (raw === undefined || raw === null) return endpoints;
  if (!Array.isArray(raw)) {
    warn(`opencode.endpoints ${redact(JSON.stringify(raw))} is not a list; only ${first.label} is used.`);
    return endpoints;
  }
  raw.forEach((item: unknown, index) => {
    const parsed = endpointItem(item);
    const where = `opencode.endpoints[${index}]`;
    if (typeof parsed === 'string') return warn(`${where} ${parsed}; it is left out.`);
    const repeated = endpoints.find((e) => e.id === parsed.id || e.baseUrl === parsed.baseUrl);
    if (repeated) return warn(`${where} repeats ${repeated.id === parsed.id ? `the id "${parsed.id}"` : `the URL of "${repeated.id}"`} of ${repeated.label}; it is left out.`);
    endpoints.push(parsed);
  });
  return endpoints;
}

/** One item, or the reason it cannot be used. */
function endpointItem(item: unknown): EndpointConfig | string {
  if (typeof item === 'string') {
    const builtIn = (BUILT_IN_ENDPOINTS as Record<string, EndpointConfig | undefined>)[item];
    return builtIn ? { ...builtIn } : `${redact(JSON.stringify(item))} is neither "go", "zen" nor an object with an id and a baseUrl`;
  }
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return 'is neither "go", "zen" nor an object with an id and a baseUrl';
  const fields = item as Record<string, unknown>;
  const id = typeof fields.id === 'string' ? fields.id.trim() : '';
  if (!ID_PATTERN.test(id)) return `has no usable "id" (1–32 lowercase letters, digits, "-" or "_")`;
  const builtIn = (BUILT_IN_ENDPOINTS as Record<string, EndpointConfig | undefined>)[id];
  const url = fields.baseUrl === undefined && builtIn ? builtIn.baseUrl : fields.baseUrl;
  const problem = urlProblem(url);
  if (problem) return `("${id}") has a baseUrl that ${problem}`;
  const baseUrl = parsedHttpUrl(url as string) as string;
  const catalog = catalogField(fields.catalog, builtIn?.catalog ?? catalogOf(baseUrl));
  if (catalog === null) return `("${id}") has a "catalog" that is not one of ${CATALOG_CHOICES.join(', ')}`;
  const label = typeof fields.label === 'string' && fields.label.trim() ? outsideText(fields.label.trim(), 60) : builtIn?.label ?? labelOf(baseUrl, catalog);
  return { id, label, baseUrl, catalog };
}

/** The item's catalogue: the given one, "none" for no OpenCode data, absent for the URL's; null when unusable. */
function catalogField(raw: unknown, fallback: EndpointCatalog | undefined): EndpointCatalog | undefined | null {
  if (raw === undefined) return fallback;
  if (raw === 'none') return undefined;
  return raw === 'zen' || raw === 'go' ? raw : null;
}

function labelOf(baseUrl: string, catalog: EndpointCatalog | undefined): string {
  let host: string;
  try {
    host = new URL(baseUrl).host;
  } catch {
    host = 'custom endpoint';
  }
  return catalog && !catalogOf(baseUrl) ? `${host} (${BUILT_IN_ENDPOINTS[catalog].label})` : host;
}

/** Every endpoint the settings enable, the default first (settings built without the list have just the default). */
export function enabledEndpoints(settings: Pick<Settings, 'baseUrl' | 'catalog' | 'endpoints'>): readonly EndpointConfig[] {
  return settings.endpoints?.length ? settings.endpoints : [defaultEndpoint(settings.baseUrl, settings.catalog)];
}

/**
 * The id VS Code knows a model by: `<endpoint>/<model>` on the other endpoints; bare on the default one (picks made
 * before several endpoints existed still work) unless the model id itself starts with an endpoint's id and a slash
 * (`other/foo` beside an endpoint "other"): then it carries the default endpoint's prefix too, so no two models ever
 * share a pick id and fromPickId always finds the endpoint that listed it.
 */
export function pickId(endpoints: readonly EndpointConfig[], endpoint: EndpointConfig, modelId: string): string {
  const bare = endpoint.id === endpoints[0]?.id && claimedBy(endpoints, modelId) === undefined;
  return bare ? modelId : `${endpoint.id}/${modelId}`;
}

/** The endpoint and model id behind a pick id (pickId's inverse); an id no endpoint's prefix claims is the default endpoint's. */
export function fromPickId(endpoints: readonly EndpointConfig[], id: string): { endpoint: EndpointConfig; modelId: string } {
  const claimed = claimedBy(endpoints, id);
  return claimed ? { endpoint: claimed, modelId: id.slice(claimed.id.length + 1) } : { endpoint: endpoints[0], modelId: id };
}

/** The endpoint whose id is the text before the first slash, if any (endpoint ids have no slash). */
function claimedBy(endpoints: readonly EndpointConfig[], id: string): EndpointConfig | undefined {
  const slash = id.indexOf('/');
  return slash > 0 ? endpoints.find((e) => e.id === id.slice(0, slash)) : undefined;
}

/**
 * The settings as one endpoint's engine reads them: its URL and catalogue, and the `opencode.models` overrides that
 * apply to it — a bare id on every endpoint, `<endpoint>/<model>` on that endpoint only (and winning there).
 */
export function endpointSettings(settings: Settings, endpoint: EndpointConfig): Settings {
  // Settings are immutable snapshots (a change makes a new one), so each endpoint's view is made once per snapshot,
  // not once per hook that asks during a request.
  const key = `${endpoint.id}\u0000${endpoint.baseUrl}\u0000${endpoint.catalog ?? ''}`;
  let views = VIEWS.get(settings);
  if (!views) VIEWS.set(settings, (views = new Map()));
  let view = views.get(key);
  if (!view) views.set(key, (view = mergedFor(settings, endpoint)));
  return view;
}

const VIEWS = new WeakMap<Settings, Map<string, Settings>>();

function mergedFor(settings: Settings, endpoint: EndpointConfig): Settings {
  const endpoints = enabledEndpoints(settings);
  const models: Record<string, NonNullable<Settings['models']>[string]> = {};
  for (const [id, override] of Object.entries(settings.models ?? {})) {
    // Read as a pick id (the one rule): `<endpoint>/<model>` is that endpoint's, the default one included.
    const claimed = claimedBy(endpoints, id);
    if (claimed?.id === endpoint.id) models[id.slice(claimed.id.length + 1)] = override;
    else if (!claimed) models[id] ??= override;
  }
  return { ...settings, baseUrl: endpoint.baseUrl, catalog: endpoint.catalog, models };
}

/** An id for a new endpoint at this URL: from its host, not one of `taken` (the command that adds one proposes it). */
export function suggestedId(baseUrl: string, taken: readonly string[]): string {
  let host = 'endpoint';
  try {
    host = new URL(baseUrl).hostname.replace(/^www\./, '').split('.')[0] || host;
  } catch {
    // keep the generic name
  }
  const base = host.toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^[^a-z0-9]+/, '').slice(0, 28) || 'endpoint';
  for (let n = 1; ; n++) {
    const id = n === 1 ? base : `${base}-${n}`;
    if (!taken.includes(id)) return id;
  }
}

/** Why `id` cannot name a new endpoint beside `taken`, or undefined. */
export function idProblem(id: string, taken: readonly string[]): string | undefined {
  if (!ID_PATTERN.test(id)) return 'Use 1–32 lowercase letters, digits, "-" or "_", starting with a letter or digit.';
  return taken.includes(id) ? `"${id}" is already an endpoint's id.` : undefined;
}

export function isLoopbackUrl(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

/** Plain HTTP to a remote host would send the API key and the conversation in clear text. */
export function isInsecureRemoteUrl(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).protocol === 'http:' && !isLoopbackUrl(baseUrl);
  } catch {
    return false;
  }
}

/**
 * Whether OPENCODE_API_KEY (the environment key) may be sent to this endpoint: only over https to OpenCode itself.
 * Not to an endpoint added by URL, not to a proxy or a loopback server set as the default, never in clear text.
 */
export function envKeyAllowed(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).protocol === 'https:' && isOpenCodeUrl(baseUrl);
  } catch {
    return false;
  }
}

/**
 * The warning for an endpoint reached over plain HTTP (loopback exempt: nothing leaves the machine), or undefined.
 * `where` names the setting (`opencode.baseUrl`, `opencode.endpoints "id"`).
 */
export function plainHttpWarning(where: string, baseUrl: string): string | undefined {
  if (!isInsecureRemoteUrl(baseUrl)) return undefined;
  return `${where} ${redactUrl(baseUrl)} is plain HTTP to a remote host: your API key and conversation travel unencrypted. Use https://.`;
}

/** An endpoint of OpenCode itself (opencode.ai or a subdomain). */
export function isOpenCodeUrl(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname;
    return host === 'opencode.ai' || host.endsWith('.opencode.ai');
  } catch {
    return false;
  }
}

/** The OpenCode catalogue an endpoint serves, from its URL; undefined for any other endpoint (custom, proxy, local). */
export function catalogOf(baseUrl: string): EndpointCatalog | undefined {
  if (!isOpenCodeUrl(baseUrl)) return undefined;
  const path = new URL(baseUrl).pathname;
  if (/\/zen\/go(\/|$)/.test(path)) return 'go';
  return /\/zen(\/|$)/.test(path) ? 'zen' : undefined;
}
