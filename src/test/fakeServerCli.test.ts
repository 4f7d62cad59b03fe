/** The fake server's command line: flag parsing, and a real child process that prints its URL. */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { parseCliArgs } from '../fakeServer/cliArgs';
import { postChat } from '../fakeServer/client';

const cliPath = path.join(__dirname, '..', 'fakeServer', 'cli.js');

function firstStdoutLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout!.on('data', (data: Buffer) => {
      buffered += data.toString('utf8');
      const newline = buffered.indexOf('\n');
      if (newline >= 0) resolve(buffered.slice(0, newline));
    });
    child.once('exit', (code) => reject(new Error(`cli exited with ${code} before printing a line`)));
  });
}

function exitCode(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('fake server: CLI flags', () => {
  it('parses every flag', () => {
    const parsed = parseCliArgs([
      '--port', '4010', '--host', '::1', '--usage-shape', 'anthropic', '--reply-tokens', '12',
      '--model', 'a:1000:100', 'b:2000:200', '--model', 'c:3000:300', '--reply-delay-ms', '5',
      '--require-key', 'k', '--require-session',
    ]);
    assert.deepEqual(parsed, {
      help: false,
      options: {
        port: 4010,
        host: '::1',
        usageShape: 'anthropic',
        replyTokens: 12,
        replyDelayMs: 5,
        requireKey: 'k',
        requireSession: true,
        models: [
          { id: 'a', contextWindow: 1000, maxOutputTokens: 100, toolCalling: true },
          { id: 'b', contextWindow: 2000, maxOutputTokens: 200, toolCalling: true },
          { id: 'c', contextWindow: 3000, maxOutputTokens: 300, toolCalling: true },
        ],
      },
    });
  });

  it('rejects unknown flags and bad values', () => {
    assert.throws(() => parseCliArgs(['--verbose']), /Unknown option --verbose/);
    assert.throws(() => parseCliArgs(['--port', 'abc']), /non-negative integer/);
    assert.throws(() => parseCliArgs(['--usage-shape', 'gemini']), /openai, deepseek, anthropic/);
    assert.throws(() => parseCliArgs(['--model', 'missing-window']), /id:window:maxOutput/);
    assert.throws(() => parseCliArgs(['--host']), /--host expects a value/);
    assert.throws(() => parseCliArgs(['--host', '--port', '1']), /--host expects a value/);
    assert.throws(() => parseCliArgs(['stray']), /Unexpected argument stray/);
    assert.throws(() => parseCliArgs(['--model', 'a:1:1:vertex']), /id:window:maxOutput/);
    assert.deepEqual(parseCliArgs(['--model', 'claude-x:200000:64000:messages']).options.models, [
      { id: 'claude-x', contextWindow: 200_000, maxOutputTokens: 64_000, toolCalling: true, api: 'messages' },
    ]);
  });
});

describe('fake server: CLI process', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('prints its URL, serves the given models, logs requests and exits on SIGTERM', async () => {
    child = spawn(process.execPath, [cliPath, '--port', '0', '--model', 'tiny:4096:512', '--usage-shape', 'deepseek', '--reply-tokens', '10'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (data: Buffer) => (stderr += data.toString('utf8')));
    const line = await firstStdoutLine(child);
    const match = /^FAKE_OPENCODE_URL=(http:\/\/127\.0\.0\.1:\d+\/v1)$/.exec(line);
    assert.ok(match, `unexpected first line: ${line}`);
    const url = match[1];

    const models = (await (await fetch(`${url}/models`)).json()) as { data: { id: string }[] };
    assert.deepEqual(models.data.map((m) => m.id), ['tiny']);
    const chat = (await (await postChat(url, { model: 'tiny', messages: [{ role: 'user', content: 'hi' }] })).json()) as {
      usage: Record<string, number>;
    };
    assert.equal(chat.usage.completion_tokens, 10);
    assert.equal(chat.usage.prompt_cache_hit_tokens, 0);

    child.kill('SIGTERM');
    assert.equal(await exitCode(child), 0);
    assert.match(stderr, /^#0 GET \/v1\/models 200 /m);
    assert.match(stderr, /^#1 POST \/v1\/chat\/completions 200 \d+ms model=tiny prompt=\d+ cached=0$/m);
  });

  it('exits with status 2 and the usage on a bad flag', async () => {
    child = spawn(process.execPath, [cliPath, '--bogus'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (data: Buffer) => (stderr += data.toString('utf8')));
    assert.equal(await exitCode(child), 2);
    assert.match(stderr, /Unknown option --bogus/);
    assert.match(stderr, /Usage: node out\/fakeServer\/cli\.js/);
  });
});
