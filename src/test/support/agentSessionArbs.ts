/**
 * Random agent sessions for the pruning tests: small user turns, each followed by tool rounds with large outputs
 * (file reads that often read the same file again, commands, searches) and a short answer. Materialized as the
 * history of each request, the way VS Code hands it over (the whole history, growing).
 */
import fc from 'fast-check';
import type { WireMessage } from '../../core/wire/wireTypes';
import { filler } from './trimHarness';

export interface AgentRound {
  tool: 'read_file' | 'run_command' | 'grep';
  /** Which of a few files (read_file) or commands the call names: repeats are superseded reads. */
  target: number;
  outputTokens: number;
}

export interface AgentTurn {
  promptTokens: number;
  rounds: AgentRound[];
  answerTokens: number;
}

export interface AgentSessionSpec {
  budget: number;
  protectTokens: number;
  turns: AgentTurn[];
}

const roundArb = fc.record({
  tool: fc.constantFrom<AgentRound['tool']>('read_file', 'read_file', 'run_command', 'grep'),
  target: fc.integer({ min: 0, max: 5 }),
  outputTokens: fc.oneof(fc.integer({ min: 50, max: 800 }), fc.integer({ min: 1_000, max: 9_000 })),
});

const turnArb = fc.record({
  promptTokens: fc.integer({ min: 5, max: 200 }),
  rounds: fc.array(roundArb, { minLength: 0, maxLength: 6 }),
  answerTokens: fc.integer({ min: 5, max: 300 }),
});

export const agentSessionArb: fc.Arbitrary<AgentSessionSpec> = fc.record({
  budget: fc.integer({ min: 24_000, max: 90_000 }),
  protectTokens: fc.oneof(fc.constant(0), fc.integer({ min: 1_000, max: 20_000 })),
  turns: fc.array(turnArb, { minLength: 4, maxLength: 18 }),
});

function argumentsOf(round: AgentRound): string {
  if (round.tool === 'read_file') return JSON.stringify({ filePath: `src/module${round.target}.ts` });
  if (round.tool === 'run_command') return JSON.stringify({ command: `npm test -- case${round.target}` });
  return JSON.stringify({ pattern: `symbol${round.target}` });
}

/**
 * The history of every request: one after each user prompt and one after each tool round (the agent's next
 * step). `seed` varies the filler text, so two reads of the same file need not be the same bytes.
 */
export function agentHistories(spec: AgentSessionSpec, seed = 1): WireMessage[][] {
  const history: WireMessage[] = [
    { role: 'system', content: `You are a coding agent. ${filler(300, seed)}` },
    { role: 'user', content: `<environment_info>${filler(400, seed + 1)}</environment_info>` },
  ];
  const steps: WireMessage[][] = [];
  let call = 0;
  spec.turns.forEach((turn, t) => {
    history.push({ role: 'user', content: `Task ${t}: ${filler(turn.promptTokens, seed + t)}` });
    steps.push([...history]);
    for (const round of turn.rounds) {
      const id = `call_${call++}`;
      history.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: round.tool, arguments: argumentsOf(round) } }] });
      history.push({ role: 'tool', tool_call_id: id, content: `${round.tool} #${call}\n${filler(round.outputTokens, seed + call)}` });
      steps.push([...history]);
    }
    history.push({ role: 'assistant', content: `Done with task ${t}. ${filler(turn.answerTokens, seed + 7 * t)}` });
  });
  return steps;
}

/** User prompts (after the anchor) among the sent messages. */
export function userTurnsSent(sent: readonly WireMessage[]): number {
  return sent.filter((m, i) => m.role === 'user' && i > 1).length;
}
