// doctor checks of the kubelet group.
import type { DoctorCheck } from '../types';

export const kubeletChecks: DoctorCheck[] = [];
