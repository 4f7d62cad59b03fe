/**
 * Which model describes images for a model without image input (docs/editor.md "Images for text-only models"):
 * `opencode.imageDescription.model` when set (`none`: no model, the note stays); else a vision model of the same
 * endpoint, from the model table's facts of what it lists: the cheapest by input price (unpriced ones after the
 * priced), then by id, so the choice is the same on every request while the list is.
 */

export const NO_DESCRIBING_MODEL = 'none';

export interface DescribingCandidate {
  id: string;
  /** The model table's image flag for it (ModelFacts.imageInput). */
  imageInput: boolean;
  /** Dollars per million input tokens, when the data prices it. */
  inputPrice?: number;
}

export function describingModel(setting: string | undefined, candidates: readonly DescribingCandidate[]): string | undefined {
  const chosen = setting?.trim() ?? '';
  if (chosen.toLowerCase() === NO_DESCRIBING_MODEL) return undefined;
  if (chosen) return chosen;
  const vision = candidates.filter((c) => c.imageInput);
  vision.sort((a, b) => (a.inputPrice ?? Infinity) - (b.inputPrice ?? Infinity) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return vision[0]?.id;
}
