import { InputError } from '../errors.js';

/** Where `database.data_store.access_point` sends backups. */
export interface AccessPoint {
  /** What the S3 API takes as the bucket: the access point ARN (AWS) or its name (an S3-compatible endpoint). */
  readonly arn: string;
  readonly name: string;
  readonly region: string;
  /** Key prefix inside the bucket, empty or ending with `/`. */
  readonly prefix: string;
}

const ARN =
  /^arn:(?<partition>aws[a-z-]*):s3:(?<region>[a-z0-9-]+):(?<account>\d{12}):accesspoint\/(?<name>[a-z0-9][a-z0-9-]{1,48}[a-z0-9])(?:\/(?<path>.*))?$/;

export const ACCESS_POINT_FORM =
  'arn:aws:s3:<region>:<12-digit account id>:accesspoint/<access point name>[/<path>]';

/** Parses an access point ARN with an optional path after the name; undefined when it is not one. */
export function parseAccessPoint(value: string): AccessPoint | undefined {
  const groups = ARN.exec(value)?.groups;
  if (!groups) return undefined;
  const { partition = '', region = '', account = '', name = '', path = '' } = groups;
  const segments = path.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment === '.' || segment === '..')) return undefined;
  return {
    arn: `arn:${partition}:s3:${region}:${account}:accesspoint/${name}`,
    name,
    region,
    prefix: segments.map((segment) => `${segment}/`).join(''),
  };
}

/** `s3://<access point name>/<key>`: where a backup went, and what restore takes back. */
export function objectUrl(point: AccessPoint, key: string): string {
  return `s3://${point.name}/${key}`;
}

/** The key of an `s3://` URL, which must name the configured access point. */
export function keyOfUrl(point: AccessPoint, url: string): string {
  const match = /^s3:\/\/(?<name>[^/]+)\/(?<key>.+)$/.exec(url)?.groups;
  if (!match || match.name !== point.name)
    throw new InputError(
      `backup URL ${url} must look like s3://${point.name}/<key>: the access point of database.data_store`,
    );
  return match.key as string;
}
