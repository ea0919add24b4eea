/**
 * A reader of the Arrow IPC streams the perf API writes (core/perf/arrow.ts), in a few kilobytes instead of
 * apache-arrow's 180 KB: one schema, its dictionaries, one record batch; columns of integers, doubles,
 * millisecond timestamps, UTF-8 texts and dictionary-encoded texts, uncompressed, little-endian. Anything else
 * is refused with an error that names it. Values are views of the answer's bytes, not copies.
 *
 * The format: https://arrow.apache.org/docs/format/Columnar.html#serialization-and-interprocess-communication-ipc
 * (each message is a FlatBuffers `Message` from Message.fbs and Schema.fbs, followed by its body).
 */

/** One column of a record batch. `validity` is null when every row holds a value. */
export interface IpcColumn {
  readonly length: number;
  readonly nullCount: number;
  readonly validity: Uint8Array | null;
  /** Integers, doubles, the two 32-bit words of each timestamp (low first), or a dictionary's indices. */
  readonly values: Int32Array | Uint16Array | Float64Array;
  /** The texts of a dictionary-encoded column, decoded; `dictionary[values[i]]` is row i's. */
  readonly dictionary?: readonly string[];
  /** Row i's text of a plain UTF-8 column, decoded when asked. */
  readonly text?: (i: number) => string;
}

export interface IpcTable {
  readonly length: number;
  readonly metadata: ReadonlyMap<string, string>;
  readonly columns: ReadonlyMap<string, IpcColumn>;
}

/** Message header types (MessageHeader in Message.fbs). */
const SCHEMA = 1;
const DICTIONARY_BATCH = 2;
const RECORD_BATCH = 3;
/** Field types (Type in Schema.fbs). */
const INT = 2;
const FLOATING_POINT = 3;
const UTF8 = 5;
const TIMESTAMP = 10;

/** A FlatBuffers table: fields found through its vtable; absent fields read as their defaults. */
class Table {
  constructor(
    readonly view: DataView,
    readonly at: number,
  ) {}

  #field(index: number): number {
    const vtable = this.at - this.view.getInt32(this.at, true);
    const size = this.view.getUint16(vtable, true);
    const slot = 4 + 2 * index;
    return slot < size ? this.view.getUint16(vtable + slot, true) : 0;
  }

  /** Where the field's data starts, or 0 when absent. */
  #pointer(index: number): number {
    const offset = this.#field(index);
    if (offset === 0) return 0;
    const at = this.at + offset;
    return at + this.view.getUint32(at, true);
  }

  uint8(index: number, absent = 0): number {
    const offset = this.#field(index);
    return offset ? this.view.getUint8(this.at + offset) : absent;
  }

  int16(index: number, absent = 0): number {
    const offset = this.#field(index);
    return offset ? this.view.getInt16(this.at + offset, true) : absent;
  }

  int32(index: number, absent = 0): number {
    const offset = this.#field(index);
    return offset ? this.view.getInt32(this.at + offset, true) : absent;
  }

  /** A 64-bit integer; the lengths and offsets here stay far below 2^53. */
  int64(index: number): number {
    const offset = this.#field(index);
    return offset ? int64(this.view, this.at + offset) : 0;
  }

  table(index: number): Table | null {
    const at = this.#pointer(index);
    return at ? new Table(this.view, at) : null;
  }

  string(index: number): string | null {
    const at = this.#pointer(index);
    if (!at) return null;
    const length = this.view.getUint32(at, true);
    return decoder.decode(new Uint8Array(this.view.buffer, this.view.byteOffset + at + 4, length));
  }

  tables(index: number): Table[] {
    const at = this.#pointer(index);
    if (!at) return [];
    return Array.from({ length: this.#count(at, 4) }, (_, i) => {
      const element = at + 4 + 4 * i;
      return new Table(this.view, element + this.view.getUint32(element, true));
    });
  }

  /** A vector of structs of `size` bytes: where each one starts. */
  structs(index: number, size: number): number[] {
    const at = this.#pointer(index);
    if (!at) return [];
    return Array.from({ length: this.#count(at, size) }, (_, i) => at + 4 + size * i);
  }

  /** The length of the vector at `at`, whose elements take `size` bytes, refused when it runs past the bytes. */
  #count(at: number, size: number): number {
    const count = this.view.getUint32(at, true);
    if (at + 4 + size * count > this.view.byteLength) throw malformed('a vector longer than its message');
    return count;
  }
}

function malformed(what: string): Error {
  return new Error(`the perf answer is not a valid Arrow stream: ${what}`);
}

const decoder = new TextDecoder();

function int64(view: DataView, at: number): number {
  return view.getUint32(at, true) + view.getInt32(at + 4, true) * 4_294_967_296;
}

/** How one field's buffers become a column. */
interface FieldReader {
  readonly name: string;
  readonly kind: 'int32' | 'uint16' | 'float64' | 'timestamp' | 'utf8' | 'dictionary';
  readonly dictionaryId?: number;
}

function fieldReader(field: Table): FieldReader {
  const name = field.string(0) ?? '';
  const typeId = field.uint8(2);
  const type = field.table(3);
  const encoding = field.table(4);
  const refuse = (what: string) => new Error(`the perf answer's column ${name} is ${what}: not read here`);
  if (encoding) {
    const index = encoding.table(1);
    if (typeId !== UTF8 || (index && (index.int32(0) !== 32 || index.uint8(1, 0) !== 1)))
      throw refuse('a dictionary other than Int32 indices of UTF-8 texts');
    return { name, kind: 'dictionary', dictionaryId: encoding.int64(0) };
  }
  if (typeId === UTF8) return { name, kind: 'utf8' };
  if (typeId === INT && type) {
    const bits = type.int32(0);
    const signed = type.uint8(1, 0) === 1;
    if (bits === 32 && signed) return { name, kind: 'int32' };
    if (bits === 16 && !signed) return { name, kind: 'uint16' };
    throw refuse(`a ${bits}-bit ${signed ? 'signed' : 'unsigned'} integer`);
  }
  if (typeId === FLOATING_POINT && type?.int16(0) === 2) return { name, kind: 'float64' };
  if (typeId === TIMESTAMP && type?.int16(0) === 1) return { name, kind: 'timestamp' };
  throw refuse(`of type ${typeId}`);
}

/** One message of the stream: its header and its body's bytes. */
interface Message {
  readonly type: number;
  readonly header: Table;
  readonly body: Uint8Array;
}

function* messages(bytes: Uint8Array): Generator<Message> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  while (at + 4 <= bytes.byteLength) {
    // the continuation marker (0xFFFFFFFF) precedes each message's length since Arrow 0.15
    let length = view.getInt32(at, true);
    at += 4;
    if (length === -1) {
      length = view.getInt32(at, true);
      at += 4;
    }
    if (length === 0) return;
    if (length < 0 || at + length > bytes.byteLength) throw malformed('a message longer than the answer');
    const root = new Table(view, at + view.getUint32(at, true));
    at += length;
    const bodyLength = root.int64(3);
    if (bodyLength < 0 || at + bodyLength > bytes.byteLength)
      throw malformed('a message body longer than the answer');
    const header = root.table(2);
    if (!header) throw new Error('the perf answer has a message without a header');
    yield { type: root.uint8(1), header, body: bytes.subarray(at, at + bodyLength) };
    at += bodyLength;
  }
}

/** Reads a record batch's columns; `readers` in schema order. */
function readBatch(batch: Table, body: Uint8Array, readers: readonly FieldReader[]): IpcColumn[] {
  if (batch.table(3)) throw new Error('the perf answer is compressed: not read here');
  const headerView = batch.view;
  const nodes = batch.structs(1, 16);
  const buffers = batch.structs(2, 16).map((at) => ({
    offset: int64(headerView, at),
    length: int64(headerView, at + 8),
  }));
  let next = 0;
  const buffer = () => {
    const b = buffers[next++];
    if (!b) throw new Error('the perf answer has fewer buffers than columns need');
    return body.subarray(b.offset, b.offset + b.length);
  };
  return readers.map((reader, k) => {
    const node = nodes[k];
    if (node === undefined) throw new Error(`the perf answer has no data for column ${reader.name}`);
    const length = int64(headerView, node);
    const nullCount = int64(headerView, node + 8);
    const bitmap = buffer();
    const validity = nullCount > 0 && bitmap.byteLength > 0 ? bitmap : null;
    if (reader.kind === 'utf8') {
      const offsets = typed(Int32Array, buffer(), length + 1);
      const data = buffer();
      const text = (i: number) => decoder.decode(data.subarray(offsets[i]!, offsets[i + 1]!));
      return { length, nullCount, validity, values: offsets, text };
    }
    const values =
      reader.kind === 'float64'
        ? typed(Float64Array, buffer(), length)
        : reader.kind === 'uint16'
          ? typed(Uint16Array, buffer(), length)
          : typed(Int32Array, buffer(), reader.kind === 'timestamp' ? 2 * length : length);
    return { length, nullCount, validity, values };
  });
}

type TypedArrayOf<T> = {
  new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
  new (length: number): T;
  readonly BYTES_PER_ELEMENT: number;
};

/** A typed view of a buffer, copied only when the bytes are not aligned for it. */
function typed<T extends { set(array: ArrayLike<number>): void }>(
  type: TypedArrayOf<T>,
  bytes: Uint8Array,
  length: number,
): T {
  if (bytes.byteLength < length * type.BYTES_PER_ELEMENT)
    throw new Error('the perf answer has a buffer shorter than its column');
  if (bytes.byteOffset % type.BYTES_PER_ELEMENT === 0)
    return new type(bytes.buffer as ArrayBuffer, bytes.byteOffset, length);
  const copy = new Uint8Array(length * type.BYTES_PER_ELEMENT);
  copy.set(bytes.subarray(0, copy.byteLength));
  return new type(copy.buffer, 0, length);
}

/** Reads an Arrow IPC stream of one record batch (see the module's comment for what it takes). */
export function readArrowStream(bytes: Uint8Array): IpcTable {
  let readers: FieldReader[] | undefined;
  let metadata = new Map<string, string>();
  const dictionaries = new Map<number, readonly string[]>();
  let table: IpcTable | undefined;
  for (const message of messages(bytes)) {
    if (message.type === SCHEMA) {
      if (message.header.int16(0) !== 0) throw new Error('the perf answer is big-endian: not read here');
      readers = message.header.tables(1).map(fieldReader);
      metadata = new Map(message.header.tables(2).map((kv) => [kv.string(0) ?? '', kv.string(1) ?? '']));
    } else if (message.type === DICTIONARY_BATCH) {
      const data = message.header.table(1);
      if (!data || message.header.uint8(2) === 1) throw new Error('the perf answer has a delta dictionary');
      const [texts] = readBatch(data, message.body, [{ name: 'dictionary', kind: 'utf8' }]);
      const text = texts?.text ?? (() => '');
      dictionaries.set(
        message.header.int64(0),
        Array.from({ length: texts?.length ?? 0 }, (_, i) => text(i)),
      );
    } else if (message.type === RECORD_BATCH) {
      if (!readers) throw new Error('the perf answer has a record batch before its schema');
      if (table) throw new Error('the perf answer has more than one record batch: not read here');
      const columns = readBatch(message.header, message.body, readers);
      table = {
        length: message.header.int64(0),
        metadata,
        columns: new Map(
          readers.map((reader, k) => {
            const column = columns[k]!;
            if (reader.kind !== 'dictionary') return [reader.name, column];
            // an empty answer comes without its (empty) dictionaries
            const dictionary =
              dictionaries.get(reader.dictionaryId!) ?? (column.length === 0 ? [] : undefined);
            if (!dictionary) throw new Error(`the perf answer has no dictionary for column ${reader.name}`);
            return [reader.name, { ...column, dictionary }];
          }),
        ),
      };
    }
  }
  return table ?? { length: 0, metadata, columns: new Map() };
}
