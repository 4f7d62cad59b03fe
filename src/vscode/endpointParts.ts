/**
 * One set of parts per enabled endpoint (docs/endpoints.md): its engine (own saved state, own conversation ids, own
 * key), its model list and its warming. Built when an endpoint first appears in the settings and kept while its id
 * and place (default or not) stay; the endpoint's URL and catalogue are read afresh on every request.
 */
import type * as vscode from 'vscode';
import { enabledEndpoints, endpointSettings, fromPickId, pickId, type EndpointConfig } from '../core/config/endpoints';
import type { Settings } from '../core/config/settings';
import type { ChatEngine } from '../core/request/chatEngine';
import { pricesFor } from '../core/cost/requestCost';
import type { DescribingModel } from '../core/request/describeImages';
import type { ChatMessage, ModelEntry } from '../core/types';
import type { KeyTarget } from './apiKey';
import type { ModelList } from './modelList';
import { type EndpointCatalog } from '../core/routeId';
import { describingModel, listedFields, offered } from '../core/models/modelTable';
import { type ListedFields } from '../core/models/modelFacts';

export interface EndpointPart {
  /** The endpoint as the settings say now. */
  config(): EndpointConfig;
  isDefault: boolean;
  engine: ChatEngine;
  list: ModelList;
  dispose(): void;
}

/** Builds an endpoint's parts; `config` reads the endpoint's current settings. */
export type BuildPart = (id: string, isDefault: boolean, config: () => EndpointConfig) => EndpointPart;

export class EndpointRegistry implements vscode.Disposable {
  private readonly parts = new Map<string, EndpointPart>();

  constructor(
    private readonly settings: () => Settings,
    private readonly build: BuildPart,
  ) {}

  /** Every enabled endpoint's parts, the default first; parts of endpoints no longer enabled are let go. */
  all(): EndpointPart[] {
    const endpoints = enabledEndpoints(this.settings());
    const wanted = endpoints.map((endpoint, index) => ({ endpoint, key: partKey(endpoint.id, index === 0) }));
    for (const [key, part] of this.parts) {
      if (!wanted.some((w) => w.key === key)) {
        part.dispose();
        this.parts.delete(key);
      }
    }
    return wanted.map(({ endpoint, key }, index) => {
      let part = this.parts.get(key);
      if (!part) {
        const id = endpoint.id;
        part = this.build(id, index === 0, () => enabledEndpoints(this.settings()).find((e) => e.id === id) ?? endpoint);
        this.parts.set(key, part);
      }
      return part;
    });
  }

  default(): EndpointPart {
    return this.all()[0];
  }

  /** The endpoint behind a pick id, and the model id it knows. */
  resolve(id: string): { part: EndpointPart; modelId: string } {
    const parts = this.all();
    const { endpoint, modelId } = fromPickId(parts.map((p) => p.config()), id);
    return { part: parts.find((p) => p.config().id === endpoint.id) ?? parts[0], modelId };
  }

  /** Every endpoint's models (entries with the endpoint's own ids) and their pick ids; a pick id listed before is left out. */
  async models(): Promise<{ part: EndpointPart; entry: ModelEntry; pickId: string }[]> {
    const parts = this.all();
    const configs = parts.map((part) => part.config());
    const lists = await Promise.all(parts.map((part) => part.list.models().catch((): ModelEntry[] => [])));
    const seen = new Set<string>();
    return lists.flatMap((models, index) =>
      models.flatMap((model) => {
        const id = pickId(configs, configs[index], model.id);
        if (seen.has(id)) return [];
        seen.add(id);
        return [{ part: parts[index], entry: model, pickId: id }];
      }),
    );
  }

  /** What the endpoint's list says of a model by its pick id (its id the endpoint's own), if listed. */
  find(id: string): ModelEntry | undefined {
    const { part, modelId } = this.resolve(id);
    return part.list.find(modelId, part.config().baseUrl);
  }

  /** The settings the endpoint's engine reads. */
  settingsOf(part: EndpointPart): Settings {
    return endpointSettings(this.settings(), part.config());
  }

  /** Whose model data prices a model, by its pick id. */
  catalogOf(id: string): EndpointCatalog | undefined {
    return this.resolve(id).part.config().catalog;
  }

  keyTarget(part: EndpointPart): KeyTarget {
    return { endpoint: part.config(), isDefault: part.isDefault };
  }

  /** An engine that takes pick ids: inline suggestions and commit messages name their model by it. */
  readonly engine: Pick<ChatEngine, 'run'> = {
    run: (request, listed, onEvent, signal) => {
      const { part, modelId } = this.resolve(request.modelId);
      return part.engine.run({ ...request, modelId }, listed, onEvent, signal);
    },
  };

  /**
   * What the endpoint's list says of a model, by its pick id: what inline suggestions and commit messages pass to
   * the engine, which resolves it through the model table like every request (overrides, data, learned limits).
   */
  listedOf(id: string): ListedFields {
    const listed = this.find(id);
    return listed ? listedFields(listed) : {};
  }

  dispose(): void {
    for (const part of this.parts.values()) part.dispose();
    this.parts.clear();
  }
}

function partKey(id: string, isDefault: boolean): string {
  return isDefault ? `${id}\u0000default` : id;
}

/**
 * Which vision model of an endpoint describes images for its text-only models (describingModel decides; this only
 * gathers the endpoint's listed models as its engine's model table sees them). The provider passes the choice down
 * in the request (ChatRequest.describeWith) and tells VS Code that such a model takes images, so chat lets the user
 * attach one (docs/editor.md "Images for text-only models").
 */
export function describerOf(part: EndpointPart, settings: Settings, listed: readonly ModelEntry[]): DescribingModel | undefined {
  const candidates = listed.flatMap((model) => {
    const { facts } = part.engine.resolve(model);
    if (!offered(facts, settings)) return [];
    return [{ id: model.id, imageInput: facts.imageInput, inputPrice: pricesFor(model.id, settings.catalog)?.base.input }];
  });
  const modelId = describingModel(settings.imageDescriptionModel, candidates);
  if (!modelId) return undefined;
  const entry = listed.find((model) => model.id === modelId);
  return { modelId, listed: entry ? listedFields(entry) : {} };
}

/** Whether a request carries any image (only then is a describing model looked for). */
export function carriesImages(messages: readonly ChatMessage[]): boolean {
  return messages.some((m) => m.parts.some((p) => p.kind === 'image' || (p.kind === 'toolResult' && (p.images?.length ?? 0) > 0)));
}
