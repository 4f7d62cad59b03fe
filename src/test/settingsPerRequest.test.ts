/**
 * Work repeated per request (issue 30): one chat request merged the settings 7 times and computed the enabled
 * endpoints 29 times. Settings are immutable snapshots, so an endpoint's view (endpointSettings) is merged once per
 * snapshot and the enabled list is the snapshot's own array. Counted here through the module's exports, which every
 * other module calls through in the compiled CommonJS: a request on an unchanged snapshot merges nothing new, and
 * every caller gets the same view object and the same endpoint list. (The reads themselves are many — ~30 views and
 * ~100 lists per request, from src/vscode/provider.ts and ChatEngine.resolve — but each is a lookup, not a merge.)
 */
import * as assert from 'assert';
import * as endpoints from '../core/config/endpoints';
import * as settingsModule from '../core/config/settings';
import { activateAgainst, ask, user } from './support/activatedExtension';
import { useActivated, useFakeServer } from './support/suiteHooks';

type Mutable = Record<string, unknown>;

/** Replaces an exported function by a counting wrapper for the duration of `run`; returns what each call returned. */
async function counting<T>(module: object, name: string, run: () => Promise<T>): Promise<unknown[]> {
  const exportsOf = module as Mutable;
  const original = exportsOf[name] as (...args: unknown[]) => unknown;
  const returned: unknown[] = [];
  exportsOf[name] = (...args: unknown[]) => {
    const value = original(...args);
    returned.push(value);
    return value;
  };
  try {
    await run();
  } finally {
    exportsOf[name] = original;
  }
  return returned;
}

describe('one chat request: settings merged once per snapshot, endpoints computed once', () => {
  const server = useFakeServer();
  const ext = useActivated(server, (s) => activateAgainst(s, { endpoints: [{ id: 'other', baseUrl: 'http://127.0.0.1:9/v1' }] }));

  it('each endpoint view is merged once per snapshot: one object per endpoint, reused by the next request', async () => {
    await ask(ext(), 'fake-large', [user('Warm the views.')]);
    const views = await counting(endpoints, 'endpointSettings', () => ask(ext(), 'fake-large', [user('What does the trim keep?')]));
    const distinct = new Set(views);
    console.log(`    endpoint view read ${views.length}×, ${distinct.size} distinct (2 endpoints)`);
    assert.ok(views.length > 0, 'the request read its endpoint view');
    assert.ok(distinct.size <= 2, `${views.length} reads, ${distinct.size} distinct views for 2 endpoints`);
    const again = await counting(endpoints, 'endpointSettings', () => ask(ext(), 'fake-large', [user('And now?')]));
    assert.ok(again.every((view) => distinct.has(view)), 'the next request on the same snapshot merges nothing new');
  });

  it('the enabled endpoints are one list per snapshot: never rebuilt during a request', async () => {
    const lists = await counting(endpoints, 'enabledEndpoints', () => ask(ext(), 'fake-large', [user('Count the lists.')]));
    console.log(`    enabled endpoints read ${lists.length}×, ${new Set(lists).size} distinct`);
    assert.ok(new Set(lists).size <= 1, `${lists.length} calls built ${new Set(lists).size} lists`);
    const built = await counting(endpoints, 'resolveEndpoints', () => ask(ext(), 'fake-large', [user('Resolve again?')]));
    assert.strictEqual(built.length, 0, 'no request resolves opencode.endpoints again');
    const resolved = await counting(settingsModule, 'resolveSettings', () => ask(ext(), 'fake-large', [user('Read the settings?')]));
    assert.strictEqual(resolved.length, 0, 'no request re-reads the settings');
  });
});
