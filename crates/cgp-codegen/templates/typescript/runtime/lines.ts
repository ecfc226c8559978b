// The bounded reader of lines from a stream (a provider's standard output, a
// socket): any AsyncIterable of byte chunks, such as a Node Readable. Copied
// as-is by `cargo xtask codegen`; do not edit.

// The WHATWG decoder every runtime has (Node, Deno, browsers); the package
// compiles without the DOM or Node type libraries, so its shape is declared here.
declare const TextDecoder: new (
  label: string,
  options: { fatal: boolean; ignoreBOM: boolean },
) => { decode(input: Uint8Array): string };

/** The longest line `readLines` yields: 16 MiB before the line feed, about
 * where the reference host stops reading a line. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** A line longer than the limit, refused before it is held whole; the stream
 * is then in the middle of that line, so a host stops reading it. */
export class LineTooLongError extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super(`a line longer than ${limit} bytes (before its line feed)`);
    this.name = "LineTooLongError";
    this.limit = limit;
  }
}

/** Yields each line of `stream` without its line feed (a last line without
 * one too), its bytes read as UTF-8 with invalid sequences replaced, as the
 * reference stdio reader reads them; throws `LineTooLongError` as soon as a
 * line has more than `limit` bytes before its line feed. Pass each line to
 * `decodeEnvelope`. */
export async function* readLines(
  stream: AsyncIterable<Uint8Array>,
  limit: number = MAX_LINE_BYTES,
): AsyncGenerator<string, void, undefined> {
  const text = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
  let pending: Uint8Array[] = [];
  let length = 0;
  const take = (last: Uint8Array): string => {
    const line = new Uint8Array(length + last.length);
    let at = 0;
    for (const part of pending) {
      line.set(part, at);
      at += part.length;
    }
    line.set(last, at);
    pending = [];
    length = 0;
    return text.decode(line);
  };
  for await (const chunk of stream) {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(10, start);
      const content = chunk.subarray(start, end === -1 ? chunk.length : end);
      if (length + content.length > limit) throw new LineTooLongError(limit);
      if (end === -1) {
        if (content.length > 0) {
          pending.push(content.slice());
          length += content.length;
        }
        break;
      }
      yield take(content);
      start = end + 1;
    }
  }
  if (length > 0) yield take(new Uint8Array(0));
}
