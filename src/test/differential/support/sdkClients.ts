/**
 * The official SDKs as oracles, each built so that nothing from the environment reaches it: every option the
 * SDK would otherwise read from OPENAI_* / ANTHROPIC_* / GEMINI_* / GOOGLE_* is given explicitly, and each
 * client sends through `loopbackFetch`, which refuses any URL outside the loopback server and sends only the
 * framing headers and the test key (so *_CUSTOM_HEADERS and the like change nothing on the wire).
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';

export const TEST_KEY = 'sk-differential-test';
const SENT_HEADERS = new Set(['accept', 'content-type', 'content-length']);
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** A fetch that reaches only `origin` and sends only what the test decides. */
export function loopbackFetch(origin: string, keyHeader: 'authorization' | 'x-api-key' | 'x-goog-api-key'): typeof fetch {
  return (url, init) => {
    const target = typeof url === 'string' ? url : url instanceof URL ? url.href : url.url;
    if (!target.startsWith(`${origin}/`)) return Promise.reject(new Error(`the oracle may only reach ${origin}, not ${target}`));
    const headers = new Headers();
    new Headers(init?.headers).forEach((value, name) => {
      if (SENT_HEADERS.has(name)) headers.set(name, value);
    });
    headers.set(keyHeader, keyHeader === 'authorization' ? `Bearer ${TEST_KEY}` : TEST_KEY);
    return fetch(url, { ...init, headers });
  };
}

export function openAIOracle(origin: string): OpenAI {
  return new OpenAI({
    baseURL: `${origin}/v1`,
    apiKey: TEST_KEY,
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    maxRetries: 0,
    logLevel: 'off',
    logger: silent,
    fetch: loopbackFetch(origin, 'authorization'),
  });
}

export function anthropicOracle(origin: string): Anthropic {
  return new Anthropic({
    baseURL: origin,
    apiKey: TEST_KEY,
    authToken: null,
    webhookKey: null,
    maxRetries: 0,
    logLevel: 'off',
    logger: silent,
    openTelemetry: false,
    fetch: loopbackFetch(origin, 'x-api-key'),
  });
}

export function geminiOracle(origin: string): GoogleGenAI {
  return new GoogleGenAI({
    apiKey: TEST_KEY,
    vertexai: false,
    apiVersion: 'v1beta',
    httpOptions: { baseUrl: origin, apiVersion: 'v1beta', headers: {}, fetch: loopbackFetch(origin, 'x-goog-api-key') },
  });
}
