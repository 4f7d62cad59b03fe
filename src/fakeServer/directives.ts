/**
 * Per-request test directives carried in headers: `x-fake-fault`, `x-fake-reply`, `x-fake-usage-shape`.
 * They let one request misbehave without touching the shared queues.
 */
import type { IncomingMessage } from 'node:http';
import type { FaultSpec, ScriptedReply, UsageShapeName } from './types';
import { parseFaultSpec } from './faults';
import { headerValue, parseScriptedReply } from './requestInput';
import { isUsageShapeName, USAGE_SHAPE_NAMES } from './usageShapes';

export interface RequestDirectives {
  fault?: FaultSpec;
  reply?: ScriptedReply;
  usageShape?: UsageShapeName;
}

/** Throws with a readable message when a directive header is present but malformed. */
export function readDirectives(req: IncomingMessage): RequestDirectives {
  const faultHeader = headerValue(req, 'x-fake-fault');
  const replyHeader = headerValue(req, 'x-fake-reply');
  const shapeHeader = headerValue(req, 'x-fake-usage-shape');
  if (shapeHeader !== undefined && !isUsageShapeName(shapeHeader)) {
    throw new Error(`x-fake-usage-shape must be one of ${USAGE_SHAPE_NAMES.join(', ')}`);
  }
  return {
    fault: faultHeader === undefined ? undefined : parseFaultSpec(faultHeader),
    reply: replyHeader === undefined ? undefined : parseScriptedReply(replyHeader),
    usageShape: shapeHeader,
  };
}
