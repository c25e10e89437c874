// Typed, one-line errors of the CNI layer. All are SyncpodError (exit code 1).

import { SyncpodError } from '../errors';
import type { CniCommand, InvocationRecord } from './types';

/** Reserved CNI error codes (SPEC.md "Error" section) and their meaning, for messages. */
export const CNI_ERROR_CODES: Readonly<Record<number, string>> = {
  1: 'incompatible CNI version',
  2: 'unsupported field in network configuration',
  3: 'container unknown or does not exist',
  4: 'invalid necessary environment variables',
  5: 'I/O failure',
  6: 'failed to decode content',
  7: 'invalid network config',
  11: 'try again later',
  50: 'plugin not available',
  51: 'plugin not available, existing containers may have limited connectivity',
};

/** Squash whitespace so a message stays on one line, and bound its length. */
export function oneLine(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}

/** A plugin exited non-zero and printed a CNI error object. */
export class CniPluginError extends SyncpodError {
  constructor(
    readonly pluginType: string,
    readonly command: CniCommand,
    readonly code: number,
    readonly msg: string,
    readonly details: string,
  ) {
    const meaning = CNI_ERROR_CODES[code];
    const codeText = meaning === undefined ? `code ${code}` : `code ${code} (${meaning})`;
    const detailText = details === '' ? '' : `; details: ${oneLine(details)}`;
    super(`CNI plugin "${pluginType}" failed (${command}): ${oneLine(msg)} [${codeText}]${detailText}`);
    this.name = 'CniPluginError';
  }
}

/** A plugin binary is in none of the plugin directories. */
export class CniPluginNotFoundError extends SyncpodError {
  constructor(
    readonly pluginType: string,
    readonly dirs: string[],
    network: string,
  ) {
    super(`CNI plugin "${pluginType}" of network "${network}" not found in ${dirs.join(':')} (set --cni-bin-dir)`);
    this.name = 'CniPluginNotFoundError';
  }
}

/** A plugin ran longer than the timeout and was killed. */
export class CniTimeoutError extends SyncpodError {
  constructor(
    readonly pluginType: string,
    readonly command: CniCommand,
    readonly timeoutMs: number,
  ) {
    super(`CNI plugin "${pluginType}" (${command}) did not finish within ${timeoutMs} ms and was killed`);
    this.name = 'CniTimeoutError';
  }
}

/** A plugin printed something that is not the JSON the protocol asks for. */
export class CniInvalidOutputError extends SyncpodError {
  constructor(
    readonly pluginType: string,
    readonly command: CniCommand,
    detail: string,
  ) {
    super(`CNI plugin "${pluginType}" (${command}): ${oneLine(detail)}`);
    this.name = 'CniInvalidOutputError';
  }
}

/** The network configuration or the request is unusable; nothing was run. */
export class CniConfigError extends SyncpodError {
  constructor(message: string) {
    super(message);
    this.name = 'CniConfigError';
  }
}

/** ADD failed part-way; the chain was deleted again. Carries both outcomes. */
export class CniSetupError extends SyncpodError {
  constructor(
    readonly addError: Error,
    readonly cleanupErrors: Error[],
    /** Every ADD and cleanup DEL that ran, in order. */
    readonly invocations: InvocationRecord[] = [],
  ) {
    const cleanup =
      cleanupErrors.length === 0
        ? 'cleanup DEL succeeded'
        : `cleanup DEL also failed: ${cleanupErrors.map((e) => e.message).join('; ')}`;
    super(`network setup failed: ${addError.message}; ${cleanup}`, { cause: addError });
    this.name = 'CniSetupError';
  }
}
