// What a command gets to work with: streams, settings, the CRI services (opened on first use),
// colour, a clock. Built once per invocation by src/main.ts; commands only wire flags to these.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { hostname } from 'node:os';
import { hostRootOf, onHost } from '../config/host-root';
import { DEFAULT_RUNTIME_ENDPOINTS, resolveSettings, type GlobalFlags, type Settings } from '../config/settings';
import type { CriServices } from '../cri/connect';
import { connectRuntime } from '../workflows/connect-runtime';
import { chooseColours, type Colours } from '../render/colour';
import { invocationSecrets, maskedStream } from '../render/secret-mask';
import type { ImageCaller, RuntimeCaller } from '../sync/types';
import type { NodeProfile, RuntimeCgroupDriver, Sourced } from '../node/types';
import { inputText } from '../utf8';
import { readInputFileSync, readInputStream } from '../read-input';
import { hostNodeFacts, nodeProfile, syncpodNodeFlags, type NodeFlagValues } from '../workflows/node-profile';

export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /**
   * Writes a whole text to stdout at once (help, --version, usage): the process's stdout writes
   * it straight to the file descriptor while no stream has been made for it (see src/entry.ts).
   * Without it, stdout.write.
   */
  writeOut?(text: string): void;
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
}

/**
 * The program a command runs in, handed down by main.ts, so that a command needs to import neither
 * main nor the command table (which imports the commands).
 */
export interface ProgramHandle {
  /** Every command's loader (the build's warm-up loads them all). */
  loaders: ReadonlyArray<() => Promise<unknown>>;
  /** The whole program, every command defined (shell completion). */
  full(): CommandUnknownOpts;
  /** Runs syncpod again in this process, as main does (the build's warm-up). */
  run(argv: string[], io: Io): Promise<number>;
}

const NO_PROGRAM: ProgramHandle = {
  loaders: [],
  full: () => {
    throw new Error('no program in this context');
  },
  run: async () => {
    throw new Error('no program in this context');
  },
};

export interface Context {
  io: Io;
  program: ProgramHandle;
  flags: GlobalFlags & { noColor?: boolean };
  /** The palette for stdout, decided once: a TTY, no NO_COLOR, no --no-color. */
  colours: Colours;
  /** The palette for stderr (progress, warnings). */
  coloursErr: Colours;
  settings(): Settings;
  cri(): CriServices;
  /** The runtime service, opened on its first call (flows that may fail before needing it). */
  runtime: RuntimeCaller;
  image: ImageCaller;
  /**
   * The node profile for these node flags (the running kubelet read once per invocation unless
   * --no-node-profile); its warnings go to stderr once.
   */
  nodeProfile(flags: NodeFlagValues, runtimeCgroupDriver?: RuntimeCgroupDriver): NodeProfile;
  now(): number;
  out(text: string): void;
  warn(line: string): void;
  debug(line: string): void;
  /** Standard input as text (checked to be UTF-8). */
  readStdin(): Promise<string>;
  /** Standard input as bytes (manifests are checked to be UTF-8). */
  readStdinBytes(): Promise<Uint8Array>;
  close(): void;
}

function readIfExists(path: string): string | undefined {
  try {
    return readInputFileSync(path, `config file ${path}`).toString('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * The invocation's streams with its Secret values masked in everything written (render/secret-mask.ts);
 * the streams are still made on first use.
 */
function maskedIo(io: Io): Io {
  let stdout: Io['stdout'] | undefined;
  let stderr: Io['stderr'] | undefined;
  const writeOut = io.writeOut;
  return {
    get stdout() {
      stdout ??= maskedStream(io.stdout, invocationSecrets);
      return stdout;
    },
    get stderr() {
      stderr ??= maskedStream(io.stderr, invocationSecrets);
      return stderr;
    },
    ...(writeOut ? { writeOut: (text: string) => writeOut(invocationSecrets.mask(text)) } : {}),
    get stdin() {
      return io.stdin;
    },
    env: io.env,
  };
}

export function createContext(
  rawIo: Io,
  flags: GlobalFlags & { noColor?: boolean },
  program: ProgramHandle = NO_PROGRAM,
): Context {
  const io = maskedIo(rawIo);
  let settings: Settings | undefined;
  let cri: CriServices | undefined;
  const parseYaml = (text: string) => (require('yaml') as typeof import('yaml')).parse(text);
  // The kubelet is found in the node's /proc (under --host-root).
  // (Not through settings(): they take the kubelet's runtime endpoint from this profile.)
  const facts = hostNodeFacts(
    () => ({
      proc: onHost(hostRootOf(flags.hostRoot, io.env), '/proc'),
      parseYaml: (text) => (require('yaml') as typeof import('yaml')).parse(text, { version: '1.1' }),
    }),
    hostname,
  );
  const warned = new Set<string>();
  let coloursErr: Colours | undefined;
  const ctx: Context = {
    io,
    program,
    flags,
    colours: chooseColours({ isTTY: !!io.stdout.isTTY, noColorEnv: io.env.NO_COLOR, noColorFlag: !!flags.noColor }),
    // Decided on first use: looking at stderr creates Node's stream for it.
    get coloursErr() {
      coloursErr ??= chooseColours({
        isTTY: !!io.stderr.isTTY,
        noColorEnv: io.env.NO_COLOR,
        noColorFlag: !!flags.noColor,
      });
      return coloursErr;
    },
    settings() {
      settings ??= resolveSettings({
        flags,
        env: io.env,
        readFile: readIfExists,
        parseYaml,
        kubeletEndpoints: () => {
          if (flags.noNodeProfile) return undefined;
          try {
            const k = facts.detect(false).kubelet?.settings;
            return k
              ? { runtime: k.containerRuntimeEndpoint.value, image: k.imageServiceEndpoint.value || undefined }
              : undefined;
          } catch {
            return undefined; // a broken kubelet config is reported where node settings are used
          }
        },
      });
      return settings;
    },
    nodeProfile(nodeFlags, runtimeCgroupDriver) {
      const s = ctx.settings();
      const crictl = (
        value: string | undefined,
        source: Settings['runtimeEndpointSource'],
        env: string,
        key: string,
      ): Sourced<string> | undefined => {
        if (value === undefined || source === 'default' || source === 'kubelet') return undefined;
        if (source === 'flag')
          return {
            value,
            source: 'flag',
            from: key === 'runtime-endpoint' ? '--runtime-endpoint' : '--image-endpoint',
          };
        if (source === 'env') return { value, source: 'env', from: env };
        return { value, source: 'crictl-config', from: `${s.configFile?.path ?? ''} ${key}`.trim() };
      };
      const p = nodeProfile(facts, {
        flags: syncpodNodeFlags(nodeFlags),
        noNodeProfile: flags.noNodeProfile === true,
        endpoints: {
          runtime: crictl(
            s.runtimeEndpoints[0],
            s.runtimeEndpointSource,
            'CONTAINER_RUNTIME_ENDPOINT',
            'runtime-endpoint',
          ),
          image: crictl(s.imageEndpoint, s.imageEndpointSource, 'IMAGE_SERVICE_ENDPOINT', 'image-endpoint'),
          defaults: DEFAULT_RUNTIME_ENDPOINTS,
        },
        runtimeCgroupDriver,
      });
      for (const w of p.warnings) {
        if (!warned.has(w)) ctx.warn(w);
        warned.add(w);
      }
      return p;
    },
    cri() {
      if (!cri) {
        const s = ctx.settings();
        cri = connectRuntime(s, s.debug || flags.debug ? (l) => ctx.debug(l) : undefined);
      }
      return cri;
    },
    runtime: { call: (method, request, o) => ctx.cri().runtime.call(method, request, o) },
    image: { call: (method, request, o) => ctx.cri().image.call(method, request, o) },
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
      return ctx.readStdinBytes().then((b) => inputText(b, '<stdin>'));
    },
    readStdinBytes() {
      return readInputStream(io.stdin, '<stdin>');
    },
    close() {
      cri?.close();
    },
  };
  return ctx;
}
