// Builds the saved copy of models.dev's data (data/models.dev/api.json, the api.json shape, only the providers
// `opencode` and `opencode-go`, only the fields the extension reads) from a git copy of the models.dev repository.
// A maintainer runs it when models.dev has moved on, then `npm run snapshot:update` to regenerate the snapshot.
//
//   node scripts/catalog/fromModelsDevRepo.mjs <models.dev git dir or checkout> [commit]
//
// Provider model files may name a `base_model` (models/<lab>/<id>.toml): the base's fields are inherited and the
// provider file's own fields win, objects merged key by key (the same rule models.dev's generator applies).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'smol-toml';

const PROVIDERS = ['opencode', 'opencode-go'];
/** Fields of a model the extension reads; everything else (benchmarks, links, weights…) stays out of the copy. */
const KEPT = ['id', 'name', 'family', 'attachment', 'reasoning', 'reasoning_options', 'tool_call', 'interleaved', 'temperature', 'release_date', 'last_updated', 'modalities', 'limit', 'status', 'cost', 'provider'];
const INHERITED_EXCLUDED = new Set(['id', 'benchmarks', 'license', 'links', 'weights']);

const [repo, commit = 'HEAD'] = process.argv.slice(2);
if (!repo) {
  console.error('usage: node scripts/catalog/fromModelsDevRepo.mjs <models.dev git dir> [commit]');
  process.exit(2);
}
const git = (...args) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const show = (path) => parse(git('show', `${commit}:${path}`));
const list = (path) => git('ls-tree', '--name-only', `${commit}:${path}`).split('\n').filter((name) => name.endsWith('.toml'));

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
function mergeDeep(base, over) {
  const out = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = isObject(value) && isObject(out[key]) ? mergeDeep(out[key], value) : value;
  return out;
}
function omit(target, paths) {
  for (const path of paths) {
    const parts = path.split('.');
    let at = target;
    for (const part of parts.slice(0, -1)) at = isObject(at?.[part]) ? at[part] : undefined;
    if (at) delete at[parts.at(-1)];
  }
}

function modelOf(provider, file) {
  const id = file.slice(0, -'.toml'.length);
  let model = show(`providers/${provider}/models/${file}`);
  if (typeof model.base_model === 'string') {
    const { base_model: baseId, base_model_omit: omitted = [], ...own } = model;
    const base = Object.fromEntries(Object.entries(show(`models/${baseId}.toml`)).filter(([key]) => !INHERITED_EXCLUDED.has(key)));
    model = mergeDeep(base, own);
    omit(model, omitted);
  }
  return Object.fromEntries([['id', id], ...KEPT.filter((key) => key !== 'id' && model[key] !== undefined).map((key) => [key, model[key]])]);
}

const api = {};
for (const provider of PROVIDERS) {
  const card = show(`providers/${provider}/provider.toml`);
  const models = {};
  for (const file of list(`providers/${provider}/models`)) models[file.slice(0, -5)] = modelOf(provider, file);
  api[provider] = { id: provider, name: card.name, api: card.api, npm: card.npm, models };
}
const date = git('log', '-1', '--format=%cs', commit).trim();
const sha = git('rev-parse', commit).trim();
const out = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'data', 'models.dev', 'api.json');
mkdirSync(dirname(out), { recursive: true });
// TOML dates parse to Date objects; JSON keeps them as plain YYYY-MM-DD strings like models.dev's api.json.
const text = JSON.stringify({ _source: { repository: 'models.dev', commit: sha, date }, ...api }, (key, value) => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/.test(value) ? value.slice(0, 10) : value), 1);
writeFileSync(out, `${text}\n`);
console.log(`wrote ${out}: ${PROVIDERS.map((p) => `${p} ${Object.keys(api[p].models).length}`).join(', ')} model(s), models.dev ${sha.slice(0, 8)} (${date}), ${text.length} bytes`);
