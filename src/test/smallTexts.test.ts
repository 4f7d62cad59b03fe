/**
 * Small texts a user reads: the "not an answer" sentence says what came once; the replay
 * validator shows the wrong string it got and reads a file that starts with a byte order mark; saved entries
 * beyond a store's capacity are not called invalid.
 */
import * as assert from 'assert';
import * as http from 'http';
import type { AddressInfo } from 'net';
import fc from 'fast-check';
import { PersistedStore } from '../core/state/persisted';
import { validCalibration } from '../core/request/savedRecords';
import { parseReplayLines } from '../core/replay/replayFile';
import { chat, engineFor, runOnce } from './support/engineHarness';
import { MemoryLogger } from './support/memoryLogger';

class Store {
  values = new Map<string, unknown>();
  get(key: string): unknown {
    return this.values.get(key);
  }
  update(key: string, value: unknown): void {
    this.values.set(key, value);
  }
}

describe('small texts', () => {
  it('a 200 JSON body on a native route: "a JSON body … instead of a model\'s answer", said once (real HTTP)', async () => {
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ id: 'msg_1', type: 'message', content: [{ type: 'text', text: 'whole answer' }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { engine } = engineFor(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, { maxRetries: 0, models: { m: { api: 'messages' } } });
      await assert.rejects(runOnce(engine, 'm', chat('hello')), (error: Error) => {
        assert.match(error.message, /answered with a JSON body/);
        assert.strictEqual(error.message.split('instead of').length - 1, 1, error.message);
        return true;
      });
    } finally {
      server.close();
    }
  });

  it('the replay validator names the wrong string it got (shortened), whatever it is', () => {
    fc.assert(fc.property(fc.string({ maxLength: 120 }).filter((s) => !['system', 'user', 'assistant', 'tool'].includes(s)), (role) => {
      assert.throws(() => parseReplayLines([JSON.stringify({ messages: [{ role, content: 'x' }] })]), (error: Error) => {
        const shown = role.length > 40 ? `${role.slice(0, 40)}…` : role;
        assert.ok(error.message.includes(`got a string ${JSON.stringify(shown)}`), error.message);
        return true;
      });
    }));
  });

  it('a replay file that starts with a byte order mark is read like one without', () => {
    const lines = [JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }), JSON.stringify({ append: [{ role: 'assistant', content: 'ok' }] })];
    const withBom = parseReplayLines([`\uFEFF${lines[0]}`, lines[1]]);
    assert.deepStrictEqual(withBom, parseReplayLines(lines));
    assert.strictEqual(withBom[1].messages.length, 2);
  });

  it('valid saved entries over a store\'s capacity are not "invalid records"; invalid ones still are', () => {
    const log = new MemoryLogger();
    const inner = new Store();
    inner.values.set('k', { a: { factor: 1.1, spread: 0 }, b: { factor: 1.2, spread: 0 }, c: { factor: 1.3, spread: 0 } });
    inner.values.set('bad', { a: 'x', b: { factor: 1.2, spread: 0 } });
    const persisted = new PersistedStore(inner, log);
    assert.deepStrictEqual(persisted.loadMap('k', validCalibration, 2).map(([key]) => key), ['b', 'c']);
    assert.deepStrictEqual(log.messages('warn'), []);
    assert.ok(log.messages('info').some((m) => m.includes('Kept the newest 2 entries of k') && m.includes('1 older')), log.messages().join('\n'));
    persisted.loadMap('bad', validCalibration, 2);
    assert.deepStrictEqual(log.messages('warn'), ['[state] Dropped 1 invalid record(s) from bad (saved by another version or edited by hand); they will be learned again.']);
  });
});
