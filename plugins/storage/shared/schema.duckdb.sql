-- migration 1: initial data model
CREATE TABLE server_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE SEQUENCE user_id_seq;

CREATE TABLE users (
id INTEGER PRIMARY KEY DEFAULT nextval('user_id_seq'),
uuid UUID NOT NULL UNIQUE,
name TEXT NOT NULL,
slug TEXT NOT NULL UNIQUE,
email TEXT NOT NULL UNIQUE,
admin BOOLEAN NOT NULL DEFAULT false,
locked BOOLEAN NOT NULL DEFAULT false,
created TIMESTAMP NOT NULL, modified TIMESTAMP NOT NULL
);

CREATE SEQUENCE api_token_id_seq;

CREATE TABLE api_token (
id INTEGER PRIMARY KEY DEFAULT nextval('api_token_id_seq'),
uuid UUID NOT NULL UNIQUE,
user_id INTEGER NOT NULL,
name TEXT NOT NULL,
token_hash TEXT NOT NULL UNIQUE,
creation TIMESTAMP NOT NULL,
expiration TIMESTAMP NOT NULL,
revoked TIMESTAMP
);

CREATE SEQUENCE organization_id_seq;

CREATE TABLE organization (
id INTEGER PRIMARY KEY DEFAULT nextval('organization_id_seq'),
uuid UUID NOT NULL UNIQUE,
name TEXT NOT NULL,
slug TEXT NOT NULL UNIQUE,
personal_user_id INTEGER,
claimed TIMESTAMP,
license TEXT,
created TIMESTAMP NOT NULL, modified TIMESTAMP NOT NULL
);

CREATE TABLE organization_role (
organization_id INTEGER NOT NULL,
user_id INTEGER NOT NULL,
role TEXT NOT NULL,
created TIMESTAMP NOT NULL, modified TIMESTAMP NOT NULL,
PRIMARY KEY (organization_id, user_id)
);

CREATE SEQUENCE invitation_id_seq;

CREATE TABLE invitation (
id INTEGER PRIMARY KEY DEFAULT nextval('invitation_id_seq'),
uuid UUID NOT NULL UNIQUE,
organization_id INTEGER NOT NULL,
email TEXT NOT NULL,
role TEXT NOT NULL,
invited_by INTEGER NOT NULL,
created TIMESTAMP NOT NULL,
expiration TIMESTAMP NOT NULL,
accepted TIMESTAMP
);

CREATE SEQUENCE project_id_seq;

CREATE TABLE project (
id INTEGER PRIMARY KEY DEFAULT nextval('project_id_seq'),
uuid UUID NOT NULL UNIQUE,
organization_id INTEGER NOT NULL,
name TEXT NOT NULL,
slug TEXT NOT NULL UNIQUE,
url TEXT,
visibility TEXT NOT NULL,
created TIMESTAMP NOT NULL, modified TIMESTAMP NOT NULL,
UNIQUE (organization_id, name)
);

CREATE TABLE project_role (
project_id INTEGER NOT NULL,
user_id INTEGER NOT NULL,
role TEXT NOT NULL,
created TIMESTAMP NOT NULL, modified TIMESTAMP NOT NULL,
PRIMARY KEY (project_id, user_id)
);

CREATE SEQUENCE branch_id_seq;

CREATE TABLE branch (
id INTEGER PRIMARY KEY DEFAULT nextval('branch_id_seq'),
uuid UUID NOT NULL UNIQUE,
project_id INTEGER NOT NULL,
name TEXT NOT NULL,
slug TEXT NOT NULL,
head_id INTEGER,
archived BOOLEAN NOT NULL DEFAULT false,
created TIMESTAMP NOT NULL, modified TIMESTAMP NOT NULL,
UNIQUE (project_id, slug),
UNIQUE (project_id, name)
);

CREATE SEQUENCE head_id_seq;

CREATE TABLE head (
id INTEGER PRIMARY KEY DEFAULT nextval('head_id_seq'),
uuid UUID NOT NULL UNIQUE,
branch_id INTEGER NOT NULL,
start_point_branch_id INTEGER,
start_point_head_id INTEGER,
start_point_version_id INTEGER,
max_versions INTEGER,
created TIMESTAMP NOT NULL,
replaced TIMESTAMP
);

CREATE SEQUENCE version_id_seq;

CREATE TABLE version (
id INTEGER PRIMARY KEY DEFAULT nextval('version_id_seq'),
uuid UUID NOT NULL UNIQUE,
project_id INTEGER NOT NULL,
number INTEGER NOT NULL,
hash TEXT,
created TIMESTAMP NOT NULL
);

CREATE TABLE head_version (
head_id INTEGER NOT NULL,
version_id INTEGER NOT NULL,
PRIMARY KEY (head_id, version_id)
);

CREATE SEQUENCE testbed_id_seq;

CREATE TABLE testbed (
id INTEGER PRIMARY KEY DEFAULT nextval('testbed_id_seq'),
uuid UUID NOT NULL UNIQUE,
project_id INTEGER NOT NULL,
name TEXT NOT NULL,
slug TEXT NOT NULL,
archived BOOLEAN NOT NULL DEFAULT false,
created TIMESTAMP NOT NULL, modified TIMESTAMP NOT NULL,
UNIQUE (project_id, slug),
UNIQUE (project_id, name)
);

CREATE SEQUENCE benchmark_id_seq;

CREATE TABLE benchmark (
id INTEGER PRIMARY KEY DEFAULT nextval('benchmark_id_seq'),
uuid UUID NOT NULL UNIQUE,
project_id INTEGER NOT NULL,
name TEXT NOT NULL,
slug TEXT NOT NULL,
archived BOOLEAN NOT NULL DEFAULT false,
created TIMESTAMP NOT NULL, modified TIMESTAMP NOT NULL,
UNIQUE (project_id, slug),
UNIQUE (project_id, name)
);

CREATE SEQUENCE measure_id_seq;

CREATE TABLE measure (
id INTEGER PRIMARY KEY DEFAULT nextval('measure_id_seq'),
uuid UUID NOT NULL UNIQUE,
project_id INTEGER NOT NULL,
name TEXT NOT NULL,
slug TEXT NOT NULL,
units TEXT NOT NULL,
archived BOOLEAN NOT NULL DEFAULT false,
created TIMESTAMP NOT NULL, modified TIMESTAMP NOT NULL,
UNIQUE (project_id, slug),
UNIQUE (project_id, name)
);

CREATE SEQUENCE series_id_seq;

CREATE TABLE series (
id INTEGER PRIMARY KEY DEFAULT nextval('series_id_seq'),
project_id INTEGER NOT NULL,
testbed_id INTEGER NOT NULL,
benchmark_id INTEGER NOT NULL,
measure_id INTEGER NOT NULL,
UNIQUE (testbed_id, benchmark_id, measure_id)
);

CREATE SEQUENCE threshold_id_seq;

CREATE TABLE threshold (
id INTEGER PRIMARY KEY DEFAULT nextval('threshold_id_seq'),
uuid UUID NOT NULL UNIQUE,
project_id INTEGER NOT NULL,
branch_id INTEGER NOT NULL,
testbed_id INTEGER NOT NULL,
measure_id INTEGER NOT NULL,
model_id INTEGER,
created TIMESTAMP NOT NULL, modified TIMESTAMP NOT NULL,
UNIQUE (branch_id, testbed_id, measure_id)
);

CREATE SEQUENCE model_id_seq;

CREATE TABLE model (
id INTEGER PRIMARY KEY DEFAULT nextval('model_id_seq'),
uuid UUID NOT NULL UNIQUE,
threshold_id INTEGER NOT NULL,
test TEXT NOT NULL,
min_sample_size INTEGER,
max_sample_size INTEGER,
window_seconds BIGINT,
lower_boundary DOUBLE PRECISION,
upper_boundary DOUBLE PRECISION,
created TIMESTAMP NOT NULL,
replaced TIMESTAMP
);

CREATE SEQUENCE report_id_seq;

CREATE TABLE report (
id INTEGER PRIMARY KEY DEFAULT nextval('report_id_seq'),
uuid UUID NOT NULL UNIQUE,
project_id INTEGER NOT NULL,
user_id INTEGER,
branch_id INTEGER NOT NULL,
head_id INTEGER NOT NULL,
version_id INTEGER NOT NULL,
testbed_id INTEGER NOT NULL,
adapter TEXT NOT NULL,
idempotency_key UUID,
start_time TIMESTAMP NOT NULL,
end_time TIMESTAMP NOT NULL,
created TIMESTAMP NOT NULL,
UNIQUE (project_id, idempotency_key)
);

CREATE TABLE metric (
id BIGINT NOT NULL,
uuid UUID NOT NULL,
project_id INTEGER NOT NULL,
report_id INTEGER NOT NULL,
iteration INTEGER NOT NULL,
series_id INTEGER NOT NULL,
head_id INTEGER NOT NULL,
version_id INTEGER NOT NULL,
start_time TIMESTAMP NOT NULL,
end_time TIMESTAMP NOT NULL,
value DOUBLE PRECISION NOT NULL,
lower_value DOUBLE PRECISION,
upper_value DOUBLE PRECISION,
threshold_id INTEGER,
model_id INTEGER,
baseline DOUBLE PRECISION,
lower_limit DOUBLE PRECISION,
upper_limit DOUBLE PRECISION
);

CREATE SEQUENCE alert_id_seq;

CREATE TABLE alert (
id INTEGER PRIMARY KEY DEFAULT nextval('alert_id_seq'),
uuid UUID NOT NULL UNIQUE,
project_id INTEGER NOT NULL,
report_id INTEGER NOT NULL,
metric_id BIGINT NOT NULL,
head_id INTEGER NOT NULL,
threshold_id INTEGER NOT NULL,
model_id INTEGER NOT NULL,
boundary_limit TEXT NOT NULL,
status TEXT NOT NULL,
created TIMESTAMP NOT NULL, modified TIMESTAMP NOT NULL
);

CREATE SEQUENCE plot_id_seq;

CREATE TABLE plot (
id INTEGER PRIMARY KEY DEFAULT nextval('plot_id_seq'),
uuid UUID NOT NULL UNIQUE,
project_id INTEGER NOT NULL,
rank INTEGER NOT NULL,
title TEXT,
lower_value BOOLEAN NOT NULL,
upper_value BOOLEAN NOT NULL,
lower_boundary BOOLEAN NOT NULL,
upper_boundary BOOLEAN NOT NULL,
x_axis TEXT NOT NULL,
y_axis TEXT NOT NULL,
window_seconds BIGINT NOT NULL,
branch_ids INTEGER[] NOT NULL,
testbed_ids INTEGER[] NOT NULL,
benchmark_ids INTEGER[] NOT NULL,
measure_ids INTEGER[] NOT NULL,
created TIMESTAMP NOT NULL, modified TIMESTAMP NOT NULL
);

-- migration 2: change-point alerts
ALTER TABLE alert ADD COLUMN change_before DOUBLE PRECISION;

ALTER TABLE alert ADD COLUMN change_after DOUBLE PRECISION;

ALTER TABLE alert ADD COLUMN change_p_value DOUBLE PRECISION;

-- migration 3: usage and stats
CREATE TABLE organization_usage (
organization_id INTEGER NOT NULL,
day DATE NOT NULL,
metrics BIGINT NOT NULL,
PRIMARY KEY (organization_id, day)
);

INSERT INTO organization_usage
SELECT p.organization_id, CAST(r.created AS DATE), count(*)
FROM metric m JOIN report r ON r.id = m.report_id JOIN project p ON p.id = r.project_id
GROUP BY 1, 2;

CREATE TABLE stats_snapshot (day DATE PRIMARY KEY, stats TEXT NOT NULL);

-- migration 4: usage entries
CREATE SEQUENCE usage_entry_id_seq;

CREATE TABLE usage_entry (
id BIGINT PRIMARY KEY DEFAULT nextval('usage_entry_id_seq'),
organization_id INTEGER NOT NULL,
day DATE NOT NULL,
metrics BIGINT NOT NULL
);

INSERT INTO usage_entry (organization_id, day, metrics)
SELECT organization_id, day, metrics FROM organization_usage ORDER BY day, organization_id;

DROP TABLE organization_usage;

-- migration 5: regressions
ALTER TABLE measure ADD COLUMN direction TEXT;

CREATE SEQUENCE regression_id_seq;

CREATE TABLE regression (
id INTEGER PRIMARY KEY DEFAULT nextval('regression_id_seq'),
uuid UUID NOT NULL UNIQUE,
project_id INTEGER NOT NULL,
branch_id INTEGER NOT NULL,
head_id INTEGER NOT NULL,
testbed_id INTEGER NOT NULL,
kind TEXT NOT NULL,
status TEXT NOT NULL,
last_good_version_id INTEGER,
first_bad_version_id INTEGER NOT NULL,
fixed_version_id INTEGER,
note TEXT,
issue_url TEXT,
assignee_id INTEGER,
reason TEXT,
created TIMESTAMP NOT NULL, modified TIMESTAMP NOT NULL
);

CREATE TABLE regression_series (
regression_id INTEGER NOT NULL,
project_id INTEGER NOT NULL,
series_id INTEGER NOT NULL,
benchmark_id INTEGER NOT NULL,
measure_id INTEGER NOT NULL,
state TEXT NOT NULL,
before_value DOUBLE PRECISION NOT NULL,
after_value DOUBLE PRECISION NOT NULL,
p_value DOUBLE PRECISION,
created TIMESTAMP NOT NULL, modified TIMESTAMP NOT NULL,
PRIMARY KEY (regression_id, series_id)
);

CREATE TABLE regression_alert (
alert_id INTEGER PRIMARY KEY,
regression_id INTEGER NOT NULL,
project_id INTEGER NOT NULL,
series_id INTEGER NOT NULL
);

CREATE SEQUENCE regression_event_id_seq;

CREATE TABLE regression_event (
id INTEGER PRIMARY KEY DEFAULT nextval('regression_event_id_seq'),
regression_id INTEGER NOT NULL,
project_id INTEGER NOT NULL,
user_id INTEGER,
status TEXT NOT NULL,
previous_status TEXT,
changes TEXT,
reason TEXT,
created TIMESTAMP NOT NULL
);

-- migration 6: runners and jobs
CREATE SEQUENCE runner_id_seq;

CREATE TABLE runner (
id INTEGER PRIMARY KEY DEFAULT nextval('runner_id_seq'),
uuid UUID NOT NULL UNIQUE,
organization_id INTEGER,
name TEXT NOT NULL,
slug TEXT NOT NULL UNIQUE,
key_hash TEXT NOT NULL UNIQUE,
archived BOOLEAN NOT NULL DEFAULT false,
last_seen TIMESTAMP,
created TIMESTAMP NOT NULL, modified TIMESTAMP NOT NULL
);

CREATE TABLE runner_spec (
runner_id INTEGER NOT NULL,
spec TEXT NOT NULL,
PRIMARY KEY (runner_id, spec)
);

CREATE SEQUENCE job_id_seq;

CREATE TABLE job (
id INTEGER PRIMARY KEY DEFAULT nextval('job_id_seq'),
uuid UUID NOT NULL UNIQUE,
project_id INTEGER NOT NULL,
user_id INTEGER,
spec TEXT NOT NULL,
state TEXT NOT NULL,
definition TEXT NOT NULL,
timeout_seconds INTEGER NOT NULL,
runner_id INTEGER,
attempt INTEGER NOT NULL,
lease_expires TIMESTAMP,
heartbeat TIMESTAMP,
reason TEXT,
report_id INTEGER,
log_bytes INTEGER NOT NULL,
log_dropped INTEGER NOT NULL,
created TIMESTAMP NOT NULL, modified TIMESTAMP NOT NULL,
started TIMESTAMP,
finished TIMESTAMP
);

CREATE SEQUENCE job_log_id_seq;

CREATE TABLE job_log (
id INTEGER PRIMARY KEY DEFAULT nextval('job_log_id_seq'),
job_id INTEGER NOT NULL,
attempt INTEGER NOT NULL,
text TEXT NOT NULL,
created TIMESTAMP NOT NULL
);

-- migration 7: notifications
CREATE SEQUENCE webhook_id_seq;

CREATE TABLE webhook (
id INTEGER PRIMARY KEY DEFAULT nextval('webhook_id_seq'),
uuid UUID NOT NULL UNIQUE,
project_id INTEGER NOT NULL,
url TEXT NOT NULL,
secret TEXT,
format TEXT NOT NULL,
events TEXT NOT NULL,
user_id INTEGER,
created TIMESTAMP NOT NULL, modified TIMESTAMP NOT NULL
);

CREATE SEQUENCE notification_id_seq;

CREATE TABLE notification (
id INTEGER PRIMARY KEY DEFAULT nextval('notification_id_seq'),
uuid UUID NOT NULL UNIQUE,
project_id INTEGER NOT NULL,
event TEXT NOT NULL,
regression_id INTEGER,
report_id INTEGER,
webhook_id INTEGER,
payload TEXT,
fanned BOOLEAN NOT NULL,
created TIMESTAMP NOT NULL
);

CREATE SEQUENCE notification_delivery_id_seq;

CREATE TABLE notification_delivery (
id INTEGER PRIMARY KEY DEFAULT nextval('notification_delivery_id_seq'),
uuid UUID NOT NULL UNIQUE,
notification_id INTEGER NOT NULL,
project_id INTEGER NOT NULL,
webhook_id INTEGER,
user_id INTEGER,
state TEXT NOT NULL,
attempts INTEGER NOT NULL,
next_attempt TIMESTAMP,
status INTEGER,
error TEXT,
created TIMESTAMP NOT NULL, modified TIMESTAMP NOT NULL,
finished TIMESTAMP
);

CREATE SEQUENCE notification_attempt_id_seq;

CREATE TABLE notification_attempt (
id INTEGER PRIMARY KEY DEFAULT nextval('notification_attempt_id_seq'),
delivery_id INTEGER NOT NULL,
project_id INTEGER NOT NULL,
status INTEGER,
duration_ms INTEGER NOT NULL,
error TEXT,
response TEXT,
created TIMESTAMP NOT NULL
);

CREATE TABLE notification_preference (
user_id INTEGER NOT NULL,
project_id INTEGER NOT NULL,
email TEXT NOT NULL,
created TIMESTAMP NOT NULL, modified TIMESTAMP NOT NULL,
PRIMARY KEY (user_id, project_id)
);

-- migration 8: sealed metric segments
INSERT INTO server_meta SELECT 'metric.sealed_through', value FROM server_meta
WHERE key = 'metric.clustered_through' ON CONFLICT (key) DO NOTHING;
