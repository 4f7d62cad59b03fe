/**
 * Gemini accepts function names that start with a letter or `_` and use only `a-zA-Z0-9_.:-`, at most 128
 * characters. Other names are mapped deterministically (disallowed characters → `_`, plus a hash of the original
 * so two names never collide) and mapped back when the model calls them. The mapping is a pure function of the
 * name; the reverse table is a bounded memo filled each time a body is built, which always precedes the reader
 * that needs it (a route's reader gets no input: src/core/routes/route.ts).
 */
import { hashId } from '../../util/hashId';
import { BoundedMap } from '../../util/boundedMap';

const VALID = /^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/;
const reverse = new BoundedMap<string, string>(2000);

export function geminiToolName(name: string): string {
  if (VALID.test(name)) return name;
  const hash = hashId(name, 8);
  const cleaned = name.replace(/[^A-Za-z0-9_.:-]/g, '_').slice(0, 110);
  const mapped = `${/^[A-Za-z_]/.test(cleaned) ? '' : '_'}${cleaned}_${hash}`;
  reverse.set(mapped, name);
  return mapped;
}

/** The tool's own name for a name Gemini called (unchanged when it was never mapped). */
export function originalToolName(sent: string): string {
  return reverse.get(sent) ?? sent;
}
