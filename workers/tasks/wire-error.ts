import {
  BenchtrackError,
  ConflictError,
  errorName,
  InputError,
  InternalError,
  NotFoundError,
  PluginError,
  StorageError,
} from '../../core/errors.js';

/**
 * An error as it crosses the thread boundary. Structured cloning keeps an Error's message but turns every
 * non-standard name into "Error" and drops own properties, so the error handler (which maps by name) would see a
 * 500 for what is an InputError. Tasks throw this plain object instead; the main thread revives it.
 */
export interface WireError {
  readonly wireError: true;
  readonly name: string;
  readonly message: string;
  readonly details: Record<string, unknown>;
}

/** The clone-safe form of anything a task throws (details must hold plain data, as core's errors do). */
export function toWireError(error: unknown): WireError {
  const details = error instanceof BenchtrackError ? { ...error.details } : {};
  const message = error instanceof Error ? error.message : String(error);
  return { wireError: true, name: errorName(error) ?? 'Error', message, details };
}

const REVIVE: Record<string, new (message: string, details: Record<string, unknown>) => BenchtrackError> = {
  InputError,
  NotFoundError,
  ConflictError,
  PluginError,
  StorageError,
  InternalError,
};

/** The error a task threw, rebuilt with its class and name; anything else is returned unchanged. */
export function fromWireError(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || (value as Partial<WireError>).wireError !== true)
    return value;
  const { name, message, details } = value as WireError;
  const Revived = REVIVE[name];
  if (Revived) return new Revived(message, details);
  const error = new Error(message);
  error.name = name;
  return error;
}
