'use strict';
// Loads syncpod's bundle files (the *.cjs files in this directory, see scripts/build.mjs) through
// V8's code cache: each file's compiled code is read from FILE.cache next to it instead of being
// compiled at every start; a cache from another V8 or another build is rejected by V8 and the file
// is compiled as usual. The files require each other as `./NAME.cjs` and are loaded here by name,
// once each, as they are first required: the core at start, a command's chunks when the command
// table loads it. Anything else (node:* modules) goes to Node's own require. A file is loaded by
// this small loader rather than Node's CommonJS loader because the bundle's files need none of
// its path resolution (stat, realpath, package.json scopes), which cost several milliseconds at
// each start.
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');

// bin/syncpod moved NODE_EXTRA_CA_CERTS aside so that Node would not load it at start; child
// processes get it back as it was; src/stream/tls-trust.ts applies it where syncpod speaks TLS.
if (process.env.SYNCPOD_EXTRA_CA_CERTS !== undefined) {
  process.env.NODE_EXTRA_CA_CERTS = process.env.SYNCPOD_EXTRA_CA_CERTS;
  delete process.env.SYNCPOD_EXTRA_CA_CERTS;
}
const writeCache = process.env.SYNCPOD_WRITE_CODE_CACHE === '1';
/** name -> module record, for the files loaded so far (in load order). */
const loaded = new Map();

// One require for every bundle file: the files all live in this directory.
const nodeRequire = Module.createRequire(path.join(__dirname, 'syncpod.cjs'));
/** Node's own modules the bundle required, in order (for SYNCPOD_TRACE_FILES). */
const builtins = new Set();
function bundleRequire(id) {
  if (id.startsWith('./') && id.endsWith('.cjs') && !id.includes('/', 2)) return load(id.slice(2));
  builtins.add(id.replace(/^node:/, ''));
  return nodeRequire(id);
}
bundleRequire.resolve = nodeRequire.resolve;
bundleRequire.cache = nodeRequire.cache;
bundleRequire.main = process.mainModule;

function load(name) {
  const known = loaded.get(name);
  if (known) return known.exports;
  const filename = path.join(__dirname, name);
  const record = { exports: {}, id: filename, filename, loaded: false, script: undefined, cached: false };
  loaded.set(name, record);
  const source = fs.readFileSync(filename, 'utf8');
  let cachedData;
  if (!writeCache) {
    try {
      cachedData = fs.readFileSync(filename + '.cache');
    } catch {
      cachedData = undefined;
    }
  }
  const script = new vm.Script(Module.wrap(source), { filename, cachedData });
  if (writeCache) record.script = script;
  record.cached = cachedData !== undefined && !script.cachedDataRejected;
  script.runInThisContext().call(record.exports, record.exports, bundleRequire, record, filename, __dirname);
  record.loaded = true;
  return record.exports;
}

if (writeCache) {
  // The build's warm-up (`__warm`) calls this after the list commands ran: the files loaded by then
  // keep the code compiled so far, so that warming up other commands afterwards (sync, plan) adds
  // nothing for a list command to read at start; files loaded later get everything compiled.
  globalThis.__syncpodFreezeCodeCaches = () => {
    for (const record of loaded.values()) record.frozen ??= record.script.createCachedData();
  };
  process.on('exit', () => {
    for (const record of loaded.values())
      fs.writeFileSync(record.filename + '.cache', record.frozen ?? record.script.createCachedData());
  });
}
if (process.env.SYNCPOD_TRACE_FILES === '1') {
  // Which bundle files this run read, in order, with `(compiled)` after those whose code cache was
  // missing or rejected, and which of Node's modules they required (tests check that a command
  // reads only its own files, from the cache, and loads node:http2 only when it calls a runtime).
  process.on('exit', () => {
    process.stderr.write(
      `syncpod: files ${[...loaded].map(([name, r]) => (r.cached ? name : `${name}(compiled)`)).join(' ')}\n`,
    );
    process.stderr.write(`syncpod: builtins ${[...builtins].join(' ')}\n`);
  });
}

load('syncpod.cjs');
