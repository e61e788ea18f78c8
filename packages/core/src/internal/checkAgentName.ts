import { InvalidArgumentError } from '../errors.js';

/** `options.name` of an agent of class `className`; throws `InvalidArgumentError` unless a non-empty string. */
export function checkAgentName(className: string, options: { readonly name?: unknown }): string {
  const name = options?.name;
  if (typeof name !== 'string' || name.trim() === '') {
    throw new InvalidArgumentError(`${className}: options.name must be a non-empty string.`);
  }
  return name;
}
