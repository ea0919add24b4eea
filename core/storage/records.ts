/**
 * Rows as storage returns them: integer `id`s join tables inside the database; `uuid`s are what the API shows.
 * Field names follow the columns (and the wire format), hence snake_case.
 */

export type OrganizationRole = 'leader' | 'member';
export type Visibility = 'public' | 'private';

export interface UserRecord {
  readonly id: number;
  readonly uuid: string;
  readonly name: string;
  readonly slug: string;
  /** Stored lower-cased. */
  readonly email: string;
  readonly admin: boolean;
  readonly locked: boolean;
  readonly created: Date;
  readonly modified: Date;
}

export interface ApiTokenRecord {
  readonly id: number;
  readonly uuid: string;
  readonly user_id: number;
  readonly name: string;
  /** SHA-256 (hex) of the token; the token itself is shown once and never stored. */
  readonly token_hash: string;
  readonly creation: Date;
  readonly expiration: Date;
  readonly revoked: Date | null;
}

export interface OrganizationRecord {
  readonly id: number;
  readonly uuid: string;
  readonly name: string;
  readonly slug: string;
  /** Set for the personal organization created at sign-up. */
  readonly personal_user_id: number | null;
  /** `null` for an organization created by an anonymous run that nobody has claimed yet. */
  readonly claimed: Date | null;
  readonly license: string | null;
  readonly created: Date;
  readonly modified: Date;
}

export interface OrganizationRoleRecord {
  readonly organization_id: number;
  readonly user_id: number;
  readonly role: OrganizationRole;
  readonly created: Date;
  readonly modified: Date;
}

export interface InvitationRecord {
  readonly id: number;
  readonly uuid: string;
  readonly organization_id: number;
  readonly email: string;
  readonly role: OrganizationRole;
  readonly invited_by: number;
  readonly created: Date;
  readonly expiration: Date;
  readonly accepted: Date | null;
}

export interface ProjectRecord {
  readonly id: number;
  readonly uuid: string;
  readonly organization_id: number;
  readonly name: string;
  readonly slug: string;
  readonly url: string | null;
  readonly visibility: Visibility;
  readonly created: Date;
  readonly modified: Date;
}

/** A member of an organization: the user and the role. */
export interface MemberRecord extends UserRecord {
  readonly role: OrganizationRole;
  readonly role_created: Date;
  readonly role_modified: Date;
}

/** Insert shape: everything but the generated id. */
export type New<R extends { id: number }> = Omit<R, 'id'>;
