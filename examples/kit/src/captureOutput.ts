import { Writable } from 'node:stream';

/** A writable that keeps everything written to it, for tests of an example's output. */
export interface CapturedOutput {
  readonly out: NodeJS.WritableStream;
  /** Everything written so far. */
  text(): string;
}

/** A non-TTY writable collecting text, so output is uncoloured and can be checked. */
export function captureOutput(): CapturedOutput {
  const chunks: string[] = [];
  const out = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      callback();
    },
  });
  return { out, text: () => chunks.join('') };
}
