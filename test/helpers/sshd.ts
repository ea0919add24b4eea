import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

const SSHD = '/usr/sbin/sshd';
export const SFTP_PASSWORD = 'benchtrack-sftp-password-0001';

export interface LocalSshd {
  readonly port: number;
  /** The host key's fingerprint as OpenSSH prints it (`ssh-keygen -lf`): SHA256:... */
  readonly hostKey: string;
  /** A private key that `keyUser` may log in with. */
  readonly keyPath: string;
  readonly keyUser: string;
  /** A directory `keyUser` may write. */
  readonly keyDirectory: string;
  /** The account password authentication logs in as (with SFTP_PASSWORD): one per server, removed by `close`. */
  readonly passwordUser: string;
  /** A directory `passwordUser` may write, its home. */
  readonly passwordDirectory: string;
  close(): Promise<void>;
}

async function listening(port: number, deadline: number): Promise<void> {
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      }).on('error', () => resolve(false));
    });
    if (up) return;
    if (Date.now() > deadline) throw new Error(`sshd did not listen on 127.0.0.1:${port} within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Debian's OpenSSH server on a free port of 127.0.0.1, with a host key and configuration of its own in a temp
 * directory: key authentication for the user running the tests, and password authentication for a throwaway
 * account of its own (servers of test files running at once never share or delete each other's). Password
 * authentication checks /etc/shadow, which only root can read, and the account must exist: so this runs as root
 * (CI does); otherwise it fails saying so.
 */
export async function startSshd(): Promise<LocalSshd> {
  if (process.getuid?.() !== 0)
    throw new Error(
      'the sftp replica tests run sshd with password authentication, which needs root (it reads /etc/shadow and creates an account); run them as root, as CI does',
    );
  const dir = mkdtempSync(join(tmpdir(), 'benchtrack-sshd-'));
  // the password account must reach its home inside
  chmodSync(dir, 0o755);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'host_key')]);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'client_key')]);
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'client_key.pub')));
  const home = join(dir, 'home');
  mkdirSync(home);
  const passwordUser = `benchtrack-sftp-${randomBytes(4).toString('hex')}`;
  execFileSync('useradd', ['-M', '-d', home, '-s', '/bin/sh', passwordUser], { stdio: 'ignore' });
  execFileSync('chpasswd', { input: `${passwordUser}:${SFTP_PASSWORD}\n` });
  const uid = Number(execFileSync('id', ['-u', passwordUser]).toString());
  chownSync(home, uid, uid);
  const port = await freePort();
  writeFileSync(
    join(dir, 'sshd_config'),
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(dir, 'host_key')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      'StrictModes no',
      'UsePAM no',
      'PasswordAuthentication yes',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'PermitRootLogin prohibit-password',
      'Subsystem sftp internal-sftp',
      '',
    ].join('\n'),
  );
  mkdirSync('/run/sshd', { recursive: true });
  const child = spawn(SSHD, ['-D', '-e', '-f', join(dir, 'sshd_config')], { stdio: 'ignore' });
  await listening(port, Date.now() + 10_000);
  const keyDirectory = join(dir, 'key-user');
  mkdirSync(keyDirectory);
  const hostKey = execFileSync('ssh-keygen', ['-lf', join(dir, 'host_key.pub')])
    .toString()
    .split(' ')[1] as string;
  return {
    port,
    hostKey,
    keyPath: join(dir, 'client_key'),
    keyUser: 'root',
    keyDirectory,
    passwordUser,
    passwordDirectory: home,
    async close() {
      child.kill();
      await new Promise((resolve) => child.once('exit', resolve));
      try {
        execFileSync('userdel', [passwordUser], { stdio: 'ignore' });
      } catch {
        // already gone
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
