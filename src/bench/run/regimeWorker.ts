/**
 * Worker-thread entry: generates one regime's session and runs every policy over it. Sessions are
 * deterministic, so a worker rebuilding one gets exactly the session the main thread would.
 */
import { parentPort } from 'worker_threads';
import { countTextTokens } from '../../cacheModel/valueTokens';
import { PromptBlocks } from '../cache/promptBlocks';
import { regimeById } from '../sessions/regimes';
import { generateSession } from '../sessions/sessionGenerator';
import { measureCharsPerToken, type CharsPerToken } from '../sessions/textOfTokens';
import { compareRegime, type RegimeResult } from './compareRegime';

export interface RegimeJob {
  regimeId: string;
  sweep: boolean;
}

let ratios: CharsPerToken | undefined;

export function runRegimeJob(job: RegimeJob): RegimeResult {
  ratios ??= measureCharsPerToken(countTextTokens);
  const blocks = new PromptBlocks();
  const regime = regimeById(job.regimeId);
  const sessions = {
    json: generateSession(regime, blocks.sizer('json'), ratios),
    text: regime.textCount ? generateSession(regime, blocks.sizer('text'), ratios) : undefined,
  };
  return compareRegime(sessions, blocks, { sweep: job.sweep });
}

parentPort?.on('message', (job: RegimeJob) => parentPort?.postMessage(runRegimeJob(job)));
