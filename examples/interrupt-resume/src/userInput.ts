import { createInterface } from 'node:readline/promises';
import { Observable } from 'rxjs';

/** The user's side of the terminal: where keys and answers come from. */
export type Input = NodeJS.ReadStream;

/**
 * Emits once when the user presses any key, then completes. Cold: each subscription puts the
 * terminal in raw mode (so a single key counts, no Enter needed) and unsubscribing restores
 * it. Ctrl-C counts as a key here: it interrupts the agent, it does not kill the program.
 */
export function keypress(input: Input): Observable<string> {
  return new Observable<string>((subscriber) => {
    const wasRaw = input.isRaw;
    input.setRawMode(true);
    const onData = (data: Buffer): void => {
      subscriber.next(data.toString('utf8'));
      subscriber.complete();
    };
    input.on('data', onData);
    input.resume();
    return () => {
      input.off('data', onData);
      input.setRawMode(wasRaw);
      input.pause();
    };
  });
}

/** Asks a yes/no question on the terminal; only "y" or "yes" counts as yes. */
export async function askYesNo(
  question: string,
  input: Input,
  output: NodeJS.WritableStream,
): Promise<boolean> {
  const prompt = createInterface({ input, output });
  try {
    const answer = await prompt.question(`${question} [y/N] `);
    return /^y(es)?$/iu.test(answer.trim());
  } finally {
    prompt.close();
  }
}
