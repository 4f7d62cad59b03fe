/**
 * The thinking effort chosen for a request. An extension calling `vscode.lm` names it per request in
 * `modelOptions.reasoningEffort` (most specific, so first); the picker's value arrives in
 * `options.modelConfiguration` (the `chatProvider` API that reads a model's `configurationSchema`), or
 * `configuration` in some builds. The value is validated in core (sendBody.ts effortChoice): anything unknown,
 * and the picker's untouched "default", fall back to the setting.
 */
import type * as vscode from 'vscode';
import { EFFORT_PROPERTY } from '../core/routes/effortPicker';
import { isRecord } from '../core/util/jsonFields';

type WithConfiguration = vscode.ProvideLanguageModelChatResponseOptions & { modelConfiguration?: unknown; configuration?: unknown };

export function pickedEffort(options: vscode.ProvideLanguageModelChatResponseOptions): unknown {
  const withConfig = options as WithConfiguration;
  for (const source of [options.modelOptions, withConfig.modelConfiguration, withConfig.configuration]) {
    if (isRecord(source) && source[EFFORT_PROPERTY] !== undefined) return source[EFFORT_PROPERTY];
  }
  return undefined;
}
