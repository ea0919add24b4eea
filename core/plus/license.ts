import { createPublicKey, type KeyObject } from 'node:crypto';
import { errors, importPKCS8, jwtVerify, SignJWT } from 'jose';
import { InputError } from '../errors.js';
import { PLAN_LEVELS, type PlanLevel } from './levels.js';

export { PLAN_LEVELS, type PlanLevel } from './levels.js';

/** Billing periods a license covers: 31 or 366 days from its issue. */
export const LICENSE_PERIODS = { monthly: 31, annual: 366 } as const;
export type LicensePeriod = keyof typeof LICENSE_PERIODS;

/** The audience of every license, so no other ES256 token of the vendor passes for one. */
export const LICENSE_AUDIENCE = 'benchtrack';

/**
 * The vendor's license public key, trusted by every server (`plus.license_keys` adds others). Its private key is
 * the vendor's and is not in this repository.
 */
export const BUILT_IN_LICENSE_KEY = `-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE5SNxka84WxPyea5xSDXQs+s5QPuk
Kd3e79nIqJpdQP8I3+Sixo10zpiyELi52BXZmarHzefbkzgq4TnFyCLERA==
-----END PUBLIC KEY-----
`;

/** What a verified license grants an organization. */
export interface License {
  readonly organization: string;
  readonly level: PlanLevel;
  /** Metrics the organization may submit per billing period. */
  readonly entitlement: number;
  readonly issued: Date;
  readonly expires: Date;
}

const keyCache = new Map<string, KeyObject>();

function publicKey(pem: string): KeyObject {
  let key = keyCache.get(pem);
  if (!key) {
    key = createPublicKey(pem);
    keyCache.set(pem, key);
  }
  return key;
}

/**
 * Verifies a license JWT (ES256, audience `benchtrack`) against each trusted public key and checks that it is
 * the organization's and has not expired. Every failure is an InputError on `license` naming the problem; the
 * token itself never appears in a message.
 */
export async function verifyLicense(
  jwt: string,
  organizationUuid: string,
  trustedKeys: readonly string[],
  now: Date,
): Promise<License> {
  if (!/^[\w-]+\.[\w-]+\.[\w-]+$/.test(jwt)) {
    throw new InputError('license: is not a JWT (three base64url parts separated by dots)');
  }
  let payload: Record<string, unknown> | undefined;
  let failure: unknown;
  for (const pem of [BUILT_IN_LICENSE_KEY, ...trustedKeys]) {
    try {
      ({ payload } = await jwtVerify(jwt, publicKey(pem), {
        algorithms: ['ES256'],
        audience: LICENSE_AUDIENCE,
        currentDate: now,
        requiredClaims: ['sub', 'exp', 'iat'],
      }));
      break;
    } catch (error) {
      failure = error;
      // a signature that one key does not match may match the next; any other failure is final
      if (!(error instanceof errors.JWSSignatureVerificationFailed)) break;
    }
  }
  if (!payload) throw new InputError(`license: ${describe(failure)}`);
  const { sub, lvl, ent, iat, exp } = payload;
  if (sub !== organizationUuid) {
    throw new InputError(
      `license: is for organization ${String(sub)}, not ${organizationUuid}; ask for a license of this organization`,
    );
  }
  if (!PLAN_LEVELS.includes(lvl as PlanLevel)) {
    throw new InputError(`license: claim lvl must be one of ${PLAN_LEVELS.join(', ')}`);
  }
  if (typeof ent !== 'number' || !Number.isSafeInteger(ent) || ent < 0) {
    throw new InputError(
      'license: claim ent (metrics per billing period) must be a whole number of at least 0',
    );
  }
  return {
    organization: sub,
    level: lvl as PlanLevel,
    entitlement: ent,
    issued: new Date((iat as number) * 1000),
    expires: new Date((exp as number) * 1000),
  };
}

function describe(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'has expired; renew the license';
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return 'its signature matches no trusted license key (the built-in key and plus.license_keys)';
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return 'must be signed with ES256';
  if (error instanceof errors.JWTClaimValidationFailed) return `claim ${error.claim} is missing or invalid`;
  return 'is malformed; paste the license exactly as it was issued';
}

/** Issues a license from the vendor's private key (PKCS #8 PEM, P-256): `benchtrack license issue`. */
export async function issueLicense(
  privateKeyPem: string,
  claims: { organization: string; level: PlanLevel; entitlement: number; period: LicensePeriod },
  now: Date,
): Promise<string> {
  const key = await importPKCS8(privateKeyPem, 'ES256').catch(() => {
    throw new InputError('the private key must be a P-256 key in PKCS #8 PEM (-----BEGIN PRIVATE KEY-----)');
  });
  const issued = Math.floor(now.getTime() / 1000);
  return new SignJWT({ lvl: claims.level, ent: claims.entitlement })
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
    .setAudience(LICENSE_AUDIENCE)
    .setSubject(claims.organization)
    .setIssuedAt(issued)
    .setExpirationTime(issued + LICENSE_PERIODS[claims.period] * 86_400)
    .sign(key);
}
