/**
 * One INFO line naming the models whose picker entry offers a thinking-effort choice, written when that set
 * changes (not on every listing): users can check which models have it, and the real-VS-Code suite checks that
 * the provider handed VS Code a `configurationSchema`.
 */
import type * as vscode from 'vscode';
import type { PickerModelInformation } from './modelInfo';

export class EffortOffersLog {
  private last = '';

  constructor(private readonly log: Pick<vscode.LogOutputChannel, 'info'>) {}

  note(models: readonly PickerModelInformation[]): void {
    const offers = models.flatMap((model) => {
      const property = (model.configurationSchema?.properties as Record<string, { enum?: unknown[] }> | undefined)?.reasoningEffort;
      return property?.enum ? [`${model.id}(${property.enum.join('/')})`] : [];
    });
    const line = offers.join(', ');
    if (line === this.last) return;
    this.last = line;
    if (line) this.log.info(`[picker] thinking effort: ${line}`);
  }
}
