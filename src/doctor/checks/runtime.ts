// doctor checks of the runtime group.
import type { DoctorCheck } from '../types';

export const runtimeChecks: DoctorCheck[] = [];
