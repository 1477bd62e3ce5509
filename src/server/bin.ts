// The `roster` command as a process (scripts/roster.mjs runs its bundle, npm run dev runs it through tsx):
// the CLI of main.ts on this process's arguments, environment and output.
import { runCli } from './main.ts';

const code = await runCli(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr });
if (code >= 0) process.exit(code);
