// -o go-template: Go text/template semantics on the JSON crictl feeds it (numbers as json.Number,
// missingkey=error). Expected outputs are what crictl prints for the same template and data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { executeGoTemplate } from '../../src/render/go-template';
import { SyncpodError } from '../../src/errors';

const data = {
  status: {
    id: 'abc123',
    metadata: { name: 'app', attempt: 0 },
    state: 'CONTAINER_RUNNING',
    exitCode: 0,
    labels: { 'io.kubernetes.pod.name': 'web', app: 'demo' },
    mounts: [],
    image: { image: 'busybox', annotations: {} },
    resources: { linux: { cpuShares: '2' }, windows: null },
    ips: ['10.0.0.1', '10.0.0.2'],
  },
  info: { pid: 4242, runtimeSpec: { process: { args: ['sh', '-c', 'sleep 1'] } } },
};

test('templates crictl users write give what crictl prints', () => {
  const cases: Array<[string, string]> = [
    ['{{.status.state}}', 'CONTAINER_RUNNING'],
    ['{{.status.metadata.name}}/{{.info.pid}}', 'app/4242'],
    ['{{range $k, $v := .status.labels}}{{$k}}={{$v}} {{end}}', 'app=demo io.kubernetes.pod.name=web '],
    ['{{index .status.labels "io.kubernetes.pod.name"}}', 'web'],
    ['{{range $i, $ip := .status.ips}}{{$i}}:{{$ip}},{{end}}', '0:10.0.0.1,1:10.0.0.2,'],
    ['{{range .info.runtimeSpec.process.args}}[{{.}}]{{end}}', '[sh][-c][sleep 1]'],
    ['{{range .status.mounts}}x{{else}}no mounts{{end}}', 'no mounts'],
    ['{{printf "%s-%v" .status.metadata.name .status.metadata.attempt}}', 'app-0'],
    ['{{printf "%d" .info.pid}}', '%!d(json.Number=4242)'],
    ['{{printf "%5s|%-4s|%q" "ab" "c" .status.id}}', '   ab|c   |"abc123"'],
    ['{{json .status.metadata}}', '{"attempt":0,"name":"app"}\n'],
    [
      '{{if eq .status.state "CONTAINER_RUNNING"}}up{{else if eq .status.state "CONTAINER_EXITED"}}down{{else}}?{{end}}',
      'up',
    ],
    ['{{if and .status.labels (not .status.mounts)}}yes{{end}}', 'yes'],
    ['{{len .status.labels}} {{len .status.mounts}} {{len .status.id}}', '2 0 6'],
    ['{{.status.resources.windows}}|{{.status.image}}', '<no value>|map[annotations:map[] image:busybox]'],
    ['{{.status.ips}}', '[10.0.0.1 10.0.0.2]'],
    ['{{upper .status.state | lower}}', 'container_running'],
    ['{{with .status.metadata}}{{.name}}{{end}} {{- " x" -}} y', 'app xy'],
    ['{{$n := .status.metadata.name}}{{range .status.ips}}{{$n}}@{{.}} {{end}}', 'app@10.0.0.1 app@10.0.0.2 '],
    ['{{/* a comment */}}{{eq .info.pid "4242"}}', 'true'],
    ['{{(index .status.ips 1)}} {{(.status.metadata).name}}', '10.0.0.2 app'],
  ];
  for (const [template, expected] of cases) assert.equal(executeGoTemplate(template, data), expected, template);
});

test('errors are one line: a missing key, a bad template, an unknown function, an unsupported action', () => {
  const cases: Array<[string, RegExp]> = [
    ['{{.nope}}', /map has no entry for key "nope"/],
    ['{{.status.id', /unclosed action/],
    ['{{frobnicate .status}}', /function "frobnicate" not defined/],
    ['{{range .status.ips}}', /missing \{\{end\}\}/],
    ['{{template "x"}}', /\{\{template\}\} is not supported/],
    ['{{eq .info.pid 4242}}', /incompatible types for comparison/],
  ];
  for (const [template, message] of cases) {
    assert.throws(
      () => executeGoTemplate(template, data),
      (e: Error) => e instanceof SyncpodError && message.test(e.message) && !e.message.includes('\n'),
      template,
    );
  }
});

// What Go 1.26's text/template and fmt print for these (checked against Go; the e2e
// test/e2e/crictl-templates.test.ts compares with the crictl binary on a live runtime).
const goData = { a: [], b: ['1', '2'], n: 0, s: 'a\u0001b', m: { k: 'v', n: 1 }, e: {}, z: null };

test('truth of every kind: 0, 0.0, "", empty list and map, nil are false; json.Number "0" is a non-empty string', () => {
  const cases: Array<[string, string]> = [
    ['{{if 0}}T{{else}}F{{end}}', 'F'],
    ['{{if 0.0}}T{{else}}F{{end}}', 'F'],
    ['{{if 1}}T{{else}}F{{end}}', 'T'],
    ['{{if len .a}}T{{else}}F{{end}}', 'F'],
    ['{{if len .b}}T{{else}}F{{end}}', 'T'],
    ['{{if .n}}T{{else}}F{{end}}', 'T'],
    ['{{if .e}}T{{else}}F{{end}}', 'F'],
    ['{{if .z}}T{{else}}F{{end}}', 'F'],
    ['{{if ""}}T{{else}}F{{end}}', 'F'],
    ['{{not 0}} {{not .a}} {{not .n}}', 'true true false'],
  ];
  for (const [template, expected] of cases) assert.equal(executeGoTemplate(template, goData), expected, template);
});

test('and / or stop at the first argument that decides (Go >= 1.18), so a guarded index does not fail', () => {
  const cases: Array<[string, string]> = [
    ['{{and .a (index .a 0)}}', '[]'],
    ['{{or .b (index .a 0)}}', '[1 2]'],
    ['{{or 0 "" .a}}', '[]'],
    ['{{and 1 2 3}}', '3'],
    ['{{if and .b (eq (index .b 0) "1")}}first{{end}}', 'first'],
  ];
  for (const [template, expected] of cases) assert.equal(executeGoTemplate(template, goData), expected, template);
  assert.throws(() => executeGoTemplate('{{and .b (index .a 0)}}', goData), /index out of range: 0/);
});

test('printf as fmt: Go quoting, rune quoting, verbs, flags, widths, argument indexes and the error forms', () => {
  const cases: Array<[string, string]> = [
    ['{{printf "%q" .s}}', '"a\\x01b"'],
    ['{{printf "%q" 65}}', "'A'"],
    ['{{printf "%q" .b}}', '["1" "2"]'],
    ['{{printf "%999999999d" 5}}', '%!(NOVERB)%!(EXTRA int=5)'],
    ['{{printf "%*d" 99999999 5}}', '%!(BADWIDTH)5'],
    ['{{printf "%.*f" -1 3.14159}}', '%!(BADPREC)3.141590'],
    [
      '{{printf "%5.2f|%-4d|%04d|%x|%X|%o|%b|%e|%g|%c|%U" 3.14159 7 7 255 255 8 5 1234.5 0.5 65 65}}',
      ' 3.14|7   |0007|ff|FF|10|101|1.234500e+03|0.5|A|U+0041',
    ],
    [
      '{{printf "%05s|%-05d|%+d|% d|%#x|%#o|%08.3f|%+.2e|%x" "ab" 3 5 5 255 8 3.14159 12345.678 "hi"}}',
      '000ab|3    |+5| 5|0xff|010|0003.142|+1.23e+04|6869',
    ],
    ['{{printf "%[2]d %[1]d" 1 2}}', '2 1'],
    ['{{printf "%[3]d" 1 2}}', '%!d(BADINDEX)'],
    ['{{printf "%d %d" 1}}', '1 %!d(MISSING)'],
    ['{{printf "%d" 1 2}}', '1%!(EXTRA int=2)'],
    ['{{printf "%d" .n}}', '%!d(json.Number=0)'],
    ['{{printf "%s" 1}} {{printf "%d" "x"}} {{printf "%z" 1}}', '%!s(int=1) %!d(string=x) %!z(int=1)'],
    [
      '{{printf "%T %T %T %T %T %T" 1 1.5 "s" .n .b .m}}',
      'int float64 string json.Number []interface {} map[string]interface {}',
    ],
    ['{{printf "%#v" .m}}', 'map[string]interface {}{"k":"v", "n":"1"}'],
    ['{{printf "%g %g %g %g %v" 100000.0 1000000.0 1e21 0.0001 1e-05}}', '100000 1e+06 1e+21 0.0001 1e-05'],
    ['{{printf "%.0f %.0f %.1f %.3g %.2f" 0.5 2.5 0.25 1234.5678 1.005}}', '0 2 0.2 1.23e+03 1.00'],
    ['{{printf "%+q|%#q|% x|%# x" "é" "a\\"b" "abc" "abc"}}', '"\\u00e9"|`a"b`|61 62 63|0x61 0x62 0x63'],
    ['{{printf "%U %#U %c" 0x1F600 0x1F600 233}}', "U+1F600 U+1F600 '😀' é"],
    ['{{printf "%t %v %s" true nil .z}}', 'true <nil> %!s(<nil>)'],
    ['{{print 1 2 "a" 3 .n .n}}', '1 2a300'],
    ['{{println 1 "a"}}', '1 a\n'],
  ];
  for (const [template, expected] of cases) assert.equal(executeGoTemplate(template, goData), expected, template);
});

test('index looks up own keys only: no JavaScript prototype member is a map entry', () => {
  for (const key of ['constructor', '__proto__', 'toString', 'hasOwnProperty'])
    assert.equal(executeGoTemplate(`{{index .m "${key}"}}`, goData), '<no value>', key);
  assert.throws(() => executeGoTemplate('{{.m.constructor}}', goData), /map has no entry for key "constructor"/);
});

test('literals, comparisons, range over integers, break and continue, slice, json as Go has them', () => {
  const cases: Array<[string, string]> = [
    ['{{"a\\tb\\x41\\u00e9"}}', 'a\tbAé'],
    ["{{'\\n'}} {{'a'}} {{0x1F}} {{1e3}} {{0o17}} {{017}}", '10 97 31 1000 15 15'],
    [
      '{{eq 1 1}} {{eq .n "0"}} {{lt 1 2}} {{ge 2.5 2.5}} {{ne "a" "b"}} {{eq "a" "b" "a"}}',
      'true true true true true true',
    ],
    ['{{range $i := 3}}{{$i}}{{end}}', '012'],
    ['{{range .b}}{{if eq . "2"}}{{break}}{{end}}{{.}}{{end}}', '1'],
    ['{{range .b}}{{if eq . "1"}}{{continue}}{{end}}{{.}}{{end}}', '2'],
    ['{{slice .s 1 2}}|{{slice .b 1}}|{{len .s}} {{index .s 0}}', '\u0001|[2]|3 97'],
    ['{{printf "%s|%s" (index .m "k") .m.k}} {{(index . "m").k}}', 'v|v v'],
    ['{{json .m}}{{json "<a&b>"}}{{json 1.5}}', '{"k":"v","n":1}\n"\\u003ca\\u0026b\\u003e"\n1.5\n'],
  ];
  for (const [template, expected] of cases) assert.equal(executeGoTemplate(template, goData), expected, template);
  for (const bad of [
    '{{eq 1 1.0}}',
    '{{lt .n 1}}',
    '{{lt true false}}',
    '{{index .b -1}}',
    '{{slice .b 2 1}}',
    '{{1 2}}',
  ])
    assert.throws(() => executeGoTemplate(bad, goData), SyncpodError, bad);
});
