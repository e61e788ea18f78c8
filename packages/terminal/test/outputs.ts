/** A writable that keeps what was written, as a TTY or not. */
export function capture(isTTY = false) {
  const out = {
    text: '',
    isTTY,
    write(chunk: string) {
      out.text += chunk;
      return true;
    },
  };
  return out as typeof out & NodeJS.WritableStream;
}

/** A clock that advances 100 ms per reading. */
export function steppingClock(): () => number {
  let now = 0;
  return () => {
    now += 100;
    return now;
  };
}
