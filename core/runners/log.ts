import type { JobRecord } from '../storage/records.js';
import type { WriteRepositories } from '../storage/storage.js';

/** Output kept per job (UTF-8 bytes, every attempt together); what comes after is counted, not kept. */
export const JOB_LOG_MAX_BYTES = 1_048_576;
/** Jobs per project whose logs are kept: when a job ends, the logs of the project's older jobs are deleted. */
export const JOB_LOGS_KEPT = 100;

const INT_MAX = 2 ** 31 - 1;

/** The longest prefix of `text` within `bytes` UTF-8 bytes that does not cut a character in two. */
function prefixWithin(text: string, bytes: number): string {
  const buffer = Buffer.from(text, 'utf8');
  if (buffer.length <= bytes) return text;
  let end = bytes;
  // step back over continuation bytes (10xxxxxx) to the start of the cut character
  while (end > 0 && ((buffer[end] ?? 0) & 0xc0) === 0x80) end--;
  return buffer.subarray(0, end).toString('utf8');
}

/**
 * Appends output of one attempt to the job's log, within JOB_LOG_MAX_BYTES: what does not fit, and the bytes the
 * runner could not send (`dropped`), are added to the job's count of dropped bytes. Answers the job's new counts,
 * for the caller's update of the job row.
 */
export async function appendLog(
  tx: WriteRepositories,
  job: Pick<JobRecord, 'id' | 'log_bytes' | 'log_dropped'>,
  attempt: number,
  text: string,
  dropped: number,
  now: Date,
): Promise<Pick<JobRecord, 'log_bytes' | 'log_dropped'>> {
  const kept = prefixWithin(text, Math.max(JOB_LOG_MAX_BYTES - job.log_bytes, 0));
  const keptBytes = Buffer.byteLength(kept, 'utf8');
  if (kept !== '') await tx.jobLogs.insert({ job_id: job.id, attempt, text: kept, created: now });
  const lost = Buffer.byteLength(text, 'utf8') - keptBytes + dropped;
  return {
    log_bytes: job.log_bytes + keptBytes,
    log_dropped: Math.min(job.log_dropped + lost, INT_MAX),
  };
}
