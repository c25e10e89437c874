// doctor checks of the dns group: the resolv.conf kubelet hands pods (the profile's resolvConf):
// a loopback nameserver (systemd-resolved's stub 127.0.0.53: unreachable from a pod's network
// namespace, and a forwarding loop for the cluster DNS that forwards to it), and more nameservers
// or search domains than kubelet passes on (it keeps 3 nameservers and 32 search domains, 2048
// characters, and warns).
import {
  MAX_DNS_NAMESERVERS,
  MAX_DNS_SEARCH_LIST_CHARS,
  MAX_DNS_SEARCH_PATHS,
  parseResolvConf,
} from '../../kubelet/dns';
import type { CheckOutcome, DoctorCheck, Evidence } from '../types';

const ev = (name: string, value: string, from: string): Evidence => ({ name, value, from });

export function isLoopback(ip: string): boolean {
  return /^127\./.test(ip) || ip === '::1' || ip === '0:0:0:0:0:0:0:1';
}

/** The findings about one resolv.conf's text. Pure. */
export function judgeResolvConf(text: string, path: string): CheckOutcome {
  const rc = parseResolvConf(text);
  const evidence = [
    ev('nameservers', rc.servers.join(', ') || 'none', path),
    ev('search', rc.searches.join(' ') || 'none', path),
  ];
  const fails: string[] = [];
  const warns: string[] = [];
  const loop = rc.servers.filter(isLoopback);
  if (loop.length) {
    fails.push(
      `nameserver ${loop.join(', ')} is a loopback address: pods with dnsPolicy Default cannot reach it, and a cluster DNS that forwards to it loops`,
    );
  }
  if (rc.servers.length > MAX_DNS_NAMESERVERS) {
    warns.push(
      `${rc.servers.length} nameservers: kubelet passes on the first ${MAX_DNS_NAMESERVERS} and drops ${rc.servers.slice(MAX_DNS_NAMESERVERS).join(', ')} (DNSConfigForming events)`,
    );
  }
  if (rc.searches.length > MAX_DNS_SEARCH_PATHS)
    warns.push(`${rc.searches.length} search domains: kubelet keeps ${MAX_DNS_SEARCH_PATHS}`);
  const chars = rc.searches.join(' ').length;
  if (chars > MAX_DNS_SEARCH_LIST_CHARS)
    warns.push(`the search line is ${chars} characters: kubelet cuts it to ${MAX_DNS_SEARCH_LIST_CHARS}`);
  if (fails.length) {
    return {
      status: 'fail',
      summary: `${path}: ${[...fails, ...warns].join('; ')}.`,
      evidence,
      remedy:
        'Point kubelet at a resolv.conf with real upstream servers: with systemd-resolved, resolvConf: /run/systemd/resolve/resolv.conf in the KubeletConfiguration (or --resolv-conf).',
    };
  }
  if (warns.length)
    return {
      status: 'warn',
      summary: `${path}: ${warns.join('; ')}.`,
      evidence,
      remedy: `Trim ${path} to at most ${MAX_DNS_NAMESERVERS} nameservers and ${MAX_DNS_SEARCH_PATHS} search domains, or give kubelet another resolvConf.`,
    };
  return {
    status: 'ok',
    summary: `${path} has ${rc.servers.length} nameserver(s), none loopback, within kubelet's limits.`,
    evidence,
  };
}

export const dnsChecks: DoctorCheck[] = [
  {
    id: 'dns.resolv-conf',
    group: 'dns',
    title: 'the resolv.conf kubelet hands pods',
    async run(env) {
      const s = env.profile.resolvConf;
      const path = s.value;
      if (path === '')
        return {
          status: 'skip',
          summary: 'resolvConf is "": kubelet gives pods no host resolver.',
          evidence: [ev('resolvConf', '""', s.from ? `${s.source} ${s.from}` : s.source)],
        };
      let text: string;
      try {
        text = await env.readNodeFile(path);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') {
          return {
            status: 'warn',
            summary: `${path} (resolvConf, ${s.source}) does not exist: kubelet cannot read it and pods get no host nameservers.`,
            evidence: [ev('resolvConf', path, s.from ? `${s.source} ${s.from}` : s.source)],
            remedy: "Create the file or point resolvConf at the node's real resolv.conf.",
          };
        }
        throw err;
      }
      const out = judgeResolvConf(text, path);
      out.evidence.unshift(ev('resolvConf', path, s.from ? `${s.source} ${s.from}` : s.source));
      return out;
    },
  },
];
