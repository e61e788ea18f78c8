import type { SecretPattern } from '@rxagent/core';

/**
 * URLs of hosts that only exist inside the company network (`*.internal`, `*.corp`,
 * `intranet.*`, private IPv4 ranges), redacted from tool output on top of the API keys and
 * tokens `redactSecretsHook` knows. Sentence punctuation after a URL is kept.
 */
export const INTERNAL_URL: SecretPattern = {
  label: 'internal-url',
  pattern:
    /\bhttps?:\/\/(?:[a-z0-9-]+\.)*(?:[a-z0-9-]+\.(?:internal|local|corp|lan|intranet)|intranet\.[a-z0-9.-]+|10(?:\.\d{1,3}){3}|192\.168(?:\.\d{1,3}){2}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2})(?::\d+)?(?:[/?#](?:[^\s)\]>"'`]*[^\s)\]>"'`.,;:!?])?)?/gi,
};
