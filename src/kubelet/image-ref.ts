// Docker image references as kubelet and the API server read them: distribution/reference
// normalisation (ParseNormalizedNamed), kubelet's parsers.ParseImageName, applyDefaultImageTag
// (kubelet 1.28–1.33 image manager) and the API default for imagePullPolicy. Pure.

import { SyncpodError } from '../errors';

export interface ImageReference {
  /** Registry host[:port]; `docker.io` for Docker Hub names. */
  domain: string;
  /** Repository path; `library/<name>` for official Docker Hub images. */
  path: string;
  /** '' when the reference has none. */
  tag: string;
  /** `algorithm:hex`, '' when the reference has none. */
  digest: string;
}

const DEFAULT_DOMAIN = 'docker.io';
const LEGACY_DEFAULT_DOMAIN = 'index.docker.io';
const OFFICIAL_PREFIX = 'library/';
const NAME_MAX = 255;
export const DEFAULT_IMAGE_TAG = 'latest';

// The reference grammar (restated from distribution/reference).
const ALNUM = '[a-z0-9]+';
const SEPARATOR = '(?:[._]|__|[-]+)';
const PATH_COMPONENT = `${ALNUM}(?:${SEPARATOR}${ALNUM})*`;
const REMOTE_NAME = `${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const HOST = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[(?:[a-fA-F0-9:]+)\\])`;
const DOMAIN_AND_PORT = `${HOST}(?::[0-9]+)?`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][0-9a-fA-F]{32,}';
const REFERENCE_RE = new RegExp(`^((?:${DOMAIN_AND_PORT}/)?${REMOTE_NAME})(?::(${TAG}))?(?:@(${DIGEST}))?$`);
const NAME_RE = new RegExp(`^(?:(${DOMAIN_AND_PORT})/)?(${REMOTE_NAME})$`);
const IDENTIFIER_RE = /^[a-f0-9]{64}$/;
const DIGEST_HEX_LENGTH: Record<string, number> = { sha256: 64, sha384: 96, sha512: 128 };

function splitDockerDomain(name: string): [domain: string, remainder: string] {
  const slash = name.indexOf('/');
  if (slash < 0) return [DEFAULT_DOMAIN, OFFICIAL_PREFIX + name];
  const first = name.slice(0, slash);
  const rest = name.slice(slash + 1);
  let domain = DEFAULT_DOMAIN;
  let remainder = name;
  if (first === LEGACY_DEFAULT_DOMAIN) remainder = rest;
  else if (first === 'localhost' || /[.:]/.test(first) || first.toLowerCase() !== first)
    [domain, remainder] = [first, rest];
  if (domain === DEFAULT_DOMAIN && !remainder.includes('/')) remainder = OFFICIAL_PREFIX + remainder;
  return [domain, remainder];
}

/** The reason a reference is invalid, or the parsed reference (distribution's ParseNormalizedNamed). */
function parse(image: string): ImageReference | string {
  if (IDENTIFIER_RE.test(image)) {
    return `invalid repository name (${image}), cannot specify 64-byte hexadecimal strings`;
  }
  const [domain, remainder] = splitDockerDomain(image);
  const colon = remainder.indexOf(':');
  const remote = colon < 0 ? remainder : remainder.slice(0, colon);
  if (remote.toLowerCase() !== remote) {
    return `invalid reference format: repository name (${remote}) must be lowercase`;
  }
  const full = `${domain}/${remainder}`;
  const m = REFERENCE_RE.exec(full);
  if (!m) {
    if (REFERENCE_RE.test(full.toLowerCase())) return 'invalid reference format: repository name must be lowercase';
    return 'invalid reference format';
  }
  const name = m[1]!;
  if (name.length > NAME_MAX) return `repository name must not be more than ${NAME_MAX} characters`;
  const nm = NAME_RE.exec(name)!;
  const digest = m[3] ?? '';
  if (digest !== '') {
    const [algorithm, hex] = [digest.slice(0, digest.indexOf(':')), digest.slice(digest.indexOf(':') + 1)];
    const want = DIGEST_HEX_LENGTH[algorithm];
    if (want === undefined) return 'unsupported digest algorithm';
    if (hex.length !== want) return 'invalid checksum digest length';
    if (!/^[a-f0-9]+$/.test(hex)) return 'invalid checksum digest format';
  }
  return { domain: nm[1] ?? '', path: nm[2]!, tag: m[2] ?? '', digest };
}

/** Normalise and parse an image reference; throws a one-line SyncpodError naming the image. */
export function parseNormalizedImage(image: string): ImageReference {
  const r = parse(image);
  if (typeof r === 'string') throw new SyncpodError(`couldn't parse image name ${JSON.stringify(image)}: ${r}`);
  return r;
}

/** Whether the image reference parses (kubelet reports InvalidImageName otherwise). */
export function isValidImageReference(image: string): boolean {
  return typeof parse(image) !== 'string';
}

/** The fully qualified repository name, e.g. `nginx` -> `docker.io/library/nginx`. */
export function repositoryName(ref: ImageReference): string {
  return ref.domain === '' ? ref.path : `${ref.domain}/${ref.path}`;
}

/**
 * kubelet's parsers.ParseImageName: repository, tag and digest, with tag `latest` when the
 * reference has neither tag nor digest.
 */
export function parseImageName(image: string): { repository: string; tag: string; digest: string } {
  const ref = parseNormalizedImage(image);
  const tag = ref.tag === '' && ref.digest === '' ? DEFAULT_IMAGE_TAG : ref.tag;
  return { repository: repositoryName(ref), tag, digest: ref.digest };
}

/**
 * kubelet's applyDefaultImageTag: append `:<tag>` when the image has a (possibly defaulted) tag
 * that its text does not already end with. The name is not qualified (`busybox` -> `busybox:latest`).
 */
export function applyDefaultImageTag(image: string): string {
  const { tag } = parseImageName(image);
  return tag !== '' && !image.endsWith(`:${tag}`) ? `${image}:${tag}` : image;
}

/**
 * The API server default for an empty imagePullPolicy: `Always` when the parsed tag is `latest`
 * (an image with neither tag nor digest counts as `latest`), otherwise `IfNotPresent` — also for
 * an image that does not parse.
 */
export function defaultImagePullPolicy(image: string): 'Always' | 'IfNotPresent' {
  const r = parse(image);
  if (typeof r === 'string') return 'IfNotPresent';
  const tag = r.tag === '' && r.digest === '' ? DEFAULT_IMAGE_TAG : r.tag;
  return tag === DEFAULT_IMAGE_TAG ? 'Always' : 'IfNotPresent';
}
