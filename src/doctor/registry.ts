// Every doctor check, in the order the report lists them (group by group).
import type { DoctorCheck } from './types';
import { runtimeChecks } from './checks/runtime';
import { kubeletChecks } from './checks/kubelet';
import { networkChecks } from './checks/network';
import { resourcesChecks } from './checks/resources';
import { podsChecks } from './checks/pods';
import { dnsChecks } from './checks/dns';
import { upgradeChecks } from './checks/upgrade';

export const DOCTOR_CHECKS: readonly DoctorCheck[] = [
  ...runtimeChecks,
  ...kubeletChecks,
  ...networkChecks,
  ...resourcesChecks,
  ...podsChecks,
  ...dnsChecks,
  ...upgradeChecks,
];
