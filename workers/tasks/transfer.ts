import { move, transferableSymbol, valueSymbol } from 'piscina';

/**
 * Wraps a task result so the given typed arrays' buffers are moved back to the main thread instead of being
 * copied.
 */
export function transferResult<T extends object>(value: T, arrays: readonly ArrayBufferView[]): T {
  const buffers = [...new Set(arrays.map((array) => array.buffer))];
  return move({
    get [transferableSymbol]() {
      return buffers;
    },
    get [valueSymbol]() {
      return value;
    },
  }) as unknown as T;
}
