/** What the core needs from a log: VS Code's LogOutputChannel satisfies it; tests pass a recorder (MemoryLogger in src/test/support). */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  debug(message: string): void;
}
