// The fleet report: node plans (`plan --node -o json`, one per node and run) as the DaemonSet's
// containers log them, merged into one view per node. Pure: text in, data out.
//
// Input lines as `kubectl logs -l app=syncpod --prefix [--timestamps]` prints them:
//   [pod/syncpod-7xk2p/syncpod] 2026-11-22T10:00:00.000000000Z {"schemaVersion":1,"node":"n1",...}
// The prefix and the timestamp are optional (a node's own output can be fed as it is). A plan may
// span several lines (pretty JSON): the lines of one prefix are joined until the document closes.
// Per source, `syncpod: …` lines are errors (unless the plan lists them as input problems), `WARN: …`
// lines warnings, `note: …` and `DEBUG: …` lines are skipped; the newest plan per node
// wins; a source that never produced a plan is reported under its prefix as a node with errors.
// Doctor reports (`doctor -o json`, {schemaVersion, node, checks, summary}) in the same logs, from
// the same container or a second one, are merged beside the plans by node name, the newest winning.
import { SyncpodError } from '../errors';

export const FLEET_REPORT_SCHEMA_VERSION = 1;

/** The fields of a node plan the report reads (src/plan/node-plan.ts NodePlan). */
interface NodePlanDoc {
  node: string;
  /** When the plan read the runtime (absent in plans of older syncpods). */
  observedAt?: string;
  plans: Array<{
    pod: { namespace: string; name: string };
    changes: boolean;
    preflight?: { steps?: unknown[]; blocked?: unknown };
    /** The orphan a changed static pod replaces: part of that pod's change, not an orphan of its own. */
    replaces?: { uid: string } | null;
  }>;
  orphans: Array<{ namespace: string; name: string; uid: string; kubelet?: string }>;
  problems: string[];
  summary: {
    pods: number;
    podsWithChanges: number;
    podsBlocked?: number;
    orphans: number;
    problems: number;
    changes: boolean;
    text: string;
  };
}

/** The fields of a doctor report the fleet report reads (src/doctor/report.ts DoctorReport). */
interface DoctorDoc {
  node: string;
  /** When the checks ran (absent in reports of older syncpods). */
  observedAt?: string;
  checks: Array<{ id: string; status: string; summary: string }>;
  summary: { status: string; ok: number; warn: number; fail: number; skip: number; text: string };
}

/** A node's newest doctor report, in short. */
export interface FleetDoctor {
  /** The worst status: ok, warn or fail. */
  status: string;
  ok: number;
  warn: number;
  fail: number;
  skip: number;
  /** "fail runtime.network-ready: NetworkReady is false…", one per check that fails or warns (fails first). */
  findings: string[];
  /** When the report was made: the --timestamps time, else the report's own observedAt. */
  at: string | null;
  /** How many doctor reports this node logged. */
  runs: number;
}

export interface FleetNode {
  node: string;
  /** The log prefix (pod/NAME/CONTAINER) or file the newest plan came from. */
  source: string;
  /** When the newest plan was made: the --timestamps time, else the plan's own observedAt. */
  at: string | null;
  /** How many plans this node logged (one per run). */
  runs: number;
  pods: number;
  podsWithChanges: number;
  podsBlocked: number;
  /** namespace/name of every pod whose plan or preflight has work. */
  pendingPods: string[];
  /** Orphans to remove, apart from the ones a changed static pod replaces (those count in podsWithChanges). */
  orphans: number;
  /** namespace/name (uid) of every such orphan. */
  orphanPods: string[];
  problems: string[];
  errors: string[];
  warnings: string[];
  changes: boolean;
  /** The node's newest doctor report; null when it logged none. */
  doctor: FleetDoctor | null;
}

export interface FleetReport {
  schemaVersion: number;
  nodes: FleetNode[];
  summary: {
    nodes: number;
    /** Nodes with something to do: a pod that would change or an orphan to remove. */
    nodesWithChanges: number;
    /** Nodes where a pod would change. */
    nodesWithPodChanges: number;
    /** Nodes with an orphan to remove. */
    nodesWithOrphans: number;
    nodesWithErrors: number;
    pods: number;
    podsWithChanges: number;
    orphans: number;
    /** Nodes whose newest doctor report has a check that fails or warns. */
    nodesWithDoctorFindings: number;
    text: string;
  };
}

export interface FleetInput {
  /** File name, or `<stdin>`. */
  name: string;
  text: string;
}

const PREFIX = /^\[([^\]]+)\]\s?(.*)$/;
const TIMESTAMP = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d))\s(.*)$/;

interface Source {
  name: string;
  buffer: string;
  bufferAt: string | null;
  depth: number;
  inString: boolean;
  escaped: boolean;
  plans: Array<{ doc: NodePlanDoc; at: string | null }>;
  doctors: Array<{ doc: DoctorDoc; at: string | null }>;
  errors: string[];
  warnings: string[];
}

/** Feeds `text` to the brace counter of a source; true when the document closed. */
function scan(s: Source, text: string): boolean {
  for (const ch of text) {
    if (s.inString) {
      if (s.escaped) s.escaped = false;
      else if (ch === '\\') s.escaped = true;
      else if (ch === '"') s.inString = false;
    } else if (ch === '"') s.inString = true;
    else if (ch === '{' || ch === '[') s.depth++;
    else if (ch === '}' || ch === ']') s.depth--;
  }
  return s.depth === 0;
}

function isNodePlan(v: unknown): v is NodePlanDoc {
  const o = v as Partial<NodePlanDoc> | null;
  return (
    typeof o === 'object' &&
    o !== null &&
    typeof o.node === 'string' &&
    Array.isArray(o.plans) &&
    Array.isArray(o.orphans) &&
    Array.isArray(o.problems) &&
    typeof o.summary === 'object' &&
    o.summary !== null
  );
}

function isDoctorReport(v: unknown): v is DoctorDoc {
  const o = v as Partial<DoctorDoc> | null;
  return (
    typeof o === 'object' &&
    o !== null &&
    typeof o.node === 'string' &&
    Array.isArray(o.checks) &&
    typeof o.summary === 'object' &&
    o.summary !== null
  );
}

function closeDocument(s: Source): void {
  const text = s.buffer;
  s.buffer = '';
  s.depth = 0;
  s.inString = false;
  s.escaped = false;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    s.errors.push(`unreadable JSON from ${s.name}: ${(err as Error).message}`);
    return;
  }
  if (isNodePlan(v)) s.plans.push({ doc: v, at: s.bufferAt });
  else if (isDoctorReport(v)) s.doctors.push({ doc: v, at: s.bufferAt });
  else
    s.errors.push(`JSON from ${s.name} is not a node plan (plan --node -o json) or a doctor report (doctor -o json)`);
}

/** Splits every input into per-source streams and reads the node plans and the error lines. */
function readSources(inputs: FleetInput[]): Source[] {
  const sources = new Map<string, Source>();
  for (const input of inputs) {
    for (const raw of input.text.split('\n')) {
      const line = raw.replace(/\r$/, '');
      const m = PREFIX.exec(line);
      const name = m ? m[1]! : input.name;
      let rest = m ? m[2]! : line;
      let at: string | null = null;
      const t = TIMESTAMP.exec(rest);
      if (t) {
        at = t[1]!;
        rest = t[2]!;
      }
      let s = sources.get(name);
      if (!s) {
        s = {
          name,
          buffer: '',
          bufferAt: null,
          depth: 0,
          inString: false,
          escaped: false,
          plans: [],
          doctors: [],
          errors: [],
          warnings: [],
        };
        sources.set(name, s);
      }
      if (s.buffer !== '') {
        s.buffer += `\n${rest}`;
        if (scan(s, rest)) closeDocument(s);
        continue;
      }
      const trimmed = rest.trim();
      if (trimmed === '') continue;
      if (trimmed.startsWith('{')) {
        s.buffer = rest;
        s.bufferAt = at;
        if (scan(s, rest)) closeDocument(s);
      } else if (trimmed.startsWith('syncpod: ')) s.errors.push(trimmed.slice('syncpod: '.length));
      else if (trimmed.startsWith('WARN: ')) s.warnings.push(trimmed.slice('WARN: '.length));
      else if (!trimmed.startsWith('DEBUG: ') && !trimmed.startsWith('note: '))
        s.errors.push(`unrecognised line: ${trimmed.slice(0, 200)}`);
    }
  }
  for (const s of sources.values()) {
    if (s.buffer !== '') s.errors.push(`a plan from ${s.name} is cut off (the log ended inside it)`);
  }
  return [...sources.values()].filter(
    (s) => s.plans.length > 0 || s.doctors.length > 0 || s.errors.length > 0 || s.warnings.length > 0,
  );
}

const podRef = (p: { namespace: string; name: string }): string => `${p.namespace}/${p.name}`;

function nodeFrom(s: Source): FleetNode {
  const newest = s.plans.at(-1);
  if (!newest) {
    return {
      node: s.name,
      source: s.name,
      at: null,
      runs: 0,
      pods: 0,
      podsWithChanges: 0,
      podsBlocked: 0,
      pendingPods: [],
      orphans: 0,
      orphanPods: [],
      problems: [],
      errors: s.errors,
      warnings: s.warnings,
      changes: false,
      doctor: null,
    };
  }
  const d = newest.doc;
  const pending = d.plans
    .filter((p) => p.changes || (p.preflight?.steps?.length ?? 0) > 0)
    .map((p) => (p.replaces ? `${podRef(p.pod)} (replaces uid ${p.replaces.uid})` : podRef(p.pod)));
  const replaced = new Set(d.plans.flatMap((p) => (p.replaces ? [p.replaces.uid] : [])));
  const orphans = d.orphans.filter((o) => !replaced.has(o.uid));
  return {
    node: d.node,
    source: s.name,
    at: newest.at ?? d.observedAt ?? null,
    runs: s.plans.length,
    pods: d.summary.pods,
    podsWithChanges: d.summary.podsWithChanges,
    podsBlocked: d.summary.podsBlocked ?? 0,
    pendingPods: pending.sort(),
    orphans: orphans.length,
    orphanPods: orphans.map((o) => `${podRef(o)} (${o.uid})`).sort(),
    problems: d.problems,
    // `plan --node` also prints each input problem on stderr: counted once, as a problem.
    errors: s.errors.filter((e) => !d.problems.includes(e)),
    warnings: s.warnings,
    changes: pending.length > 0 || orphans.length > 0,
    doctor: null,
  };
}

const RANK: Record<string, number> = { fail: 0, warn: 1 };

/** Every node's newest doctor report (by --timestamps time, else the last read), from all sources. */
function doctorsByNode(sources: Source[]): Map<string, FleetDoctor> {
  const out = new Map<string, FleetDoctor>();
  for (const s of sources) {
    for (const { doc, at: stamped } of s.doctors) {
      const at = stamped ?? doc.observedAt ?? null;
      const seen = out.get(doc.node);
      const runs = (seen?.runs ?? 0) + 1;
      if (seen && (seen.at ?? '') > (at ?? '')) {
        seen.runs = runs;
        continue;
      }
      const findings = doc.checks
        .filter((c) => c.status in RANK)
        .sort((a, b) => RANK[a.status] - RANK[b.status])
        .map((c) => `${c.status} ${c.id}: ${c.summary}`);
      const { status, ok, warn, fail, skip } = doc.summary;
      out.set(doc.node, { status, ok, warn, fail, skip, findings, at, runs });
    }
  }
  return out;
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

const EXPECTED = 'expected node plans (plan --node -o json), doctor reports (doctor -o json) or a log of them';

/** A log line without its `[prefix] ` and `--timestamps` time. */
function lineBody(raw: string): string {
  const m = PREFIX.exec(raw.replace(/\r$/, ''));
  const rest = m ? m[2]! : raw.replace(/\r$/, '');
  const t = TIMESTAMP.exec(rest);
  return (t ? t[2]! : rest).trim();
}

const KNOWN_LINE = /^(syncpod: |WARN: |DEBUG: |note: )/;

/** What a text that holds no JSON document looks like, for the refusal. */
function lookOf(lines: string[]): string {
  if (lines.some((l) => /^Node \S+: \d+ pods?: /.test(l) || /^Orphans: \d+ pods? /.test(l)))
    return 'a node plan as a table (plan --node without -o json)';
  if (lines.some((l) => /^Node \S+: .*\(\d+ checks?\)\.$/.test(l) || /^STATUS\s+CHECK\b/.test(l)))
    return 'a doctor report as a table (doctor without -o json)';
  if (lines.some((l) => /^(schemaVersion|node|plans|checks):( |$)/.test(l))) return 'YAML (-o yaml), not JSON';
  return `no JSON; its first line reads "${lines[0]!.slice(0, 60)}${lines[0]!.length > 60 ? '…' : ''}"`;
}

/**
 * Refuses, with one line naming the input and what was expected, before anything is merged:
 * one JSON value that is neither a node plan nor a doctor report (`[1,2,3]`, `{}`), and a text with
 * no JSON document at all whose lines are not syncpod's error/warning lines (a table-format plan or
 * doctor report, YAML). A log of several documents, with or without prefixes, is read line by line.
 */
export function checkFleetInput(input: FleetInput): void {
  const trimmed = input.text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[') || trimmed === 'null') {
    let v: unknown;
    try {
      v = JSON.parse(trimmed);
    } catch {
      v = undefined; // several documents, or a log with prefixes
    }
    if (v !== undefined) {
      if (isNodePlan(v) || isDoctorReport(v)) return;
      const found = Array.isArray(v)
        ? 'a JSON array'
        : v === null
          ? 'JSON null'
          : typeof v === 'object'
            ? `a JSON object without a node plan's or doctor report's fields${Object.keys(v).length === 0 ? ' (empty)' : ''}`
            : `a JSON ${typeof v}`;
      throw new SyncpodError(`${input.name}: ${found}; ${EXPECTED}`);
    }
  }
  const bodies = input.text
    .split('\n')
    .map(lineBody)
    .filter((l) => l !== '');
  if (bodies.some((l) => l.startsWith('{'))) return;
  const unknown = bodies.filter((l) => !KNOWN_LINE.test(l));
  if (unknown.length === 0) return; // only error/warning lines: a node that could not plan
  throw new SyncpodError(`${input.name}: ${lookOf(unknown)}; ${EXPECTED}`);
}

/** Merges the inputs into one report; nodes sorted by name (then source). */
export function buildFleetReport(inputs: FleetInput[]): FleetReport {
  for (const input of inputs) checkFleetInput(input);
  const byNode = new Map<string, FleetNode>();
  const sources = readSources(inputs);
  const doctors = doctorsByNode(sources);
  for (const s of sources) {
    // A source that logged only doctor reports is no node of its own: its reports name their node.
    if (s.plans.length === 0 && s.doctors.length > 0) {
      for (const node of new Set(s.doctors.map((d) => d.doc.node))) {
        const seen = byNode.get(node);
        if (seen) seen.errors.push(...s.errors);
        else byNode.set(node, { ...nodeFrom(s), node, runs: 0 });
      }
      continue;
    }
    const n = nodeFrom(s);
    const seen = byNode.get(n.node);
    // Two sources for one node (a restarted DaemonSet pod): the one with a plan, the newer stamp.
    if (!seen || (seen.runs === 0 && n.runs > 0) || (n.runs > 0 && (n.at ?? '') > (seen.at ?? ''))) {
      if (seen) n.errors = [...seen.errors, ...n.errors];
      byNode.set(n.node, n);
    } else if (seen) seen.errors.push(...n.errors);
  }
  for (const [node, d] of doctors) {
    const n = byNode.get(node);
    if (n) n.doctor = d;
  }
  const nodes = [...byNode.values()].sort((a, b) => (a.node < b.node ? -1 : a.node > b.node ? 1 : 0));
  const withFindings = nodes.filter((n) => n.doctor && n.doctor.findings.length > 0).length;
  const doctored = nodes.filter((n) => n.doctor).length;
  const withChanges = nodes.filter((n) => n.changes).length;
  const withPodChanges = nodes.filter((n) => n.podsWithChanges > 0).length;
  const withOrphans = nodes.filter((n) => n.orphans > 0).length;
  const withErrors = nodes.filter((n) => n.errors.length > 0 || n.problems.length > 0).length;
  const pods = nodes.reduce((t, n) => t + n.pods, 0);
  const podsWithChanges = nodes.reduce((t, n) => t + n.podsWithChanges, 0);
  const orphans = nodes.reduce((t, n) => t + n.orphans, 0);
  const onNodes = (n: number): string => (n > 0 ? ` on ${plural(n, 'node', 'nodes')}` : '');
  const text =
    nodes.length === 0
      ? 'Fleet: no node plans found.'
      : `Fleet: ${plural(nodes.length, 'node', 'nodes')}; ${podsWithChanges} of ${plural(pods, 'pod', 'pods')} would change${onNodes(withPodChanges)}` +
        `; ${plural(orphans, 'orphan', 'orphans')} to remove${onNodes(withOrphans)}` +
        `; ${withErrors} ${withErrors === 1 ? 'node' : 'nodes'} with errors` +
        (doctored
          ? `; ${withFindings} of ${doctored} doctored ${doctored === 1 ? 'node' : 'nodes'} with findings.`
          : '.');
  return {
    schemaVersion: FLEET_REPORT_SCHEMA_VERSION,
    nodes,
    summary: {
      nodes: nodes.length,
      nodesWithChanges: withChanges,
      nodesWithPodChanges: withPodChanges,
      nodesWithOrphans: withOrphans,
      nodesWithErrors: withErrors,
      pods,
      podsWithChanges,
      orphans,
      nodesWithDoctorFindings: withFindings,
      text,
    },
  };
}
