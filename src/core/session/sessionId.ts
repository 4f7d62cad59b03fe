/**
 * The `x-opencode-session` header: stable for one conversation, so OpenCode Go accepts the request and
 * routes every turn to the same prompt cache. Derived from the conversation's opening messages (system
 * prompt + first user message), which never change as the conversation grows, so a restart of VS Code
 * keeps the same id. A fresh random `x-opencode-request` goes with each request.
 */
import { createHash, randomUUID } from 'crypto';
import type { WireMessage } from '../wire/wireTypes';

export function conversationSessionId(messages: readonly WireMessage[]): string {
  const hash = createHash('sha256');
  let sawUser = false;
  for (const message of messages) {
    if (message.role !== 'system' && message.role !== 'user') break;
    hash.update(message.role).update('\u0000').update(JSON.stringify(message.content)).update('\u0000');
    if (message.role === 'user') {
      sawUser = true;
      break;
    }
  }
  if (!sawUser && messages.length > 0) hash.update(JSON.stringify(messages[0]));
  return `ses_${hash.digest('hex').slice(0, 32)}`;
}

export function newRequestId(): string {
  return `req_${randomUUID().replace(/-/g, '')}`;
}
