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
}

export interface Detection {
  kubelet?: DetectedKubelet;
  warnings: string[];
}

/** The kubelet process, command line and configuration (not yet its version: detectKubeletVersion). */
export function detectKubelet(opts: DetectOptions): Detection {
  const proc = opts.proc ?? '/proc';
  const found = findKubelet(proc);
  if (found.kind === 'none') return { warnings: [] };
  if (found.kind === 'unreadable') {
    return {
      warnings: [
        `kubelet process ${found.pid} cannot be read: ${found.why}; using syncpod's defaults for the node settings`,
      ],
    };
  }
  const p = found.process;
  const warnings: string[] = [];
  if (found.others.length > 0)
    warnings.push(
      `more than one kubelet runs (pids ${[p.pid, ...found.others].join(', ')}); reading the oldest, pid ${p.pid}`,
    );
  const where = `kubelet pid ${p.pid}`;
  const commandLine = parseKubeletArgs(p.args, where);
  const inputs = loadKubeletConfigFiles(
    commandLine,
    { cwd: p.cwd, rootPrefix: p.rootPrefix, cacheDir: opts.cacheDir ?? DEFAULT_CACHE_DIR },
    opts.parseYaml,
  );
  const settings = resolveKubeletSettings(inputs);
  return {
    kubelet: {
      info: {
        pid: p.pid,
        exe: p.exe,
        args: p.args,
        configFile: inputs.configFile?.path,
        configDir: commandLine.configDir,
        dropIns: inputs.dropIns.map((d) => d.path),
      },
      settings,
    },
    warnings,
  };
}

/**
 * Adds the version to a detection: runs the kubelet's binary (`/proc/PID/exe --version`, cached per
 * binary). A binary that cannot be run is a warning; an answer that is not a Kubernetes version is
 * an error (pass --kubelet-version).
 */
export function detectKubeletVersion(d: Detection, opts: { proc?: string; cacheDir?: string } = {}): Detection {
  const k = d.kubelet;
  if (!k || k.version !== undefined || k.info.versionOutput !== undefined) return d;
  const exe = k.info.exe.replace(/ \(deleted\)$/, '');
  const r = kubeletBinaryVersion(`${opts.proc ?? '/proc'}/${k.info.pid}/exe`, exe, opts.cacheDir ?? DEFAULT_CACHE_DIR);
  if (!r.ok)
    return {
      ...d,
      warnings: [...d.warnings, `could not run ${exe} --version: ${r.why}; planning with the default kubelet version`],
    };
  const version = parseKubeletVersionOutput(r.output);
  if (!version) {
    throw new SyncpodError(
      `kubelet ${exe} --version: "${r.output.split('\n')[0].slice(0, 80)}" is not a Kubernetes version; give one with --kubelet-version`,
    );
  }
  return { ...d, kubelet: { ...k, version, info: { ...k.info, versionOutput: r.output } } };
}
