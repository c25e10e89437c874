// doctor checks of the pods group.
import type { DoctorCheck } from '../types';

export const podsChecks: DoctorCheck[] = [];
