/**
 * opencode.recordRequests: appends what each conversation sent, as replay JSONL, to
 * `<extension log folder>/requests/<session id>.jsonl`, so users can replay and tune their own sessions.
 * The API key is never part of a request body, so it never reaches these files.
 */
import * as fs from 'fs';
import * as path from 'path';
import type * as vscode from 'vscode';
import { RequestRecording } from '../core/replay/requestRecording';
import type { PreparedRequest } from '../core/request/prepareRequest';
import { BoundedMap } from '../core/util/boundedMap';

/** Conversations remembered for `append` lines; one that comes back after eviction writes a whole request line (still valid replay). */
const MAX_RECORDED_CONVERSATIONS = 64;

export class RequestRecorderFile {
  private readonly recordings = new BoundedMap<string, RequestRecording>(MAX_RECORDED_CONVERSATIONS);
  private announced = false;

  constructor(
    private readonly folder: string,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  record(prepared: PreparedRequest): void {
    let recording = this.recordings.get(prepared.sessionId);
    if (!recording) {
      recording = new RequestRecording();
      this.recordings.set(prepared.sessionId, recording);
    }
    const file = path.join(this.folder, 'requests', `${prepared.sessionId}.jsonl`);
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.appendFileSync(file, `${recording.lineFor(prepared.input, prepared.tools)}\n`);
      if (!this.announced) this.log.info(`[record] Recording requests to ${path.dirname(file)}`);
      this.announced = true;
    } catch (error) {
      this.log.warn(`[record] Could not write ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
