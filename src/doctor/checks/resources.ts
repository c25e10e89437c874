// doctor checks of the resources group.
import type { DoctorCheck } from '../types';

export const resourcesChecks: DoctorCheck[] = [];
