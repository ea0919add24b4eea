import type { Migration } from '../migrate.js';

/**
 * Notifications: projects' webhooks, the outbox of events people are told of, the deliveries of each event to a
 * webhook or a person's e-mail with every attempt, and each person's e-mail choice per project.
 */
export const notifications: Migration = {
  version: 7,
  name: 'notifications',
  statements: [
    `CREATE SEQUENCE webhook_id_seq`,
    `CREATE TABLE webhook (
      id INTEGER PRIMARY KEY DEFAULT nextval('webhook_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      project_id INTEGER NOT NULL,
      url VARCHAR NOT NULL,
      secret VARCHAR,
      format VARCHAR NOT NULL,
      events VARCHAR NOT NULL,
      user_id INTEGER,
      created TIMESTAMP NOT NULL,
      modified TIMESTAMP NOT NULL
    )`,
    `CREATE SEQUENCE notification_id_seq`,
    `CREATE TABLE notification (
      id INTEGER PRIMARY KEY DEFAULT nextval('notification_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      project_id INTEGER NOT NULL,
      event VARCHAR NOT NULL,
      regression_id INTEGER,
      report_id INTEGER,
      webhook_id INTEGER,
      payload VARCHAR,
      fanned BOOLEAN NOT NULL,
      created TIMESTAMP NOT NULL
    )`,
    `CREATE SEQUENCE notification_delivery_id_seq`,
    `CREATE TABLE notification_delivery (
      id INTEGER PRIMARY KEY DEFAULT nextval('notification_delivery_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      notification_id INTEGER NOT NULL,
      project_id INTEGER NOT NULL,
      webhook_id INTEGER,
      user_id INTEGER,
      state VARCHAR NOT NULL,
      attempts INTEGER NOT NULL,
      next_attempt TIMESTAMP,
      status INTEGER,
      error VARCHAR,
      created TIMESTAMP NOT NULL,
      modified TIMESTAMP NOT NULL,
      finished TIMESTAMP
    )`,
    `CREATE SEQUENCE notification_attempt_id_seq`,
    `CREATE TABLE notification_attempt (
      id INTEGER PRIMARY KEY DEFAULT nextval('notification_attempt_id_seq'),
      delivery_id INTEGER NOT NULL,
      project_id INTEGER NOT NULL,
      status INTEGER,
      duration_ms INTEGER NOT NULL,
      error VARCHAR,
      response VARCHAR,
      created TIMESTAMP NOT NULL
    )`,
    `CREATE TABLE notification_preference (
      user_id INTEGER NOT NULL,
      project_id INTEGER NOT NULL,
      email VARCHAR NOT NULL,
      created TIMESTAMP NOT NULL,
      modified TIMESTAMP NOT NULL,
      PRIMARY KEY (user_id, project_id)
    )`,
  ],
};
