/**
 * The mocha hooks most HTTP suites repeat, registered by one call each from inside a `describe` block:
 * one fake server for the whole block (reset before every test) and, optionally, a fresh activation of
 * the extension per test. Both return getters, so the values are read when a test runs, not when the
 * block is declared.
 */
import { startFakeServer, type FakeServer, type FakeServerOptions } from '../../fakeServer';

/**
 * Starts a fake server before the block's first test, resets it before each test and closes it after
 * the last one. The getter throws when called outside the block's tests and hooks (no server yet).
 */
export function useFakeServer(options?: FakeServerOptions): () => FakeServer {
  let current: FakeServer | undefined;
  before(async () => {
    current = await startFakeServer(options);
  });
  after(async () => {
    await current?.close();
    current = undefined;
  });
  const get = (): FakeServer => {
    if (!current) throw new Error('useFakeServer: the fake server exists only inside the tests and hooks of the describe block that called useFakeServer().');
    return current;
  };
  beforeEach(() => get().reset());
  return get;
}

/**
 * Before each test, `activate`s against the block's server (call it after useFakeServer, so the server
 * is reset first); after each test, disposes what it returned. The getter throws outside a test.
 */
export function useActivated<T extends { dispose(): void }>(server: () => FakeServer, activate: (server: FakeServer) => T): () => T {
  let current: T | undefined;
  beforeEach(() => {
    current = activate(server());
  });
  afterEach(() => {
    current?.dispose();
    current = undefined;
  });
  return () => {
    if (!current) throw new Error('useActivated: the activated extension exists only inside a test (and its beforeEach/afterEach hooks) of the describe block that called useActivated().');
    return current;
  };
}
