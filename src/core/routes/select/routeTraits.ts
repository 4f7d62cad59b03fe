/**
 * What each route is, beside its wire (the route folders and the registry own the wire): the label the status bar's
 * tooltip and the report show (its endpoint path), whether a model on it reasons unless its data says not, and
 * whether a card's "interleaved reasoning_content" applies on it (Chat Completions' field). Data only, read by the
 * model table, the models.dev conversion and the report.
 */
import type { RouteId } from '../../routeId';

export interface RouteTraits {
  /** The route's name and the endpoint path it posts to. */
  label: string;
  /** Every model served on this route reasons unless its data says it does not (Gemini); elsewhere only a model known to. */
  reasonsUnlessTold: boolean;
  /** A model's reasoning is echoed back in `reasoning_content` on this route (models.dev `interleaved`). */
  echoesReasoningContent: boolean;
}

export const ROUTE_TRAITS: Readonly<Record<RouteId, RouteTraits>> = {
  chat: { label: 'chat (/chat/completions)', reasonsUnlessTold: false, echoesReasoningContent: true },
  responses: { label: 'responses (/responses)', reasonsUnlessTold: false, echoesReasoningContent: false },
  messages: { label: 'messages (/messages)', reasonsUnlessTold: false, echoesReasoningContent: false },
  gemini: { label: 'gemini (:streamGenerateContent)', reasonsUnlessTold: true, echoesReasoningContent: false },
};

/**
 * A route's traits; a route added by a caller's registry (not a RouteId) has the plain ones: its id as label, no
 * reasoning assumed, nothing echoed. Knowing a route improves behaviour, never gates it.
 */
export function traitsOf(route: string): RouteTraits {
  return (ROUTE_TRAITS as Readonly<Record<string, RouteTraits | undefined>>)[route] ?? { label: route, reasonsUnlessTold: false, echoesReasoningContent: false };
}
