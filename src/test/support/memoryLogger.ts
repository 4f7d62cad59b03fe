/** The recorder the tests, the replay tool and the benchmark pass as the core's Logger (core/log.ts). */
import type { Logger } from '../../core/log';

/** A logger that remembers every line. */
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
