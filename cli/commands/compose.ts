import { Argument, type Command } from 'commander';
import { describe } from '../lib/command-catalogue.js';
import { numberIn } from '../lib/backend-options.js';
import { collect } from '../lib/options.js';

type Which = 'all' | 'api' | 'console';
const serviceArgument = () =>
  new Argument('[service]', 'which service: api, console or all')
    .choices(['all', 'api', 'console'])
    .default('all');
const services = (which: Which) => (which === 'all' ? (['api', 'console'] as const) : ([which] as const));

const UP_EXAMPLES = `
Examples:
  benchtrack up
  benchtrack up api --api-port 8080 --api-volume ~/benchtrack-data
  benchtrack up --api-host 127.0.0.1          # an API that only this machine reaches
  benchtrack up --api-env BENCHTRACK_CONFIG_PATH=/etc/benchtrack/benchtrack.json --console-port 3001

There is no container engine here: the API (benchtrack-api) and the console (benchtrack-console) run as
background processes. Their pid files, logs and the API's configuration (api-config.json) are kept in the state
directory: BENCHTRACK_STATE_DIR, else $XDG_STATE_HOME/benchtrack, else ~/.local/state/benchtrack. The data
lives in <state>/data unless --api-volume says where. The API binds the IP address of its configuration
(0.0.0.0 at first) unless --api-host says otherwise. Running services are restarted.`;

interface UpFlags {
  apiPort: number;
  apiHost?: string;
  consolePort: number;
  apiEnv?: string[];
  consoleEnv?: string[];
  apiVolume?: string;
  consoleVolume?: string;
  wait: number;
}

/** `benchtrack up`, `down` and `logs`: a local server without a container engine (reference section 5.5). */
export function registerComposeCommands(program: Command): void {
  program
    .command('up')
    .description(describe('up'))
    .addArgument(serviceArgument())
    .option('--api-port <port>', 'port of the API', numberIn(1, 65_535), 61016)
    .option('--api-host <ip>', "IP address the API binds (default: its configuration's, else 0.0.0.0)")
    .option('--console-port <port>', 'port of the console', numberIn(1, 65_535), 3000)
    .option('--api-env <KEY=VALUE>', 'environment variable of the API (repeatable)', collect)
    .option('--console-env <KEY=VALUE>', 'environment variable of the console (repeatable)', collect)
    .option('--api-volume <dir>', 'directory where the API keeps its database')
    .option('--console-volume <dir>', 'directory of the console app to serve (default: the built one)')
    .option('--wait <seconds>', 'how long to wait for each service to answer', numberIn(1, 600), 60)
    .addHelpText('after', UP_EXAMPLES)
    .action(async (which: Which, o: UpFlags) => {
      const [{ startServices }, { stateDir }] = await Promise.all([
        import('../lib/compose/up.js'),
        import('../lib/compose/state.js'),
      ]);
      const lines = await startServices(stateDir(), {
        services: services(which),
        apiPort: o.apiPort,
        apiHost: o.apiHost,
        consolePort: o.consolePort,
        apiEnv: o.apiEnv ?? [],
        consoleEnv: o.consoleEnv ?? [],
        apiVolume: o.apiVolume,
        consoleVolume: o.consoleVolume,
        waitSeconds: o.wait,
      });
      process.stdout.write(`${lines.join('\n')}\n`);
    });

  program
    .command('down')
    .description(describe('down'))
    .addArgument(serviceArgument())
    .addHelpText('after', '\nExamples:\n  benchtrack down\n  benchtrack down console')
    .action(async (which: Which) => {
      const [{ stopServices }, { stateDir }] = await Promise.all([
        import('../lib/compose/down.js'),
        import('../lib/compose/state.js'),
      ]);
      const stopped = await stopServices(stateDir(), services(which));
      process.stdout.write(
        stopped.length > 0 ? `Stopped ${stopped.join(', ')}.\n` : 'Nothing was running.\n',
      );
    });

  program
    .command('logs')
    .description(describe('logs'))
    .addArgument(serviceArgument())
    .option('--no-follow', 'print the logs and exit')
    .option('--tail <lines>', 'lines of earlier log to show first', numberIn(0, 1_000_000), 100)
    .addHelpText('after', '\nExamples:\n  benchtrack logs\n  benchtrack logs api --tail 20 --no-follow')
    .action(async (which: Which, o: { follow: boolean; tail: number }) => {
      const [{ showLogs }, { stateDir }] = await Promise.all([
        import('../lib/compose/logs.js'),
        import('../lib/compose/state.js'),
      ]);
      const stop = new AbortController();
      process.once('SIGINT', () => stop.abort());
      await showLogs(stateDir(), {
        services: services(which),
        follow: o.follow,
        tail: o.tail,
        signal: stop.signal,
      });
    });
}
