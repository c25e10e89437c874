'use strict';
// Loads the bundle through V8's code cache: compiled code is read from syncpod.cjs.cache next to
// the bundle instead of being compiled at every start. A cache from another V8 is rejected by V8
// and the bundle is compiled as usual.
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');

const file = path.join(__dirname, 'syncpod.cjs');
const cacheFile = file + '.cache';
const source = fs.readFileSync(file, 'utf8');
let cachedData;
try {
  cachedData = fs.readFileSync(cacheFile);
} catch {
  cachedData = undefined;
}
const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
if (process.env.SYNCPOD_WRITE_CODE_CACHE === '1') {
  process.on('exit', () => fs.writeFileSync(cacheFile, script.createCachedData()));
}
const wrapper = script.runInThisContext();
const mod = { exports: {} };
wrapper.call(mod.exports, mod.exports, Module.createRequire(file), mod, file, __dirname);
