/**
 * The thinking effort the user chose in the model picker, as VS Code passes it with a request. The picker's
 * values arrive in `options.modelConfiguration` (the `chatProvider` API that reads a model's
 * `configurationSchema`); older builds and other callers put them in `configuration` or `modelOptions`. The
 * value is validated in core (sendBody.ts effortChoice): anything unknown falls back to the setting.
 */
import type * as vscode from 'vscode';
import { EFFORT_PROPERTY } from '../core/routes/effortPicker';
import { isRecord } from '../core/util/isRecord';

type WithConfiguration = vscode.ProvideLanguageModelChatResponseOptions & { modelConfiguration?: unknown; configuration?: unknown };

export function pickedEffort(options: vscode.ProvideLanguageModelChatResponseOptions): unknown {
  const withConfig = options as WithConfiguration;
  for (const source of [withConfig.modelConfiguration, withConfig.configuration, options.modelOptions]) {
    if (isRecord(source) && source[EFFORT_PROPERTY] !== undefined) return source[EFFORT_PROPERTY];
  }
  return undefined;
}
