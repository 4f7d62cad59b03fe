/** Everything one `npm run bench` measured: what results.json holds and the reports render. */
import type { TokenAccuracy } from './accuracy/tokenAccuracy';
import type { MessagesRegimeResult } from './messages/messagesRegime';
import type { PauseRegimeResult } from './pauses/pauseRegime';
import type { RefusalRegimeResult } from './refusals/refusalRegime';
import type { StateWriteResult } from './state/stateWrites';
import type { AgentRegimeResult } from './agent/agentRegime';
import type { Acceptance } from './report/acceptance';
import type { RegimeResult } from './run/compareRegime';
import type { ActivationTimes } from './speed/activationProbe';
import type { ArtifactSizes } from './speed/artifacts';
import type { MemoryGrowth } from './speed/memoryProbe';
import type { TrimSpeed } from './speed/trimSpeed';
import type { ReportSpeed } from './speed/reportSpeed';

export interface BenchResults {
  generatedAt: string;
  environment: { node: string; platform: string; cpus: number; cpuModel: string; loadAverage: [number, number] };
  /** Wall time of the benchmark process (compilation by `npm run bench` not included). */
  benchMs: number;
  regimes: RegimeResult[];
  acceptance: Acceptance;
  speed: {
    trim: TrimSpeed;
    report: ReportSpeed;
    activation: ActivationTimes;
    memory: MemoryGrowth;
    artifacts: ArtifactSizes;
  };
  accuracy: TokenAccuracy;
  /** The Messages regime (cache breakpoints); absent when only some regimes ran. */
  messages?: MessagesRegimeResult;
  /** The pause regime (cache lifetimes and warming, in dollars); absent when only some regimes ran. */
  pauses?: PauseRegimeResult;
  /** The refusal regime (a true input limit below the data; learned ceilings); absent when only some regimes ran. */
  refusals?: RefusalRegimeResult;
  /** Saved-state write cost per answer (src/bench/state/stateWrites.ts). */
  stateWrites?: StateWriteResult;
  /** The agent regime: pruning vs drop-only vs OpenCode's rule (agent/agentRegime.ts). */
  agent?: AgentRegimeResult;
}
