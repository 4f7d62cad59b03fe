/**
 * Issue 32 item 2: the report's conversation list holds chat conversations only, named by the user's first words
 * (never an attachment's or the system's text; the tab title too), every conversation of this window and the last
 * ones of earlier windows (bounded, persisted, validated), searchable by name.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { firstUserWords, userWords, MAX_NAME_CHARS } from '../core/report/conversationName';
import { ConversationIndex, CONVERSATION_INDEX_KEY, loadListed, MAX_LISTED } from '../core/report/conversationIndex';
import { MAX_CONVERSATIONS, type ConversationLog } from '../core/report/requestLog';
import * as double from './support/vscodeDouble';
import { activateAgainst, ask, assistant, user, type ActivatedExtension } from './support/activatedExtension';
import { useFakeServer } from './support/suiteHooks';

const ATTACHMENT = '<attachment name="Chat customizations index" id="customizations">\nSkills: a, b, c\n</attachment>';

describe('report list: names', () => {
  it('the user words of an agent message: <userRequest> wins; attachments, context and reminders are skipped', () => {
    assert.strictEqual(userWords(`${ATTACHMENT}\n<context>date</context>\n<userRequest>\nfix the parser\n</userRequest>`), 'fix the parser');
    assert.strictEqual(userWords(`${ATTACHMENT}\n  explain this function <reminderInstructions>be brief</reminderInstructions>`), 'explain this function');
    assert.strictEqual(userWords(ATTACHMENT), '');
    assert.strictEqual(userWords('a < b and 2<3'), 'a < b and 2<3');
    assert.strictEqual(userWords('<attachment name="x">cut short'), '');
  });

  it('property: the name is never an attachment\'s or the system\'s text, and is the user\'s words cut to 40 characters', () => {
    const plain = fc.stringMatching(/^[a-z][a-z ]{0,80}$/);
    fc.assert(
      fc.property(plain, fc.array(fc.constantFrom('attachment', 'context', 'environment_info', 'reminderInstructions'), { maxLength: 3 }), plain, (words, tags, hidden) => {
        const blocks = tags.map((tag) => `<${tag} name="${hidden}">SECRET ${hidden}</${tag}>`).join('\n');
        const name = firstUserWords([{ role: 'system', content: `SYSTEM ${hidden}` }, { role: 'user', content: `${blocks}\n${words}` }]);
        const expected = words.replace(/\s+/g, ' ').trim();
        assert.strictEqual(name, expected.length > MAX_NAME_CHARS ? `${expected.slice(0, MAX_NAME_CHARS - 1)}…` : expected);
        assert.ok(!name.includes('SECRET') && !name.includes('SYSTEM'));
      }),
    );
  });

  it('a 2 MB attachment before the words costs one linear scan', () => {
    const big = `<attachment name="log">${'x'.repeat(2_000_000)}</attachment> what failed?`;
    assert.strictEqual(firstUserWords([{ role: 'user', content: big.slice(0, 900_000) }, { role: 'user', content: 'what failed?' }]), 'what failed?');
  });
});

describe('report list: the index', () => {
  const logOf = (n: number, at = 1_000 + n): ConversationLog => ({
    sessionId: `ses_${n.toString(16).padStart(32, '0')}`,
    modelId: 'fake-large',
    records: [{ at } as ConversationLog['records'][number]],
    requests: [{ messages: [{ role: 'user', content: `chat number ${n}` }], tools: [], factor: 1 } as unknown as ConversationLog['requests'][number]],
    added: 1,
  });

  it('keeps every conversation up to MAX_LISTED (far more than the request log holds in full), newest first', () => {
    const index = new ConversationIndex();
    for (let n = 0; n < MAX_LISTED + 25; n++) index.note(logOf(n));
    const list = index.list();
    assert.ok(MAX_LISTED > MAX_CONVERSATIONS * 10);
    assert.strictEqual(list.length, MAX_LISTED);
    assert.strictEqual(list[0].name, `chat number ${MAX_LISTED + 24}`);
    index.note(logOf(30));
    assert.strictEqual(index.list()[0].requests, 2, 'one note per request');
  });

  it('property: what is saved loads back as the earlier window\'s list; anything invalid is dropped, never thrown', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(1_000), { maxLength: 40 }), fc.array(fc.anything(), { maxLength: 5 }), (ids, junk) => {
        const index = new ConversationIndex();
        for (const id of ids) index.note(logOf(id));
        const saved = JSON.parse(JSON.stringify(index.toJSON())) as unknown[];
        const loaded = loadListed([...junk, ...saved]);
        assert.deepStrictEqual(loaded.entries.map((e) => e.sessionId), saved.map((e) => (e as { sessionId: string }).sessionId));
        assert.ok(loaded.entries.every((e) => e.earlier));
        assert.strictEqual(loaded.dropped, junk.length);
      }),
    );
    assert.deepStrictEqual(loadListed({ not: 'a list' }), { entries: [], dropped: 1 });
  });
});

describe('report list: through the extension (real HTTP)', function () {
  this.timeout(30_000);
  let ext: ActivatedExtension | undefined;
  const server = useFakeServer();
  afterEach(() => void [ext?.dispose(), (ext = undefined), double.settingsStore.clear(), (double.quickPick.choose = undefined)]);

  it('lists every chat of the window by the user\'s first words (not the attachment), searchable; the tab is named so; earlier windows\' follow a restart', async () => {
    const state = new double.MemoryMemento();
    ext = activateAgainst(server(), {}, state);
    for (let n = 0; n < MAX_CONVERSATIONS + 5; n++) {
      await ask(ext, 'fake-large', [user(`${ATTACHMENT}\n<userRequest>chat ${n}: rename the helper</userRequest>`)]);
    }
    double.quickPick.choose = (items) => items.find((i: { label: string }) => i.label === 'chat 14: rename the helper');
    const panels = double.createdPanels.length;
    await double.commands.executeCommand('opencode.showReport');
    const offered = double.quickPick.offered as { label: string; description: string }[];
    assert.strictEqual(offered.length, MAX_CONVERSATIONS + 5, 'every chat of this window, not the last 10');
    assert.ok(offered.every((i) => /^chat \d+: rename the helper$/.test(i.label)), offered.map((i) => i.label).join(' | '));
    assert.strictEqual(double.createdPanels[panels].title, 'Report: chat 14: rename the helper');
    assert.deepStrictEqual(double.lastQuickPickOptions?.matchOnDescription, true, 'searchable by model too');
    ext.dispose();

    // A new window: this window's chats are listed as earlier ones.
    ext = activateAgainst(server(), {}, state);
    assert.strictEqual((state.get(CONVERSATION_INDEX_KEY) as unknown[]).length, MAX_CONVERSATIONS + 5);
    await ask(ext, 'fake-large', [user('a new question')]);
    double.quickPick.choose = () => undefined;
    await double.commands.executeCommand('opencode.showReport');
    const again = double.quickPick.offered as { label: string; description: string }[];
    assert.strictEqual(again[0].label, 'a new question');
    assert.strictEqual(again.length, MAX_CONVERSATIONS + 6);
    assert.ok(again.slice(1).every((i) => i.description.includes('earlier window')));
  });

  it('an agent turn after the hidden attachment keeps the name of the user\'s first words', async () => {
    ext = activateAgainst(server(), {});
    const history = [user('How do I run the tests?')];
    await ask(ext, 'fake-large', history);
    history.push(assistant('npm test'), user(`${ATTACHMENT}\nand one file?`));
    await ask(ext, 'fake-large', history);
    const panels = double.createdPanels.length;
    await double.commands.executeCommand('opencode.showReport', 'latest');
    assert.strictEqual(double.createdPanels[panels].title, 'Report: How do I run the tests?');
  });
});
