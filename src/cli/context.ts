// What a command gets to work with: streams, settings, the CRI services (opened on first use),
// colour, a clock. Built once per invocation by src/main.ts; commands only wire flags to these.
import { readFileSync } from 'node:fs';
import { resolveSettings, type GlobalFlags, type Settings } from '../config/settings';
import { openCri, type CriServices } from '../cri/connect';

export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
}

export interface Context {
  io: Io;
  flags: GlobalFlags & { noColor?: boolean };
  /** Colour on stdout: a TTY, no NO_COLOR, no --no-color. */
  colour: boolean;
  /** Colour on stderr (progress, warnings). */
  colourErr: boolean;
  settings(): Settings;
  cri(): CriServices;
  now(): number;
  out(text: string): void;
  warn(line: string): void;
  debug(line: string): void;
  readStdin(): Promise<string>;
  /** Standard input as bytes (manifests are checked to be UTF-8). */
  readStdinBytes(): Promise<Uint8Array>;
  close(): void;
}

function readIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export function createContext(io: Io, flags: GlobalFlags & { noColor?: boolean }): Context {
  const noColourEnv = io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '';
  const colourAllowed = !flags.noColor && !noColourEnv;
  let settings: Settings | undefined;
  let cri: CriServices | undefined;
  const ctx: Context = {
    io,
    flags,
    colour: colourAllowed && !!io.stdout.isTTY,
    colourErr: colourAllowed && !!io.stderr.isTTY,
    settings() {
      settings ??= resolveSettings({
        flags,
        env: io.env,
        readFile: readIfExists,
        parseYaml: (text) => (require('yaml') as typeof import('yaml')).parse(text),
      });
      return settings;
    },
    cri() {
      if (!cri) {
        const s = ctx.settings();
        cri = openCri(s, s.debug || flags.debug ? (l) => ctx.debug(l) : undefined);
      }
      return cri;
    },
    now: () => Date.now(),
    out(text) {
      io.stdout.write(text.endsWith('\n') || text === '' ? text : text + '\n');
    },
    warn(line) {
      io.stderr.write(`WARN: ${line}\n`);
    },
    debug(line) {
      if (flags.debug || settings?.debug) io.stderr.write(`DEBUG: ${line}\n`);
    },
    readStdin() {
      return ctx.readStdinBytes().then((b) => Buffer.from(b).toString('utf8'));
    },
    readStdinBytes() {
      return new Promise((resolve, reject) => {
        const chunks: Buffer[] = [];
        io.stdin.on('data', (c: Buffer | string) => chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c)));
        io.stdin.on('end', () => resolve(Buffer.concat(chunks)));
        io.stdin.on('error', reject);
      });
    },
    close() {
      cri?.close();
    },
  };
  return ctx;
}
