import type { Migration } from '../migrate.js';

/**
 * Migration 7 on PostgreSQL: webhooks, the outbox, deliveries with their attempts, and
 * e-mail choices, with the indexes the delivery loop and the lists read: notifications waiting for their
 * deliveries and pending deliveries by due time (partial indexes, small whatever the history), a project's
 * notifications by time (digests, pruning), a webhook's deliveries newest first, and a delivery's attempts.
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
      url TEXT NOT NULL,
      secret TEXT,
      format TEXT NOT NULL,
      events TEXT NOT NULL,
      user_id INTEGER,
      created TIMESTAMPTZ NOT NULL,
      modified TIMESTAMPTZ NOT NULL
    )`,
    `CREATE SEQUENCE notification_id_seq`,
    `CREATE TABLE notification (
      id INTEGER PRIMARY KEY DEFAULT nextval('notification_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      project_id INTEGER NOT NULL,
      event TEXT NOT NULL,
      regression_id INTEGER,
      report_id INTEGER,
      webhook_id INTEGER,
      payload TEXT,
      fanned BOOLEAN NOT NULL,
      created TIMESTAMPTZ NOT NULL
    )`,
    `CREATE INDEX notification_new ON notification (id) WHERE NOT fanned`,
    `CREATE INDEX notification_project ON notification (project_id, created)`,
    `CREATE SEQUENCE notification_delivery_id_seq`,
    `CREATE TABLE notification_delivery (
      id INTEGER PRIMARY KEY DEFAULT nextval('notification_delivery_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      notification_id INTEGER NOT NULL,
      project_id INTEGER NOT NULL,
      webhook_id INTEGER,
      user_id INTEGER,
      state TEXT NOT NULL,
      attempts INTEGER NOT NULL,
      next_attempt TIMESTAMPTZ,
      status INTEGER,
      error TEXT,
      created TIMESTAMPTZ NOT NULL,
      modified TIMESTAMPTZ NOT NULL,
      finished TIMESTAMPTZ
    )`,
    `CREATE INDEX notification_delivery_due ON notification_delivery (next_attempt, id) WHERE state = 'pending'`,
    `CREATE INDEX notification_delivery_webhook ON notification_delivery (webhook_id, id)`,
    `CREATE INDEX notification_delivery_notification ON notification_delivery (notification_id)`,
    `CREATE SEQUENCE notification_attempt_id_seq`,
    `CREATE TABLE notification_attempt (
      id INTEGER PRIMARY KEY DEFAULT nextval('notification_attempt_id_seq'),
      delivery_id INTEGER NOT NULL,
      project_id INTEGER NOT NULL,
      status INTEGER,
      duration_ms INTEGER NOT NULL,
      error TEXT,
      response TEXT,
      created TIMESTAMPTZ NOT NULL
    )`,
    `CREATE INDEX notification_attempt_delivery ON notification_attempt (delivery_id, id)`,
    `CREATE INDEX webhook_project ON webhook (project_id)`,
    `CREATE TABLE notification_preference (
      user_id INTEGER NOT NULL,
      project_id INTEGER NOT NULL,
      email TEXT NOT NULL,
      created TIMESTAMPTZ NOT NULL,
      modified TIMESTAMPTZ NOT NULL,
      PRIMARY KEY (user_id, project_id)
    )`,
  ],
};
