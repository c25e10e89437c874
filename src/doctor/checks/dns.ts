// doctor checks of the dns group.
import type { DoctorCheck } from '../types';

export const dnsChecks: DoctorCheck[] = [];
