import OpenAI, { type APIError } from 'openai';
import { errorEnvelope } from './errorEnvelope.js';

/**
 * The SDK client `OpenAIChatModel` makes for itself: the SDK's own, except that a failed
 * response whose JSON body is an array of errors (Gemini's format) keeps its message, which
 * the SDK would report as "400 status code (no body)" (see `errorEnvelope`): a request the
 * SDK sends (not streamed) fails with the same message as one on the direct route.
 */
export class ChatClient extends OpenAI {
  protected override makeStatusError(
    status: number,
    error: object,
    message: string | undefined,
    headers: Headers,
  ): APIError {
    return super.makeStatusError(status, errorEnvelope(error) ?? error, message, headers);
  }
}
