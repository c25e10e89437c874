// What `node sync` reports (the data its views render): per pod, the preflight work and the steps
// as executed; for the node, unchanged pods, orphans removed or kept, problems.
import type { PreflightStep } from '../plan/preflight';
import type { OrphanRemoval } from './remove-orphan';
import type { StepResult } from './types';

/** A preflight step as it was executed. */
export interface PreflightResult {
  action: PreflightStep['action'];
  target: string;
  ok: boolean;
  message: string;
}

export interface PodSyncReport {
  pod: { namespace: string; name: string; uid: string };
  ok: boolean;
  /** '' when the sync ran to its end; else why it stopped or was refused. */
  stopped: string;
  preflight: PreflightResult[];
  results: StepResult[];
}

export interface NodeSyncReport {
  node: string;
  ok: boolean;
  pods: PodSyncReport[];
  /** Pods left alone: nothing to change. */
  unchanged: number;
  orphans: OrphanRemoval[];
  /** Orphans found and left (no --remove-orphans). */
  orphansKept: number;
  problems: string[];
}
