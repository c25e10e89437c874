// Pod DNS configuration and hostname, mirroring kubelet 1.33 (pkg/kubelet/network/dns/dns.go,
// kubelet_pods.go GeneratePodHostNameAndDomain, kuberuntime/util GetNodenameForKernel).
// Pure: the node's resolv.conf is passed as text.
//
// Deliberate difference: kubelet merges `options` through a Go map, so their order is random on
// every call; here they keep the order of first appearance (a later option with the same name
// replaces the value in place).

import type { Pod } from './api-types';
import type { DNSConfig } from '../cri/types';
import { SyncpodError } from '../errors';
import { formatPod } from './labels';

export const MAX_DNS_NAMESERVERS = 3;
export const MAX_DNS_SEARCH_PATHS = 32;
export const MAX_DNS_SEARCH_LIST_CHARS = 2048;
/** Longest search domain kept (DNS-1123 subdomain length). */
export const MAX_DNS_SEARCH_DOMAIN_CHARS = 253;
/** kubelet reads at most this much of resolv.conf. */
export const MAX_RESOLV_CONF_BYTES = 10 * 1024 * 1024;

/** A Kubernetes event kubelet would record; returned as data, never sent. */
export interface KubeletEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

export interface DnsSettings {
  /** kubelet --cluster-dns (may be empty). */
  clusterDNS: string[];
  /** kubelet --cluster-domain (may be empty). */
  clusterDomain: string;
  /** Text of kubelet's --resolv-conf file; null when kubelet runs with --resolv-conf="". */
  resolvConf: string | null;
  /** Node IPs (used for localhost servers when resolvConf is null). */
  nodeIPs: string[];
}

export interface ResolvConf {
  servers: string[];
  searches: string[];
  options: string[];
}

/**
 * parseResolvConf: nameserver lines accumulate, the last search line wins, options merge by name.
 * A `nameserver` line without an address is an error (kubelet then fails the pod's sandbox).
 */
export function parseResolvConf(text: string): ResolvConf {
  const servers: string[] = [];
  let searches: string[] = [];
  let options: string[] = [];
  const emptyNameserverLines: number[] = [];
  for (const [i, raw] of text.slice(0, MAX_RESOLV_CONF_BYTES).split('\n').entries()) {
    const line = raw.trim();
    if (line.startsWith('#')) continue;
    const fields = line.split(/\s+/).filter((f) => f !== '');
    if (fields.length === 0) continue;
    if (fields[0] === 'nameserver') {
      if (fields.length >= 2) servers.push(fields[1]!);
      else emptyNameserverLines.push(i + 1);
    }
    if (fields[0] === 'search')
      searches = fields
        .slice(1)
        .filter((s) => s !== '.')
        .map((s) => s.replace(/\.$/, ''));
    if (fields[0] === 'options') options = mergeOptions(options, fields.slice(1));
  }
  if (emptyNameserverLines.length > 0) {
    const where = emptyNameserverLines.length === 1 ? 'line' : 'lines';
    throw new SyncpodError(`resolv.conf ${where} ${emptyNameserverLines.join(', ')}: nameserver list is empty`);
  }
  return { servers, searches, options };
}

function optionName(opt: string): string {
  const i = opt.indexOf(':');
  return i < 0 ? opt : opt.slice(0, i);
}

/** Options merged by name (the text before ':'); later ones replace earlier ones in place. */
function mergeOptions(existing: string[], more: string[]): string[] {
  const byName = new Map<string, string>();
  for (const o of [...existing, ...more]) byName.set(optionName(o), o);
  return [...byName.values()];
}

function omitDuplicates(list: string[]): string[] {
  return [...new Set(list)];
}

export type PodDNSType = 'none' | 'cluster' | 'host';

function isHostNetwork(pod: Pod): boolean {
  return pod.spec?.hostNetwork === true;
}

/** getPodDNSType; an unknown policy (including an empty one) is treated as cluster, as kubelet does. */
export function getPodDNSType(pod: Pod): PodDNSType {
  switch (pod.spec?.dnsPolicy) {
    case 'None':
      return 'none';
    case 'ClusterFirstWithHostNet':
      return 'cluster';
    case 'ClusterFirst':
      return isHostNetwork(pod) ? 'host' : 'cluster';
    case 'Default':
      return 'host';
    default:
      return 'cluster';
  }
}

/** GetPodDNS plus the limits kubelet applies; events are what kubelet would record on the pod. */
export function getPodDNS(pod: Pod, s: DnsSettings): { dnsConfig: DNSConfig; events: KubeletEvent[] } {
  const events: KubeletEvent[] = [];
  const base = s.resolvConf === null ? { servers: [], searches: [], options: [] } : parseResolvConf(s.resolvConf);
  let cfg: DNSConfig = { servers: [...base.servers], searches: [...base.searches], options: [...base.options] };
  const type = getPodDNSType(pod);
  if (type === 'none') {
    cfg = { servers: [], searches: [], options: [] };
  } else if (type === 'cluster' && s.clusterDNS.length > 0) {
    const ns = pod.metadata?.namespace ?? '';
    const clusterSearch =
      s.clusterDomain === '' ? [] : [`${ns}.svc.${s.clusterDomain}`, `svc.${s.clusterDomain}`, s.clusterDomain];
    cfg = {
      servers: [...s.clusterDNS],
      searches: omitDuplicates([...clusterSearch, ...base.searches]),
      options: ['ndots:5'],
    };
  } else {
    if (type === 'cluster') {
      events.push({
        type: 'Warning',
        reason: 'MissingClusterDNS',
        message:
          `pod: "${formatPod(pod)}". kubelet does not have ClusterDNS IP configured and cannot create Pod using ` +
          `"ClusterFirst" policy. Falling back to "Default" policy.`,
      });
    }
    if (s.resolvConf === null) {
      const servers = s.nodeIPs.map((ip) => (ip.includes(':') ? '::1' : '127.0.0.1'));
      cfg.servers = servers.length > 0 ? servers : ['127.0.0.1'];
      cfg.searches = ['.'];
    }
  }
  const podDNS = pod.spec?.dnsConfig;
  if (podDNS) {
    cfg.servers = omitDuplicates([...cfg.servers, ...(podDNS.nameservers ?? [])]);
    cfg.searches = omitDuplicates([...cfg.searches, ...(podDNS.searches ?? [])]);
    cfg.options = mergeOptions(
      cfg.options,
      (podDNS.options ?? []).map((o) =>
        o.value === undefined || o.value === null ? (o.name ?? '') : `${o.name ?? ''}:${o.value}`,
      ),
    );
  }
  if (cfg.servers.length > MAX_DNS_NAMESERVERS) {
    cfg.servers = cfg.servers.slice(0, MAX_DNS_NAMESERVERS);
    events.push({
      type: 'Warning',
      reason: 'DNSConfigForming',
      message: `Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: ${cfg.servers.join(' ')}`,
    });
  }
  const limited = formSearchFitsLimits(cfg.searches);
  cfg.searches = limited.searches;
  if (limited.exceeded) {
    events.push({
      type: 'Warning',
      reason: 'DNSConfigForming',
      message: `Search Line limits were exceeded, some search paths have been omitted, the applied search line is: ${cfg.searches.join(' ')}`,
    });
  }
  return { dnsConfig: cfg, events };
}

function formSearchFitsLimits(input: string[]): { searches: string[]; exceeded: boolean } {
  let exceeded = false;
  let searches = input;
  if (searches.length > MAX_DNS_SEARCH_PATHS) {
    searches = searches.slice(0, MAX_DNS_SEARCH_PATHS);
    exceeded = true;
  }
  const short = searches.filter((d) => d.length <= MAX_DNS_SEARCH_DOMAIN_CHARS);
  if (short.length !== searches.length) exceeded = true;
  searches = short;
  const lineLength = searches.join(' ').length;
  if (lineLength > MAX_DNS_SEARCH_LIST_CHARS) {
    let cut = 0;
    let cutLength = 0;
    for (let i = searches.length - 1; i >= 0; i--) {
      cutLength += searches[i]!.length + 1;
      cut++;
      if (lineLength - cutLength <= MAX_DNS_SEARCH_LIST_CHARS) break;
    }
    searches = searches.slice(0, searches.length - cut);
    exceeded = true;
  }
  return { searches, exceeded };
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const HOSTNAME_MAX = 63;
const FQDN_MAX = 64;

function checkLabel(what: string, value: string): void {
  if (value.length > HOSTNAME_MAX || !DNS1123_LABEL.test(value)) {
    throw new SyncpodError(
      `pod ${what} "${value}" is not a valid DNS label: at most 63 lower case alphanumeric characters or '-', starting and ending with an alphanumeric character`,
    );
  }
}

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const SUBDOMAIN_MAX = 253;

/** truncatePodHostnameIfNeeded: at most 63 characters, no trailing '-' or '.'. */
function truncateHostname(podName: string, hostname: string): string {
  if (hostname.length <= HOSTNAME_MAX) return hostname;
  const cut = hostname.slice(0, HOSTNAME_MAX).replace(/[-.]+$/, '');
  if (cut === '') throw new SyncpodError(`hostname for pod "${podName}" was invalid: "${hostname}"`);
  return cut;
}

/**
 * GeneratePodHostNameAndDomain: with HostnameOverride on and spec.hostnameOverride set, that name
 * (a DNS subdomain, cut to 63) and no domain; else the short hostname (spec.hostname or the pod
 * name, cut to 63) and the subdomain's domain.
 */
export function generatePodHostNameAndDomain(
  pod: Pod,
  clusterDomain: string,
  hostnameOverride = false,
): { hostname: string; domain: string } {
  const podName = pod.metadata?.name ?? '';
  const override = pod.spec?.hostnameOverride;
  if (hostnameOverride && override !== undefined && override !== null) {
    if (override.length > SUBDOMAIN_MAX || !DNS1123_SUBDOMAIN.test(override)) {
      throw new SyncpodError(
        `pod HostnameOverride "${override}" is not a valid DNS subdomain: at most 253 lower case alphanumeric characters, '-' or '.', starting and ending with an alphanumeric character`,
      );
    }
    return { hostname: truncateHostname(podName, override), domain: '' };
  }
  let hostname = podName;
  const specHostname = pod.spec?.hostname ?? '';
  if (specHostname !== '') {
    checkLabel('Hostname', specHostname);
    hostname = specHostname;
  }
  hostname = truncateHostname(podName, hostname);
  let domain = '';
  const subdomain = pod.spec?.subdomain ?? '';
  if (subdomain !== '') {
    checkLabel('Subdomain', subdomain);
    domain = `${subdomain}.${pod.metadata?.namespace ?? ''}.svc.${clusterDomain}`;
  }
  return { hostname, domain };
}

/** GetNodenameForKernel: the FQDN when setHostnameAsFQDN and a domain exist (at most 64 characters). */
export function getNodenameForKernel(hostname: string, domain: string, setHostnameAsFQDN: boolean | undefined): string {
  if (domain === '' || setHostnameAsFQDN !== true) return hostname;
  const fqdn = `${hostname}.${domain}`;
  if (fqdn.length > FQDN_MAX) {
    throw new SyncpodError(
      `failed to construct FQDN from pod hostname and cluster domain, FQDN ${fqdn} is too long (${FQDN_MAX} characters is the max, ${fqdn.length} characters requested)`,
    );
  }
  return fqdn;
}

/** The sandbox hostname: empty for host-network pods, else the (FQDN or short) hostname. */
export function podSandboxHostname(pod: Pod, clusterDomain: string, hostnameOverride = false): string {
  if (isHostNetwork(pod)) return '';
  const { hostname, domain } = generatePodHostNameAndDomain(pod, clusterDomain, hostnameOverride);
  return getNodenameForKernel(hostname, domain, pod.spec?.setHostnameAsFQDN);
}
