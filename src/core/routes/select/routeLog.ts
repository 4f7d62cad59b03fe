/**
 * The one `[route]` line written when the gateway said a model is on another route and the request moved
 * there (README.md, log lines).
 */
import type { RouteId } from '../../routeId';
import { outsideText } from '../../util/excerpt';

export function routeSwitchLine(modelId: string, from: RouteId, to: RouteId, format: string, remembered: boolean): string {
  return `[route] model=${outsideText(modelId)} from=${from} to=${to} refused=${format}${remembered ? ' remembered' : ''}`;
}

/** The route a request took and why, for the debug log. */
export function routeChoiceLine(modelId: string, route: RouteId, source: string): string {
  return `[route] model=${outsideText(modelId)} api=${route} source=${source}`;
}
