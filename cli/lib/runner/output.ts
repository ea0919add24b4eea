import { StringDecoder } from 'node:string_decoder';
import { JOB_OUTPUT_CHUNK_MAX } from '../../../core/schemas/jobs.js';

/**
 * A job's output waiting for the next heartbeat. It holds at most what one heartbeat may carry: what comes
 * faster is counted as dropped (the job's log says how much), so a command that floods its output costs the
 * runner bounded memory.
 */
export class PendingOutput {
  readonly #decoder = new StringDecoder('utf8');
  #text = '';
  #dropped = 0;

  write(chunk: Buffer | string): void {
    const text = typeof chunk === 'string' ? chunk : this.#decoder.write(chunk);
    const room = JOB_OUTPUT_CHUNK_MAX - this.#text.length;
    if (text.length <= room) this.#text += text;
    else {
      this.#text += text.slice(0, room);
      this.#dropped += Buffer.byteLength(text.slice(room), 'utf8');
    }
  }

  get empty(): boolean {
    return this.#text === '' && this.#dropped === 0;
  }

  /** What waits, for a heartbeat; put it back with `restore` when the heartbeat fails. */
  take(): { output: string; dropped: number } {
    const taken = { output: this.#text, dropped: this.#dropped };
    this.#text = '';
    this.#dropped = 0;
    return taken;
  }

  restore(taken: { output: string; dropped: number }): void {
    const newer = this.take();
    this.#text = taken.output;
    this.#dropped = taken.dropped;
    this.write(newer.output);
    this.#dropped += newer.dropped;
  }
}
