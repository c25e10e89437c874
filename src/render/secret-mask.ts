// The one place where Secret values are kept out of syncpod's output. Whatever learns a Secret's
// value for this invocation (the --env-file values a pod uses through secretKeyRef or envFrom
// secretRef, and what was expanded from them; volume data) adds it to `invocationSecrets`; every
// writer text leaves through (stdout, stderr: tables, JSON, YAML, --dry-run request and file lists,
// --debug lines, progress, warnings, and the error line of src/main.ts) masks it, unless the
// command was given --show-secrets. Structured redaction (sync/redact.ts, cri/redact.ts) still
// replaces values where their field is known; this is the net under every other path: a value
// expanded into a command, a subPathExpr, an error message.
//
// Values shorter than MIN_MASKED characters are not masked in free text: replacing every "1" or
// "on" would garble all output (the structured redaction still hides them in env values).

export const MASKED = '<redacted>';
export const MIN_MASKED = 3;

export class SecretMask {
  private readonly values = new Set<string>();
  /** Every form looked for, longest first (a value inside another is replaced after it). */
  private forms: string[] = [];
  private revealed = false;

  /** Adds values that must not be printed. */
  add(values: Iterable<string>): void {
    let changed = false;
    for (const v of values) {
      // A value used as a path (a subPathExpr) may be printed normalised: `../x/y` as `…/x/y`,
      // so its segments are masked as well.
      const parts = v.includes('/') ? [v, ...v.split('/').filter((p) => p !== '.' && p !== '..')] : [v];
      for (const p of parts) {
        if (p.length < MIN_MASKED || this.values.has(p)) continue;
        this.values.add(p);
        changed = true;
      }
    }
    if (!changed) return;
    const forms = new Set<string>();
    for (const v of this.values) {
      forms.add(v);
      // As JSON (and YAML double-quoted) output escapes it, and as a CRI bytes field shows it.
      forms.add(JSON.stringify(v).slice(1, -1));
      if (v.length >= 8) forms.add(Buffer.from(v, 'utf8').toString('base64'));
    }
    this.forms = [...forms].filter((f) => f.length >= MIN_MASKED).sort((a, b) => b.length - a.length);
  }

  /** `--show-secrets`: values are printed as they are. */
  reveal(): void {
    this.revealed = true;
  }

  /** True when there is something to mask. */
  get active(): boolean {
    return !this.revealed && this.forms.length > 0;
  }

  mask(text: string): string {
    if (!this.active) return text;
    let out = text;
    for (const f of this.forms) if (out.includes(f)) out = out.split(f).join(MASKED);
    return out;
  }

  /** Forgets every value (tests run several invocations in one process). */
  clear(): void {
    this.values.clear();
    this.forms = [];
    this.revealed = false;
  }
}

/** The Secret values of this invocation (one process runs one command). */
export const invocationSecrets = new SecretMask();

type Writable = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

/**
 * The stream, its `write` masking `mask`'s values (text and UTF-8 chunks); everything else (isTTY,
 * columns, events, cursor methods progress views use) is the stream's own.
 */
export function maskedStream<S extends Writable>(stream: S, mask: SecretMask): S {
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    let data = chunk;
    if (mask.active) {
      if (typeof chunk === 'string') data = mask.mask(chunk);
      else if (chunk instanceof Uint8Array) {
        const text = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8');
        const masked = mask.mask(text);
        if (masked !== text) data = masked;
      }
    }
    return (stream.write as (...a: unknown[]) => boolean).call(stream, data, ...rest);
  };
  return new Proxy(stream, {
    get(target, prop) {
      if (prop === 'write') return write;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
