// doctor checks of the network group.
import type { DoctorCheck } from '../types';

export const networkChecks: DoctorCheck[] = [];
