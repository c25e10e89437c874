// Env files for env valueFrom.fileKeyRef (EnvFiles gate, 1.34 alpha, 1.35 beta on), mirroring
// kubelet's pkg/kubelet/util/env ParseEnv in the strict single-quoted form of the newest trees read
// (1.35-era: VAR='value', literal content, multi-line values, comments). Pure: the file's text is
// an input; the executor reads it from the volume (see envFileHostPath).
import { SyncpodError } from '../errors';

/**
 * The value of `key` in an env file's text; undefined when the key is absent (kubelet also treats
 * an empty value as absent). Throws for a malformed file, naming the line.
 */
export function parseEnvFileValue(text: string, key: string): string | undefined {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const lineNum = i + 1;
    const line = lines[i]!.replace(/^[ \t]+/, '');
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq < 0) throw new SyncpodError(`invalid environment variable format at line ${lineNum}: missing '='`);
    const namePart = line.slice(0, eq);
    const name = namePart.replace(/[ \t]+$/, '');
    if (name === '')
      throw new SyncpodError(`invalid environment variable format at line ${lineNum}: empty variable name`);
    if (name !== namePart)
      throw new SyncpodError(
        `invalid environment variable format at line ${lineNum}: whitespace before '=' is not allowed`,
      );
    const valuePart = line.slice(eq + 1);
    const trimmed = valuePart.replace(/^[ \t]+/, '');
    if (trimmed !== valuePart) {
      // KEY= 'v' assigns the empty string, as a shell does.
      if (name === key) return undefined;
      continue;
    }
    if (!trimmed.startsWith("'"))
      throw new SyncpodError(
        `invalid environment variable format at line ${lineNum}: value must be enclosed in single quotes`,
      );
    let value = '';
    let rest = trimmed.slice(1);
    const start = lineNum;
    for (;;) {
      const close = rest.indexOf("'");
      if (close >= 0) {
        value += rest.slice(0, close);
        const after = rest.slice(close + 1).replace(/^[ \t]+/, '');
        if (after !== '' && !after.startsWith('#')) {
          throw new SyncpodError(
            `invalid environment variable format at line ${i + 1}: unexpected content after closing quote`,
          );
        }
        if (name === key) return value === '' ? undefined : value;
        break;
      }
      value += rest + '\n';
      i++;
      if (i >= lines.length)
        throw new SyncpodError(`invalid environment variable format starting at line ${start}: unclosed single quote`);
      rest = lines[i]!;
    }
  }
  return undefined;
}

/** securejoin of a volume's host path and a relative path: `..` never leaves the volume. */
export function joinInVolume(root: string, rel: string): string {
  const parts: string[] = [];
  for (const p of rel.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') parts.pop();
    else parts.push(p);
  }
  return `${root.replace(/\/+$/, '')}/${parts.join('/')}`;
}
