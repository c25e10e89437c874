// Detection: the running kubelet -> its command line, config files, version -> KubeletSettings.
// A kubelet that cannot be read is a warning (syncpod goes on with its defaults); a kubelet whose
// configuration is broken is an error naming the file and field, since guessing would plan wrong.
import { SyncpodError } from '../errors';
import { kubeletBinaryVersion, parseKubeletVersionOutput, DEFAULT_CACHE_DIR } from './kubelet-binary';
import { resolveKubeletSettings } from './kubelet-config';
import { loadKubeletConfigFiles } from './kubelet-files';
import { parseKubeletArgs } from './kubelet-flags';
import { findKubelet } from './kubelet-process';
import type { DetectedKubelet } from './profile';

export interface DetectOptions {
  parseYaml: (text: string) => unknown;
  proc?: string;
  cacheDir?: string;
  /** Skip running `kubelet --version` (a version was given on the command line). */
  skipVersion?: boolean;
}

export interface Detection {
  kubelet?: DetectedKubelet;
  warnings: string[];
}

export function detectKubelet(opts: DetectOptions): Detection {
  const proc = opts.proc ?? '/proc';
  const found = findKubelet(proc);
  if (found.kind === 'none') return { warnings: [] };
  if (found.kind === 'unreadable') {
    return { warnings: [`kubelet process ${found.pid} cannot be read: ${found.why}; using syncpod's defaults for the node settings`] };
  }
  const p = found.process;
  const warnings: string[] = [];
  if (found.others.length > 0) warnings.push(`more than one kubelet runs (pids ${[p.pid, ...found.others].join(', ')}); reading the oldest, pid ${p.pid}`);
  const where = `kubelet pid ${p.pid}`;
  const commandLine = parseKubeletArgs(p.args, where);
  const inputs = loadKubeletConfigFiles(commandLine, { cwd: p.cwd, rootPrefix: p.rootPrefix }, opts.parseYaml);
  const settings = resolveKubeletSettings(inputs);
  let version: string | undefined;
  let versionOutput: string | undefined;
  if (!opts.skipVersion) {
    const exe = p.exe.replace(/ \(deleted\)$/, '');
    const r = kubeletBinaryVersion(`${proc}/${p.pid}/exe`, exe, opts.cacheDir ?? DEFAULT_CACHE_DIR);
    if (r.ok) {
      versionOutput = r.output;
      version = parseKubeletVersionOutput(r.output);
      if (!version) {
        throw new SyncpodError(`kubelet ${exe} --version: "${r.output.split('\n')[0].slice(0, 80)}" is not a Kubernetes version; give one with --kubelet-version`);
      }
    } else {
      warnings.push(`could not run ${exe} --version: ${r.why}; planning with the default kubelet version`);
    }
  }
  return {
    kubelet: {
      info: {
        pid: p.pid,
        exe: p.exe,
        args: p.args,
        configFile: inputs.configFile?.path,
        configDir: commandLine.configDir,
        dropIns: inputs.dropIns.map((d) => d.path),
        versionOutput,
      },
      settings,
      version,
    },
    warnings,
  };
}
