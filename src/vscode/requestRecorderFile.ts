/**
 * opencode.recordRequests: appends what each conversation sent, as replay JSONL, to
 * `<extension log folder>/requests/<session id>.jsonl`, so users can replay and tune their own sessions.
 * One line per request, written after its last attempt: the history the trim worked on and what that attempt
 * finally sent (`sent`, core/replay/sentRecord.ts). The API key is never part of a request body, so it never
 * reaches these files.
 */
import * as fs from 'fs';
import * as path from 'path';
import type * as vscode from 'vscode';
import { RequestRecording } from '../core/replay/requestRecording';
import { metaFields, parseRecordingMeta, type WrittenRecordingMeta } from '../core/replay/recordingMeta';
import type { SentRecord } from '../core/replay/sentRecord';
import type { PreparedRequest } from '../core/request/prepareRequest';
import { BoundedMap } from '../core/util/boundedMap';
import { calibrationRawTokens } from '../core/trim/historyTrim';

/** Conversations remembered for `append` lines; one that comes back after eviction writes a whole request line (still valid replay). */
const MAX_RECORDED_CONVERSATIONS = 64;

export class RequestRecorderFile {
  private readonly recordings = new BoundedMap<string, RequestRecording>(MAX_RECORDED_CONVERSATIONS);
  /** Per conversation: its meta file's content (model, budget, factors) and the JSONL's line count. */
  private readonly metas = new BoundedMap<string, WrittenMeta>(MAX_RECORDED_CONVERSATIONS);
  /** The JSONL line each recorded request went to, for `accounted`. */
  private readonly lineOf = new WeakMap<PreparedRequest, number>();
  /** A request's factor when its usage was accounted before its line was written (the usual order: see record). */
  private readonly pendingFactor = new WeakMap<PreparedRequest, number>();
  private announced = false;

  constructor(
    private readonly folder: string,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  record(prepared: PreparedRequest, sent?: SentRecord): void {
    let recording = this.recordings.get(prepared.sessionId);
    if (!recording) {
      recording = new RequestRecording();
      this.recordings.set(prepared.sessionId, recording);
    }
    const file = path.join(this.folder, 'requests', `${prepared.sessionId}.jsonl`);
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const meta = this.metaFor(prepared, file);
      fs.appendFileSync(file, `${recording.lineFor(prepared.input, prepared.tools, sent)}\n`);
      const line = meta.lines++;
      this.lineOf.set(prepared, line);
      const factor = this.pendingFactor.get(prepared);
      if (factor !== undefined) meta.factors[line] = factor;
      // Exact, not rounded: the report's replay trims with it and must land on this request's cut.
      meta.calibrations[line] = [prepared.calibration, prepared.calibrationSpread];
      this.writeMeta(file, meta);
      if (!this.announced) this.log.info(`[record] Recording requests to ${path.dirname(file)}`);
      this.announced = true;
    } catch (error) {
      this.log.warn(`[record] Could not write ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * The endpoint's usage for a recorded request: its API-tokens-per-estimate factor goes into the meta file,
   * so the report's replay sizes that request as the real run did (and lands on the same cuts).
   */
  accounted(prepared: PreparedRequest, promptTokens: number): void {
    const estimated = calibrationRawTokens(prepared.trim);
    if (estimated <= 0 || promptTokens <= 0) return;
    const factor = Math.round((promptTokens / estimated) * 10_000) / 10_000;
    const line = this.lineOf.get(prepared);
    const meta = this.metas.get(prepared.sessionId);
    // The engine accounts an answer before it records the request (the line is written after the last attempt).
    if (line === undefined || !meta) return void this.pendingFactor.set(prepared, factor);
    meta.factors[line] = factor;
    const file = path.join(this.folder, 'requests', `${prepared.sessionId}.jsonl`);
    try {
      this.writeMeta(file, meta);
    } catch (error) {
      this.log.warn(`[record] Could not write ${metaPath(file)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The conversation's meta, continued from its file when this window has not written it yet. */
  private metaFor(prepared: PreparedRequest, file: string): WrittenMeta {
    // From the body's input, not the body: Gemini names the model in the path, not the body.
    const model = prepared.bodyInput.modelId;
    const known = this.metas.get(prepared.sessionId) ?? continued(file);
    const meta: WrittenMeta = { ...known, ...metaFields(typeof model === 'string' ? model : 'unknown', prepared.budget) };
    this.metas.set(prepared.sessionId, meta);
    return meta;
  }

  /** `<session>.meta.json`: model, budget and per-request factors, for the session report (the replay CLI ignores it). */
  private writeMeta(file: string, meta: WrittenMeta): void {
    const { lines: _lines, ...written } = meta;
    fs.writeFileSync(metaPath(file), `${JSON.stringify(written)}\n`);
  }
}

interface WrittenMeta extends WrittenRecordingMeta {
  /** Lines in the JSONL so far (not written: the file itself says). */
  lines: number;
}

const metaPath = (file: string): string => file.replace(/\.jsonl$/, '.meta.json');

/** A conversation this window has not recorded yet may have a file from before: keep counting its lines. */
function continued(file: string): Pick<WrittenMeta, 'factors' | 'calibrations' | 'lines'> {
  let lines = 0;
  try {
    lines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).length;
  } catch {
    return { factors: [], calibrations: [], lines: 0 };
  }
  const meta = parseRecordingMeta(readOr(metaPath(file)));
  return { factors: (meta?.factors ?? []).slice(0, lines), calibrations: (meta?.calibrations ?? []).slice(0, lines), lines };
}

function readOr(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
