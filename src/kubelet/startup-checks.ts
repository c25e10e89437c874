// Would the target kubelet start on this node? The node's facts (the running kubelet's command line
// and merged KubeletConfiguration, /sys/fs/cgroup, /proc/swaps, the runtime's answers) against the
// start-up preconditions of the target minor (startup-rules.ts, startup-gates.ts). Each failed
// precondition is a finding: a blocker (the target kubelet exits) or a warning (it starts and says
// so), with its evidence, what the target kubelet does and what to change. Pure.

import {
  CGROUP_DRIVER_FROM_CRI,
  CGROUP_V1,
  CONFIG_RULES,
  CONTAINERD_1_LAST_MINOR,
  CRI_API,
  DEPRECATED_FLAGS,
  REMOVED_FLAGS,
  SWAP,
  type ConfigRuleId,
} from './startup-rules';
import { STARTUP_GATES } from './startup-gates';

export type StartupRule =
  | 'cgroup-v1'
  | 'runtime-config'
  | 'runtime-version'
  | 'cri-api'
  | 'swap'
  | 'flag-removed'
  | 'flag-deprecated'
  | 'gate-locked'
  | 'gate-removed'
  | 'gate-deprecated'
  | 'config-validation';

export interface StartupEvidence {
  name: string;
  value: string;
  /** Where it was read: "kubelet pid 812 command line", "/var/lib/kubelet/config.yaml:12", "CRI Version on unix:///…". */
  from: string;
}

export interface StartupFinding {
  rule: StartupRule;
  severity: 'blocker' | 'warning';
  /** One sentence: what is wrong for the target. */
  summary: string;
  /** What the target kubelet does: "refuses to start: …" or "starts and …". */
  kubelet: string;
  /** What to change before upgrading. */
  change: string;
  evidence: StartupEvidence[];
  /** The release file the precondition was read from. */
  readFrom: string;
}

/** A config file as the kubelet read it, for line evidence. */
export interface ConfigFileText {
  path: string;
  text: string;
}

export interface StartupFacts {
  /** The running kubelet; absent when none was found (its defaults are assumed). */
  kubelet?: {
    pid: number;
    args: string[];
    /** The --config file, then drop-ins, in merge order. */
    configFiles: ConfigFileText[];
    /** The merged KubeletConfiguration (no defaults applied). */
    config: Record<string, unknown>;
  };
  /** The cgroup version of the host and where it was read. */
  cgroup: { version: 1 | 2; from: string };
  /** Active swap devices (/proc/swaps); undefined when it could not be read. */
  swaps?: Array<{ name: string; sizeKiB: number }>;
  /** The runtime's Version answer; undefined when it did not answer. */
  runtime?: { name: string; version: string; apiVersion: string; criApi: string; endpoint: string };
  /** The runtime's RuntimeConfig answer. */
  runtimeConfig?: { answered: true; cgroupDriver: string } | { answered: false; why: string };
}

export interface StartupVerdict {
  /** The target, e.g. "1.37". */
  target: string;
  /** False when any blocker: the target kubelet would exit at start. */
  starts: boolean;
  blockers: StartupFinding[];
  warnings: StartupFinding[];
  /** One line: "kubelet 1.37 would not start on this node: 2 blockers (cgroup-v1, flag-removed); 1 warning." */
  summary: string;
  /** Facts that could not be read, so their checks said nothing: 'runtime' (no Version answer), 'swap' (/proc/swaps). */
  unread: Array<'runtime' | 'swap'>;
}

// --- reading the facts -----------------------------------------------------------------------------

interface FlagOnCommandLine {
  name: string;
  value: string | undefined;
  /** As written. */
  text: string;
}

/** The flags of a kubelet command line, as pflag reads names (`_` and `-` equal). */
export function commandLineFlags(args: readonly string[]): FlagOnCommandLine[] {
  const out: FlagOnCommandLine[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (!a.startsWith('-') || a === '-') continue;
    const body = a.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = (eq >= 0 ? body.slice(0, eq) : body).replace(/_/g, '-');
    let value = eq >= 0 ? body.slice(eq + 1) : undefined;
    let text = a;
    // A following word that is not a flag is this flag's value (bool flags take none, but reading
    // one too many words only hides a positional argument, which the kubelet has none of).
    if (value === undefined && i + 1 < args.length && !args[i + 1]!.startsWith('-')) {
      value = args[++i];
      text = `${a} ${value}`;
    }
    out.push({ name, value, text });
  }
  return out;
}

/** `A=true,B=false` of --feature-gates; malformed parts are skipped (the current kubelet runs with them). */
function gateList(text: string): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const part of text.split(',')) {
    const [k, v] = part.split('=').map((s) => s.trim());
    if (!k || v === undefined) continue;
    const b = /^(1|t|true)$/i.test(v) ? true : /^(0|f|false)$/i.test(v) ? false : undefined;
    if (b !== undefined) out[k] = b;
  }
  return out;
}

/** The `path:line` of the last config file (in merge order) whose text sets `key` (under `parent:` when given). */
export function configLine(files: readonly ConfigFileText[], key: string, parent?: string): string | undefined {
  const esc = (t: string): string => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const keyAt = (t: string): RegExp => new RegExp(`(^|[\\s{,])["']?${esc(t)}["']?\\s*:`);
  const indentOf = (line: string): number => /^\s*/.exec(line)![0].length;
  for (let f = files.length - 1; f >= 0; f--) {
    const lines = files[f]!.text.split('\n');
    const at = (i: number): string => `${files[f]!.path}:${i + 1}`;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (parent === undefined) {
        if (indentOf(line) <= 2 && new RegExp(`^\\s*["']?${esc(key)}["']?\\s*:`).test(line)) return at(i);
        continue;
      }
      const p = new RegExp(`^\\s*["']?${esc(parent)}["']?\\s*:(.*)$`).exec(line);
      if (!p) continue;
      if (keyAt(key).test(p[1]!)) return at(i);
      const parentIndent = indentOf(line);
      for (let j = i + 1; j < lines.length; j++) {
        const l = lines[j]!;
        if (l.trim() === '' || l.trim().startsWith('#')) continue;
        if (indentOf(l) <= parentIndent) break;
        if (keyAt(key).test(l)) return at(j);
      }
    }
  }
  return undefined;
}

const minorOf = (v: string): number => Number(/^v?1\.(\d+)/.exec(v)?.[1] ?? Number.NaN);

function gateSpecAt(
  gate: string,
  minor: number,
): { known: boolean; default?: boolean; stage?: string; locked?: boolean; row?: (typeof STARTUP_GATES)[string] } {
  const row = STARTUP_GATES[gate];
  if (!row) return { known: true };
  if (minor < row.known[0] || minor > row.known[1]) return { known: false, row };
  let spec: string | undefined;
  for (const s of row.specs) if (Number(s.split(':')[0]) <= minor) spec = s;
  if (!spec) return { known: true, row };
  const [, d, stage, locked] = spec.split(':');
  return { known: true, default: d === 'on', stage, locked: locked === 'locked', row };
}

// --- the checks ------------------------------------------------------------------------------------

interface Ctx {
  facts: StartupFacts;
  target: number;
  targetText: string;
  flags: FlagOnCommandLine[];
  where: string;
  cfg: Record<string, unknown>;
  files: ConfigFileText[];
  /** Where an unset field would have been: the config files, or that there are none. */
  configWhere: string;
  /** Effective gates of the node's configuration: config featureGates, then --feature-gates. */
  gates: Record<string, { value: boolean; from: string }>;
}

function configEvidence(c: Ctx, field: string, value: unknown, parent?: string): StartupEvidence {
  return {
    name: parent ? `${parent}.${field}` : field,
    value: typeof value === 'string' ? value : JSON.stringify(value),
    from: configLine(c.files, field, parent) ?? (c.files.map((f) => f.path).join(' + ') || 'kubelet config'),
  };
}

/** A setting read from the command line (the last flag wins) or else the merged config. */
function setting(c: Ctx, flag: string, field: string): { value: unknown; evidence: StartupEvidence } | undefined {
  const f = [...c.flags].reverse().find((x) => x.name === flag);
  if (f) {
    const value =
      f.value === undefined
        ? true
        : /^(1|t|true)$/i.test(f.value)
          ? true
          : /^(0|f|false)$/i.test(f.value)
            ? false
            : f.value;
    return { value, evidence: { name: `--${flag}`, value: f.value ?? 'true', from: `${c.where} command line` } };
  }
  if (c.cfg[field] !== undefined && c.cfg[field] !== null)
    return { value: c.cfg[field], evidence: configEvidence(c, field, c.cfg[field]) };
  return undefined;
}

function cgroupV1(c: Ctx): StartupFinding[] {
  if (c.facts.cgroup.version !== 1 || c.target < CGROUP_V1.since) return [];
  const host: StartupEvidence = { name: 'cgroup version', value: 'v1', from: c.facts.cgroup.from };
  const s = setting(c, 'fail-cgroupv1', 'failCgroupV1');
  const fail = s ? s.value === true : c.target >= CGROUP_V1.defaultTrueFrom;
  const ev = s
    ? s.evidence
    : { name: 'failCgroupV1', value: `unset (kubelet ${c.targetText} defaults it to ${fail})`, from: c.configWhere };
  if (fail) {
    return [
      {
        rule: 'cgroup-v1',
        severity: 'blocker',
        summary: `The host uses cgroup v1 and failCgroupV1 is ${s ? 'true' : `true by default from 1.${CGROUP_V1.defaultTrueFrom}`}.`,
        kubelet: `refuses to start: "${CGROUP_V1.message}" (its configuration fails validation)`,
        change:
          'move the host to cgroup v2 (systemd.unified_cgroup_hierarchy=1 on the kernel command line, then reboot); or, to keep cgroup v1 for now, set failCgroupV1: false in the KubeletConfiguration',
        evidence: [host, ev],
        readFrom: CGROUP_V1.from,
      },
    ];
  }
  return [
    {
      rule: 'cgroup-v1',
      severity: 'warning',
      summary: 'The host uses cgroup v1, which the target kubelet runs on only because failCgroupV1 is false.',
      kubelet: 'starts and warns that cgroup v1 support is deprecated (KEP-5573)',
      change: 'plan the move to cgroup v2 before a release removes cgroup v1 support',
      evidence: [host, ev],
      readFrom: CGROUP_V1.from,
    },
  ];
}

function runtimeChecks(c: Ctx): StartupFinding[] {
  const out: StartupFinding[] = [];
  const rt = c.facts.runtime;
  if (rt) {
    const rtEv: StartupEvidence = {
      name: 'runtime',
      value: `${rt.name} ${rt.version} (CRI ${rt.criApi}, version ${rt.apiVersion})`,
      from: `CRI Version on ${rt.endpoint}`,
    };
    if (rt.criApi !== 'v1' || rt.apiVersion !== '0.1.0') {
      out.push({
        rule: 'cri-api',
        severity: 'blocker',
        summary: `The runtime does not serve CRI runtime.v1 version 0.1.0 (it answered ${rt.criApi} ${rt.apiVersion}).`,
        kubelet: 'refuses to start: the runtime API version is not supported',
        change: 'upgrade the runtime to one that serves runtime.v1 (containerd 1.7+/2.x, CRI-O 1.26+)',
        evidence: [rtEv],
        readFrom: CRI_API.from,
      });
    }
    const ctd = /^v?(\d+)\./.exec(rt.version);
    if (rt.name === 'containerd' && ctd && Number(ctd[1]) < 2 && c.target > CONTAINERD_1_LAST_MINOR) {
      out.push({
        rule: 'runtime-version',
        severity: 'warning',
        summary: `containerd ${rt.version} is a 1.x release; ${CONTAINERD_1_LAST_MINOR === 35 ? '1.35' : CONTAINERD_1_LAST_MINOR} was the last Kubernetes minor that supports containerd 1.x.`,
        kubelet: 'starts (no kubelet code refuses containerd 1.x), on a runtime it no longer supports',
        change: 'move the node to containerd 2.x',
        evidence: [rtEv],
        readFrom: 'kubernetes 1.35 release notes (containerd 1.x support ends with 1.35)',
      });
    }
  }
  const rc = c.facts.runtimeConfig;
  const gate = c.gates.KubeletCgroupDriverFromCRI;
  const gateOn = gate ? gate.value || c.target >= 34 : c.target >= CGROUP_DRIVER_FROM_CRI.gateOnFrom;
  if (rc && gateOn) {
    const from = `CRI RuntimeConfig on ${rt?.endpoint ?? 'the runtime'}`;
    const driver = setting(c, 'cgroup-driver', 'cgroupDriver');
    const kubeletDriver = typeof driver?.value === 'string' ? driver.value : 'cgroupfs';
    const driverEv = driver?.evidence ?? { name: 'cgroupDriver', value: 'cgroupfs (default)', from: c.configWhere };
    if (!rc.answered) {
      const losing = CGROUP_DRIVER_FROM_CRI.losingSupport[c.target];
      out.push({
        rule: 'runtime-config',
        severity: 'warning',
        summary: `The runtime does not answer RuntimeConfig (${rc.why}), so the target kubelet cannot take the cgroup driver from it.`,
        kubelet: `starts with its own cgroupDriver ${kubeletDriver} (fallback)${losing ? ` and counts kubelet_cri_losing_support{version="${losing}"}: the fallback goes in ${losing}` : ''}`,
        change:
          'upgrade the runtime to one that implements RuntimeConfig (containerd 2.0+, CRI-O 1.28+) before the release that drops the fallback',
        evidence: [{ name: 'RuntimeConfig', value: rc.why, from }, driverEv],
        readFrom: CGROUP_DRIVER_FROM_CRI.from,
      });
    } else if (rc.cgroupDriver !== kubeletDriver) {
      out.push({
        rule: 'runtime-config',
        severity: 'warning',
        summary: `The runtime's cgroup driver (${rc.cgroupDriver}) differs from the kubelet's cgroupDriver (${kubeletDriver}).`,
        kubelet: `starts with the runtime's driver ${rc.cgroupDriver}, ignoring its own`,
        change: `set cgroupDriver: ${rc.cgroupDriver} in the KubeletConfiguration so that the configuration says what runs`,
        evidence: [{ name: 'cgroupDriver', value: rc.cgroupDriver, from }, driverEv],
        readFrom: CGROUP_DRIVER_FROM_CRI.from,
      });
    }
  }
  return out;
}

function swap(c: Ctx): StartupFinding[] {
  const out: StartupFinding[] = [];
  const swaps = c.facts.swaps;
  if (swaps && swaps.length > 0) {
    const s = setting(c, 'fail-swap-on', 'failSwapOn');
    const fail = s ? s.value !== false : true;
    if (fail) {
      out.push({
        rule: 'swap',
        severity: 'blocker',
        summary: `Swap is on (${swaps.map((x) => x.name).join(', ')}) and failSwapOn is ${s ? 'true' : 'true by default'}.`,
        kubelet: 'refuses to start: "running with swap on is not supported"',
        change: 'swapoff -a and remove swap from /etc/fstab, or set failSwapOn: false (and memorySwap.swapBehavior)',
        evidence: [
          { name: 'swap', value: swaps.map((x) => `${x.name} ${x.sizeKiB} KiB`).join(', '), from: '/proc/swaps' },
          s?.evidence ?? { name: 'failSwapOn', value: 'unset (default true)', from: c.configWhere },
        ],
        readFrom: SWAP.from,
      });
    }
  }
  const ms = c.cfg.memorySwap;
  const behavior = ms && typeof ms === 'object' ? (ms as Record<string, unknown>).swapBehavior : undefined;
  if (typeof behavior === 'string') {
    const allowed: readonly string[] = c.target >= 30 ? SWAP.behaviorsFrom30 : SWAP.behaviors29;
    const nodeSwap = c.gates.NodeSwap?.value ?? gateSpecAt('NodeSwap', c.target).default ?? c.target >= 30;
    const ev = configEvidence(c, 'swapBehavior', behavior, 'memorySwap');
    if (!allowed.includes(behavior)) {
      out.push({
        rule: 'swap',
        severity: 'blocker',
        summary: `memorySwap.swapBehavior "${behavior}" is not one the target accepts (${allowed.filter(Boolean).join(', ')}).`,
        kubelet: 'refuses to start: its configuration fails validation',
        change: `set memorySwap.swapBehavior to ${allowed.filter(Boolean).join(' or ')}`,
        evidence: [ev],
        readFrom: SWAP.behaviorFrom,
      });
    } else if (!nodeSwap && behavior !== '') {
      out.push({
        rule: 'swap',
        severity: 'blocker',
        summary: 'memorySwap is set while the NodeSwap feature gate is off.',
        kubelet: 'refuses to start: "memorySwap.swapBehavior cannot be set when NodeSwap feature flag is disabled"',
        change: 'remove memorySwap or turn NodeSwap on',
        evidence: [
          ev,
          ...(c.gates.NodeSwap ? [{ name: 'NodeSwap', value: 'false', from: c.gates.NodeSwap.from }] : []),
        ],
        readFrom: SWAP.behaviorFrom,
      });
    }
  }
  return out;
}

function flagChecks(c: Ctx): StartupFinding[] {
  const out: StartupFinding[] = [];
  for (const f of c.flags) {
    const removed = REMOVED_FLAGS.find((r) => r.flag === f.name);
    const ev = { name: `--${f.name}`, value: f.value ?? 'true', from: `${c.where} command line: ${f.text}` };
    if (removed && removed.lastIn < c.target) {
      out.push({
        rule: 'flag-removed',
        severity: 'blocker',
        summary: `--${f.name} is not a flag of kubelet ${c.targetText} (the last minor that has it is 1.${removed.lastIn}).`,
        kubelet: `refuses to start: "unknown flag: --${f.name}"`,
        change: removed.change,
        evidence: [ev],
        readFrom: removed.from,
      });
      continue;
    }
    const dep = DEPRECATED_FLAGS.find((d) => d.flag === f.name);
    if (dep) {
      out.push({
        rule: 'flag-deprecated',
        severity: 'warning',
        summary: `--${f.name} is deprecated.`,
        kubelet: 'starts and warns that the flag is deprecated',
        change: dep.change,
        evidence: [ev],
        readFrom: dep.from,
      });
    }
  }
  return out;
}

function gateChecks(c: Ctx): StartupFinding[] {
  const out: StartupFinding[] = [];
  for (const [gate, set] of Object.entries(c.gates).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const spec = gateSpecAt(gate, c.target);
    const ev = { name: `featureGates.${gate}`, value: String(set.value), from: set.from };
    if (!spec.known) {
      const row = spec.row!;
      out.push({
        rule: 'gate-removed',
        severity: 'blocker',
        summary: `The feature gate ${gate} is not known to kubelet ${c.targetText} (known in 1.${row.known[0]}–1.${row.known[1]}).`,
        kubelet: `refuses to start: "unrecognized feature gate: ${gate}"`,
        change: `remove ${gate} from featureGates (and --feature-gates)`,
        evidence: [ev],
        readFrom: row.from,
      });
    } else if (spec.locked && spec.default !== set.value) {
      out.push({
        rule: 'gate-locked',
        severity: 'blocker',
        summary: `The feature gate ${gate} is set to ${set.value}, but kubelet ${c.targetText} locks it to ${spec.default} (${spec.stage}).`,
        kubelet: `refuses to start: "cannot set feature gate ${gate} to ${set.value}, feature is locked to ${spec.default}"`,
        change: `remove ${gate} from featureGates (it is ${spec.default ? 'always on' : 'always off'} in ${c.targetText})`,
        evidence: [ev],
        readFrom: spec.row!.from,
      });
    } else if (spec.stage === 'deprecated' || (spec.stage === 'ga' && spec.locked)) {
      out.push({
        rule: 'gate-deprecated',
        severity: 'warning',
        summary: `The feature gate ${gate} is ${spec.stage === 'ga' ? 'GA and locked' : 'deprecated'} in ${c.targetText}; setting it will stop working when it is removed.`,
        kubelet: `starts and warns about setting a ${spec.stage === 'ga' ? 'GA' : 'deprecated'} feature gate`,
        change: `remove ${gate} from featureGates`,
        evidence: [ev],
        readFrom: spec.row!.from,
      });
    }
  }
  return out;
}

const asNumber = (v: unknown): number | undefined =>
  typeof v === 'number'
    ? v
    : typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))
      ? Number(v)
      : undefined;

function configRule(
  c: Ctx,
  id: ConfigRuleId,
): { summary: string; change: string; value: unknown; parent?: string } | undefined {
  const cfg = c.cfg;
  switch (id) {
    case 'enforceNodeAllocatable-duplicates': {
      const v = cfg.enforceNodeAllocatable;
      if (!Array.isArray(v)) return undefined;
      const dup = v.find((x, i) => v.indexOf(x) !== i);
      return dup === undefined
        ? undefined
        : { summary: `enforceNodeAllocatable lists "${dup}" twice.`, change: 'list each enforcement once', value: v };
    }
    case 'runOnce':
      return cfg.runOnce === true
        ? { summary: 'runOnce is true.', change: 'remove runOnce (run-once mode is gone)', value: true }
        : undefined;
    case 'singleProcessOOMKill-v1':
      return cfg.singleProcessOOMKill === false && c.facts.cgroup.version === 1
        ? {
            summary: 'singleProcessOOMKill is false on a cgroup v1 host.',
            change: 'remove singleProcessOOMKill (cgroup v1 kills single processes anyway)',
            value: false,
          }
        : undefined;
    case 'containerLogMaxFiles': {
      const n = asNumber(cfg.containerLogMaxFiles);
      return n !== undefined && n <= 1
        ? {
            summary: `containerLogMaxFiles is ${n}; it must be greater than 1.`,
            change: 'set containerLogMaxFiles to 2 or more (default 5)',
            value: n,
          }
        : undefined;
    }
    case 'imageMinimumGCAge-negative': {
      const v = cfg.imageMinimumGCAge;
      return typeof v === 'string' && v.trim().startsWith('-')
        ? {
            summary: `imageMinimumGCAge ${v} is negative.`,
            change: 'set imageMinimumGCAge to a positive duration (default 2m)',
            value: v,
          }
        : undefined;
    }
    case 'memoryThrottlingFactor-without-MemoryQoS': {
      const n = asNumber(cfg.memoryThrottlingFactor);
      const qos = c.gates.MemoryQoS?.value ?? c.target >= 37;
      return n !== undefined && n !== 0.9 && !qos
        ? {
            summary: `memoryThrottlingFactor is ${n} while the MemoryQoS feature gate is off.`,
            change: 'remove memoryThrottlingFactor, or turn MemoryQoS on',
            value: n,
          }
        : undefined;
    }
  }
}

function configChecks(c: Ctx): StartupFinding[] {
  const out: StartupFinding[] = [];
  for (const r of CONFIG_RULES) {
    if (c.target < r.since) continue;
    const hit = configRule(c, r.id);
    if (!hit) continue;
    out.push({
      rule: 'config-validation',
      severity: 'blocker',
      summary: hit.summary,
      kubelet: `refuses to start: its configuration fails the validation added in 1.${r.since}`,
      change: hit.change,
      evidence: [configEvidence(c, r.field, hit.value)],
      readFrom: r.from,
    });
  }
  return out;
}

/** The target kubelet's start-up preconditions this node fails, in a fixed order. */
export function startupVerdict(facts: StartupFacts, targetVersion: string): StartupVerdict {
  const target = minorOf(targetVersion);
  const targetText = `1.${target}`;
  const k = facts.kubelet;
  const where = k ? `kubelet pid ${k.pid}` : 'kubelet';
  const flags = commandLineFlags(k?.args ?? []);
  const cfg = k?.config ?? {};
  const files = k?.configFiles ?? [];
  const gates: Ctx['gates'] = {};
  const fg = cfg.featureGates;
  if (fg && typeof fg === 'object' && !Array.isArray(fg)) {
    for (const [g, v] of Object.entries(fg as Record<string, unknown>)) {
      if (typeof v === 'boolean')
        gates[g] = { value: v, from: configLine(files, g, 'featureGates') ?? files.map((f) => f.path).join(' + ') };
    }
  }
  for (const f of flags) {
    if (f.name !== 'feature-gates' || f.value === undefined) continue;
    for (const [g, v] of Object.entries(gateList(f.value)))
      gates[g] = { value: v, from: `${where} command line: ${f.text}` };
  }
  const configWhere = k ? files.map((f) => f.path).join(' + ') || `${where}: no config file` : 'no kubelet found';
  const c: Ctx = { facts, target, targetText, flags, where, cfg, files, gates, configWhere };
  const all = [...cgroupV1(c), ...runtimeChecks(c), ...swap(c), ...flagChecks(c), ...gateChecks(c), ...configChecks(c)];
  const blockers = all.filter((f) => f.severity === 'blocker');
  const warnings = all.filter((f) => f.severity === 'warning');
  const n = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;
  const rules = (fs: StartupFinding[]): string => [...new Set(fs.map((f) => f.rule))].join(', ');
  const summary =
    blockers.length > 0
      ? `kubelet ${targetText} would not start on this node: ${n(blockers.length, 'blocker')} (${rules(blockers)})${warnings.length ? `; ${n(warnings.length, 'warning')} (${rules(warnings)})` : ''}.`
      : `kubelet ${targetText} would start on this node${warnings.length ? `, with ${n(warnings.length, 'warning')} (${rules(warnings)})` : ''}.`;
  const unread: StartupVerdict['unread'] = [
    ...(facts.runtime ? [] : (['runtime'] as const)),
    ...(facts.swaps ? [] : (['swap'] as const)),
  ];
  return { target: targetText, starts: blockers.length === 0, blockers, warnings, summary, unread };
}
