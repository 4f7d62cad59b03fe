/**
 * Random growing conversations in the neutral wire form, turn by turn, the way VS Code's history grows: each
 * step appends an assistant answer (text and/or tool calls), then its tool results, then maybe a new user
 * message. Every prefix ends on the user side, as a request's history does.
 */
import fc from 'fast-check';
import type { WireContentPart, WireMessage } from '../../core/wire/wireTypes';

const textArb = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 });
const PNG = 'data:image/png;base64,iVBORw0KGgo=';

const userContentArb: fc.Arbitrary<string | WireContentPart[]> = fc.oneof(
  textArb,
  fc.array(fc.oneof(textArb.map((text) => ({ type: 'text' as const, text })), fc.constant({ type: 'image_url' as const, image_url: { url: PNG } })), { minLength: 1, maxLength: 3 }),
);

const stepArb = fc.record({
  text: fc.option(textArb, { nil: undefined }),
  calls: fc.array(fc.record({ name: fc.constantFrom('read', 'grep'), args: fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }) }), { maxLength: 3 }),
  results: fc.array(textArb, { minLength: 3, maxLength: 3 }),
  user: fc.option(userContentArb, { nil: undefined }),
});

export interface Conversation {
  /** The history of each request, oldest first; each is a prefix of the next. */
  turns: WireMessage[][];
}

export const conversationArb: fc.Arbitrary<Conversation> = fc
  .record({ system: fc.option(textArb, { nil: undefined }), first: userContentArb, steps: fc.array(stepArb, { minLength: 1, maxLength: 6 }) })
  .map(({ system, first, steps }) => {
    const history: WireMessage[] = [];
    if (system) history.push({ role: 'system', content: system });
    history.push({ role: 'user', content: first });
    const turns: WireMessage[][] = [[...history]];
    steps.forEach((step, s) => {
      const calls = step.calls.map((c, i) => ({ id: `call.${s}:${i}`, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.args) } }));
      const text = step.text ?? (calls.length ? null : 'ok');
      history.push({ role: 'assistant', content: text, ...(calls.length ? { tool_calls: calls } : {}) });
      calls.forEach((call, i) => history.push({ role: 'tool', tool_call_id: call.id, content: step.results[i] }));
      if (step.user !== undefined || calls.length === 0) history.push({ role: 'user', content: step.user ?? 'go on' });
      turns.push([...history]);
    });
    return { turns };
  });
