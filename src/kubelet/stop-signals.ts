// lifecycle.stopSignal: the one list of signal names a Linux pod may name (the API server's validation
// takes these, in the API's spelling: SIGRTMIN+1, SIGRTMAX-14), the two a Windows pod may name, and
// how a name becomes the CRI's Signal value (SIGNAL_SIGRTMINPLUS1, SIGNAL_SIGRTMAXMINUS14). The
// manifest validation and the container config both read it from here. Pure.
import type { Signal } from '../cri/types';

/** Signal names a Linux container's lifecycle.stopSignal may take, in the API's spelling. */
export const LINUX_STOP_SIGNALS: readonly string[] = [
  'SIGABRT',
  'SIGALRM',
  'SIGBUS',
  'SIGCHLD',
  'SIGCLD',
  'SIGCONT',
  'SIGFPE',
  'SIGHUP',
  'SIGILL',
  'SIGINT',
  'SIGIO',
  'SIGIOT',
  'SIGKILL',
  'SIGPIPE',
  'SIGPOLL',
  'SIGPROF',
  'SIGPWR',
  'SIGQUIT',
  'SIGSEGV',
  'SIGSTKFLT',
  'SIGSTOP',
  'SIGSYS',
  'SIGTERM',
  'SIGTRAP',
  'SIGTSTP',
  'SIGTTIN',
  'SIGTTOU',
  'SIGURG',
  'SIGUSR1',
  'SIGUSR2',
  'SIGVTALRM',
  'SIGWINCH',
  'SIGXCPU',
  'SIGXFSZ',
  'SIGRTMIN',
  ...Array.from({ length: 15 }, (_, i) => `SIGRTMIN+${i + 1}`),
  ...Array.from({ length: 14 }, (_, i) => `SIGRTMAX-${14 - i}`),
  'SIGRTMAX',
];

/** Signal names a Windows container's lifecycle.stopSignal may take. */
export const WINDOWS_STOP_SIGNALS: readonly string[] = ['SIGKILL', 'SIGTERM'];

const LINUX = new Set(LINUX_STOP_SIGNALS);

/**
 * A stop signal's name as the CRI Signal value (k8s.io/cri-api v0.37 spells `+` PLUS and `-` MINUS:
 * SIGRTMIN+1 -> SIGNAL_SIGRTMINPLUS1); undefined for a name that is not on the list.
 */
export function criStopSignal(name: string): Signal | undefined {
  if (!LINUX.has(name)) return undefined;
  return `SIGNAL_${name.replace('+', 'PLUS').replace('-', 'MINUS')}` as Signal;
}
