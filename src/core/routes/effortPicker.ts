import { type EffortLevel, type EffortSubject } from './select/reasoningControl';
/**
 * The model picker's thinking option for one model: the `configurationSchema` VS Code shows next to the model
 * (an enum with labels), a pure function of the catalogue entry. Undefined for models without levels to offer.
 * The adapter passes it on the model's LanguageModelChatInformation and reads the chosen value back
 * from the request's model configuration; `opencode.models["<id>"].reasoningEffort` is the settings fallback.
 */

export const EFFORT_PROPERTY = 'reasoningEffort';

const LABELS: Record<EffortLevel | 'default', string> = {
  // VS Code adds "(default)" after the schema default's label itself: "Default (default)" read twice.
  default: 'Automatic', off: 'Off', on: 'On', none: 'None', minimal: 'Minimal', low: 'Low', medium: 'Medium', high: 'High', xhigh: 'Extra high', max: 'Max',
};

export function effortConfigurationSchema(entry: EffortSubject): Record<string, unknown> | undefined {
  const levels = entry.reasoningControl?.levels ?? [];
  if (levels.length === 0) return undefined;
  const values = ['default', ...levels] as const;
  return {
    type: 'object',
    properties: {
      [EFFORT_PROPERTY]: {
        type: 'string',
        title: 'Thinking effort',
        description: `How much ${entry.id} thinks before answering. Automatic lets the model decide.`,
        enum: [...values],
        enumItemLabels: values.map((v) => LABELS[v]),
        default: 'default',
      },
    },
  };
}
