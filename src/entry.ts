// Bundle entry: runs main() on the real process and exits with its code.
import { main } from './main';

main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
}).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`syncpod: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
