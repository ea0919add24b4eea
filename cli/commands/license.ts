import { InvalidArgumentError, Option, type Command } from 'commander';
import { describe } from '../lib/command-catalogue.js';
import { UsageError } from '../lib/errors.js';

interface IssueOptions {
  key: string;
  organization: string;
  level: 'free' | 'pro' | 'team' | 'enterprise';
  entitlement: number;
  period: 'monthly' | 'annual';
}

const NOTES = `
The private key is a P-256 key in PKCS #8 PEM, for example from
  openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out license.key
  openssl pkey -in license.key -pubout -out license.pub
A server trusts the licenses of a key when its public key is built in or listed in plus.license_keys.
The license (an ES256 JWT, audience benchtrack) is printed on stdout.

Examples:
  benchtrack license issue --key license.key --organization 3f1c...-uuid --level team --entitlement 1000000
  benchtrack license issue --key license.key --organization 3f1c...-uuid --level enterprise --entitlement 50000000 --period annual`;

function count(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError('must be a whole number of metrics');
  }
  return Number(value);
}

/** `benchtrack license issue`: signs a license offline; nothing is sent anywhere. */
export function registerLicenseCommand(program: Command): void {
  const license = program
    .command('license')
    .description(describe('license'))
    .addHelpText(
      'after',
      '\nExamples:\n  benchtrack license issue --key license.key --organization <uuid> --level team --entitlement 1000000',
    );
  license
    .command('issue')
    .description('Issue a license for an organization, signed with a private key')
    .requiredOption('--key <file>', 'the private key (PKCS #8 PEM, P-256)')
    .requiredOption('--organization <uuid>', 'UUID of the organization the license is for')
    .addOption(
      new Option('--level <level>', 'plan level')
        .choices(['free', 'pro', 'team', 'enterprise'])
        .makeOptionMandatory(),
    )
    .requiredOption('--entitlement <metrics>', 'metrics the organization may submit per period', count)
    .addOption(
      new Option('--period <period>', 'billing period').choices(['monthly', 'annual']).default('monthly'),
    )
    .addHelpText('after', NOTES)
    .action(async (o: IssueOptions) => {
      const { readFile } = await import('node:fs/promises');
      const { issueLicense } = await import('../../core/plus/license.js');
      const { uuidSchema } = await import('../../core/schemas/common.js');
      if (!uuidSchema.safeParse(o.organization).success) {
        throw new UsageError(`--organization must be the organization's UUID, got "${o.organization}"`);
      }
      const pem = await readFile(o.key, 'utf8');
      const jwt = await issueLicense(
        pem,
        {
          organization: o.organization.toLowerCase(),
          level: o.level,
          entitlement: o.entitlement,
          period: o.period,
        },
        new Date(),
      );
      process.stdout.write(`${jwt}\n`);
    });
}
