// `config --get/--set/--list` on crictl's client config file (/etc/crictl.yaml, CRI_CONFIG_FILE or
// -c): the same keys and value rules as crictl, comments and unknown-to-us order kept (the file is
// edited as a YAML document, not rewritten from scratch).
import type { Document } from 'yaml';
import { SyncpodError } from '../errors';
import { yamlErrorLine } from './settings';

/** crictl's options, in its --list order, with how a value is checked and printed. */
export const CONFIG_KEYS = [
  'runtime-endpoint',
  'image-endpoint',
  'timeout',
  'debug',
  'pull-image-on-create',
  'disable-pull-on-run',
  'max-retries',
] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];

const DEFAULTS: Record<ConfigKey, string | number | boolean> = {
  'runtime-endpoint': '',
  'image-endpoint': '',
  timeout: 0,
  debug: false,
  'pull-image-on-create': false,
  'disable-pull-on-run': false,
  'max-retries': 0,
};

function isKey(k: string): k is ConfigKey {
  return (CONFIG_KEYS as readonly string[]).includes(k);
}

/** Go's strconv.ParseBool. */
function parseGoBool(key: string, value: string): boolean {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  throw new SyncpodError(`parse ${key} value '${value}': not true or false`);
}

function typedValue(key: ConfigKey, value: string): string | number | boolean {
  if (key === 'timeout' || key === 'max-retries') {
    if (!/^[-+]?\d+$/.test(value))
      throw new SyncpodError(
        `parse ${key} value '${value}': not a whole number${key === 'timeout' ? ' of seconds' : ''}`,
      );
    return Number(value);
  }
  if (key === 'runtime-endpoint' || key === 'image-endpoint') return value;
  return parseGoBool(key, value);
}

export class CrictlConfigFile {
  private constructor(private readonly doc: Document) {}

  static parse(path: string, text: string | undefined): CrictlConfigFile {
    // yaml is loaded here, not at import (the command table keeps heavy packages behind use).
    const { parseDocument } = require('yaml') as typeof import('yaml');
    const doc = parseDocument(text ?? '');
    if (doc.errors.length) throw new SyncpodError(`config file ${path}: ${yamlErrorLine(doc.errors[0])}`);
    if (
      doc.contents !== null &&
      !(doc.contents && typeof doc.contents === 'object' && 'items' in doc.contents && !Array.isArray(doc.toJS()))
    ) {
      throw new SyncpodError(`config file ${path}: expected a mapping of options`);
    }
    return new CrictlConfigFile(doc);
  }

  get(key: string): string {
    if (!isKey(key)) throw new SyncpodError(`no configuration option named ${key}`);
    const v = this.doc.get(key);
    return String(v === undefined || v === null ? DEFAULTS[key] : v);
  }

  /** `--set k=v[,k=v...]` (repeatable), as crictl splits it. */
  set(settings: readonly string[]): void {
    for (const setting of settings) {
      for (const option of setting.split(',')) {
        const eq = option.indexOf('=');
        if (eq <= 0) throw new SyncpodError(`incorrectly specified option: ${setting}`);
        const key = option.slice(0, eq);
        if (!isKey(key)) throw new SyncpodError(`no configuration option named ${key}`);
        const value = typedValue(key, option.slice(eq + 1));
        if (this.doc.contents === null) this.doc.contents = this.doc.createNode({}) as never;
        this.doc.set(key, value);
      }
    }
  }

  list(): Array<[ConfigKey, string]> {
    return CONFIG_KEYS.map((k) => [k, this.get(k)]);
  }

  toString(): string {
    return this.doc.toString();
  }
}
