/** What the core needs from a log: VS Code's LogOutputChannel satisfies it; tests pass a recorder. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  debug(message: string): void;
}

/** A logger that remembers every line, for tests, the replay tool and the benchmark. */
export class MemoryLogger implements Logger {
  readonly lines: { level: 'info' | 'warn' | 'error' | 'debug'; message: string }[] = [];
  info(message: string): void {
    this.lines.push({ level: 'info', message });
  }
  warn(message: string): void {
    this.lines.push({ level: 'warn', message });
  }
  error(message: string): void {
    this.lines.push({ level: 'error', message });
  }
  debug(message: string): void {
    this.lines.push({ level: 'debug', message });
  }
  messages(level?: string): string[] {
    return this.lines.filter((l) => !level || l.level === level).map((l) => l.message);
  }
}
