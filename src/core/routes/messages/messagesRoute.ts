/** Anthropic Messages (`/messages`, OpenCode's "anthropic" format): Claude, and Qwen / MiniMax on Go. */
import { apiKeyHeaders } from '../headers';
import type { Route } from '../route';
import { buildMessagesBody } from './messagesBody';
import { MessagesReader } from './messagesStream';

export const messagesRoute: Route = {
  id: 'messages',
  path: '/messages',
  // OpenCode reads the key on /messages only from x-api-key.
  headers: (input) => ({ ...apiKeyHeaders(input), 'anthropic-version': '2023-06-01' }),
  buildBody: buildMessagesBody,
  newReader: () => new MessagesReader(),
};
