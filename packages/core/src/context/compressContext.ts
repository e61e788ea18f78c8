import { concatMap, defer, map, type Observable, of, reduce, throwError } from 'rxjs';
import type { Agent } from '../agent/agent.js';
import { ContextWindowError, InvalidArgumentError, ModelError } from '../errors.js';
import type { HookEvent, PostCompressEvent, PreCompressEvent } from '../hooks/hookEvent.js';
import type { Msg } from '../message/msg.js';
import type { ChatChunk, ChatModel, ToolSchema, Usage } from '../model/chatModel.js';
import { ChatResponseAccumulator } from '../model/chatResponse.js';
import type { Formatter } from '../model/formatMessages.js';
import { checkOptions, optionNames } from '../options/checkOptions.js';
import {
  type CompressionInfo,
  dropMarkerMsg,
  summaryMsg,
  withCompressionInfo,
} from './compressedMsg.js';
import type { ContextRequest, TokenCounter } from './contextRequest.js';
import { estimateTokens } from './estimateTokens.js';
import {
  type CompressionPlan,
  DEFAULT_KEEP_RECENT,
  planCompression,
  withSummary,
} from './planCompression.js';
import { summaryRequest } from './summaryRequest.js';

/** How the oldest messages are replaced: by a model-written summary, or by a drop marker. */
export type CompressionStrategy = 'summarize' | 'drop';

/** What `compressContext` needs: the request about to be sent, and the context settings. */
export interface CompressContextOptions {
  /** The agent whose memory this is; hook events carry it. */
  readonly agent: Agent;
  /** Memory, oldest first (what the request would send, without the system prompt). */
  readonly messages: readonly Msg[];
  readonly systemPrompt: string;
  readonly tools: readonly ToolSchema[];
  /** The most tokens a request may count. */
  readonly maxTokens: number;
  /** The newest messages always kept (default 6), counted after the `pinned` ones. */
  readonly keepRecent?: number;
  /**
   * Ids of messages never replaced whatever the strategy: the running call's input (the
   * question being worked on). See `planCompression`.
   */
  readonly pinned?: Iterable<string>;
  /** Default `'summarize'`. */
  readonly strategy?: CompressionStrategy;
  /** Writes the summary (required for `'summarize'`; the agent passes its own model by default). */
  readonly summaryModel?: ChatModel;
  /** Default `estimateTokens` (about 4 characters a token). */
  readonly countTokens?: TokenCounter;
  /**
   * Replace only as many old messages as it takes for the rest of the request to count at
   * most this (default half of `maxTokens`), so the summary has room and the next steps do
   * not compress again at once.
   */
  readonly targetTokens?: number;
  /** Runs hooks on an event (the agent's `notify`); without it no hook runs. */
  readonly notify?: <E extends HookEvent>(event: E) => Observable<E>;
  /** Aborts the summary request. */
  readonly signal?: AbortSignal;
  /** The agent's formatter, name and model, so tokens are counted on what is really sent. */
  readonly formatter?: Formatter;
  readonly selfName?: string;
  readonly model?: string;
}

const COMPRESS_KEYS = optionNames<CompressContextOptions>({
  agent: true,
  model: true,
  messages: true,
  systemPrompt: true,
  tools: true,
  maxTokens: true,
  keepRecent: true,
  pinned: true,
  strategy: true,
  summaryModel: true,
  countTokens: true,
  targetTokens: true,
  notify: true,
  signal: true,
  formatter: true,
  selfName: true,
});

/** What `compressContext` decided. */
export type ContextCompression =
  | {
      /** The request fits: nothing to do. */
      readonly compressed: false;
      readonly tokens: number;
    }
  | {
      readonly compressed: true;
      /** The oldest messages, to be replaced by `summary`. */
      readonly replaced: readonly Msg[];
      /** The messages that stay, in order (the pinned ones among them). */
      readonly kept: readonly Msg[];
      /** The replacement: user role, `name: 'system'`, `metadata.compressed`. */
      readonly summary: Msg;
      readonly tokensBefore: number;
      readonly tokensAfter: number;
      /** Tokens the summary request used, when the model reported them. */
      readonly usage?: Usage;
    };

/**
 * Makes the next request fit the context window. Counts the request (system prompt,
 * `messages`, tools); when it counts more than `maxTokens`, plans which of the oldest
 * messages to replace (`planCompression`: the `pinned` messages and the newest `keepRecent`
 * after them stay, tool calls stay with their results), runs `preCompress` hooks, writes the replacement (a summary from one
 * tool-less request to `summaryModel`, or a drop marker), counts again, and runs
 * `postCompress` hooks (which may replace the summary; it is then counted again).
 *
 * Cold; emits one `ContextCompression` and completes. It never changes memory: apply a
 * compressed result with `applyCompression(memory.messages(), result.replaced,
 * result.summary)` and `memory.replace(...)`. Errors with `ContextWindowError` when no
 * message can be replaced or the compressed request still counts more than `maxTokens`
 * (leave memory unchanged and send nothing), `InvalidArgumentError` for bad options, the
 * summary model's `ModelError` (also when it returns no text), or a hook's error.
 * Unsubscribing cancels the summary request.
 */
export function compressContext(options: CompressContextOptions): Observable<ContextCompression> {
  return defer(() => {
    const settings = settle(options);
    const tokens = settings.count(options.messages);
    if (tokens <= options.maxTokens) return of<ContextCompression>({ compressed: false, tokens });
    const plan = planCompression(options.messages, {
      keepRecent: settings.keepRecent,
      ...(options.pinned !== undefined && { pinned: options.pinned }),
      targetTokens: settings.targetTokens,
      countKept: settings.count,
    });
    if (plan === undefined) return throwError(() => nothingToCompress(options, tokens, settings));
    const compression = new Compression(options, settings, plan, tokens);
    // What stays counts too much even without a summary: fail before any summary request.
    const keptTokens = settings.count(plan.kept);
    if (keptTokens > options.maxTokens) return throwError(() => compression.tooLarge(keptTokens));
    return compression.run();
  });
}

interface Settings {
  readonly keepRecent: number;
  readonly targetTokens: number;
  readonly strategy: CompressionStrategy;
  readonly count: (messages: readonly Msg[]) => number;
}

function settle(options: CompressContextOptions): Settings {
  checkOptions(options, COMPRESS_KEYS, 'compressContext()');
  const { maxTokens, strategy = 'summarize', keepRecent = DEFAULT_KEEP_RECENT } = options;
  if (!(Number.isInteger(maxTokens) && maxTokens > 0)) {
    throw new InvalidArgumentError(
      `context.maxTokens must be a positive whole number of tokens, got ${String(maxTokens)}.`,
    );
  }
  if (!(Number.isInteger(keepRecent) && keepRecent >= 0)) {
    throw new InvalidArgumentError(
      `context.keepRecent must be a whole number of messages (0 or more), got ${String(keepRecent)}.`,
    );
  }
  if (strategy !== 'summarize' && strategy !== 'drop') {
    throw new InvalidArgumentError(
      `context.strategy must be 'summarize' or 'drop', got ${JSON.stringify(strategy)}.`,
    );
  }
  if (strategy === 'summarize' && options.summaryModel === undefined) {
    throw new InvalidArgumentError(
      "compressContext: strategy 'summarize' needs a summaryModel (pass the agent's model).",
    );
  }
  const targetTokens = options.targetTokens ?? Math.floor(maxTokens / 2);
  const countTokens = options.countTokens ?? estimateTokens;
  const base: Omit<ContextRequest, 'messages'> = {
    systemPrompt: options.systemPrompt,
    tools: options.tools,
    ...(options.formatter !== undefined && { formatter: options.formatter }),
    ...(options.selfName !== undefined && { selfName: options.selfName }),
    ...(options.model !== undefined && { model: options.model }),
  };
  return {
    keepRecent,
    targetTokens,
    strategy,
    count: (messages) => countTokens({ ...base, messages }),
  };
}

/** One compression after planning: hooks, the replacement, the counts. */
class Compression {
  #usage: Usage | undefined;

  constructor(
    private readonly options: CompressContextOptions,
    private readonly settings: Settings,
    private readonly plan: CompressionPlan,
    private readonly tokensBefore: number,
  ) {}

  run(): Observable<ContextCompression> {
    const event: PreCompressEvent = {
      type: 'preCompress',
      agent: this.options.agent,
      messages: this.plan.replaced,
      tokens: this.tokensBefore,
    };
    return this.#notify(event).pipe(
      concatMap(() => this.#replacement()),
      map((msg) => this.#stamped(msg)),
      concatMap((summary) => this.#runPostCompress(summary)),
      map((summary) => this.#result(summary)),
    );
  }

  /** The summary (or marker) with provisional counts; metadata is never sent, so they are final below. */
  #replacement(): Observable<Msg> {
    const info: CompressionInfo = {
      count: this.plan.replaced.length,
      tokensBefore: this.tokensBefore,
      tokensAfter: 0,
    };
    if (this.settings.strategy === 'drop') return of(dropMarkerMsg(info));
    return this.#summarize().pipe(map((text) => summaryMsg(text, info)));
  }

  #summarize(): Observable<string> {
    const model = this.options.summaryModel!;
    const request = summaryRequest(this.plan.replaced, {
      maxTokens: Math.max(64, Math.floor(this.options.maxTokens / 4)),
    });
    const { signal } = this.options;
    return model.stream(signal === undefined ? request : { ...request, signal }).pipe(
      reduce(accumulate, new ChatResponseAccumulator()),
      map((response) => this.#summaryText(response, model)),
    );
  }

  #summaryText(accumulator: ChatResponseAccumulator, model: ChatModel): string {
    const response = accumulator.response();
    this.#usage = response.usage;
    const text = response.text.trim();
    if (text === '') {
      throw new ModelError(
        `The summary model "${model.modelName}" returned no text for the context summary; memory was left unchanged.`,
        { retryable: true },
      );
    }
    return text;
  }

  /** `msg` with its final `metadata.compressed`; errors when the request still does not fit. */
  #stamped(msg: Msg): Msg {
    const tokensAfter = this.settings.count(withSummary(this.plan, msg));
    if (tokensAfter > this.options.maxTokens) throw this.tooLarge(tokensAfter);
    return withCompressionInfo(msg, {
      count: this.plan.replaced.length,
      tokensBefore: this.tokensBefore,
      tokensAfter,
    });
  }

  #runPostCompress(summary: Msg): Observable<Msg> {
    const event: PostCompressEvent = {
      type: 'postCompress',
      agent: this.options.agent,
      summary,
      removed: this.plan.replaced.length,
      tokensBefore: this.tokensBefore,
      tokensAfter: compressedTokens(summary),
    };
    return this.#notify(event).pipe(
      map((final) => (final.summary === summary ? summary : this.#stamped(final.summary))),
    );
  }

  #result(summary: Msg): ContextCompression {
    return {
      compressed: true,
      replaced: this.plan.replaced,
      kept: this.plan.kept,
      summary,
      tokensBefore: this.tokensBefore,
      tokensAfter: compressedTokens(summary),
      ...(this.#usage !== undefined && { usage: this.#usage }),
    };
  }

  #notify<E extends HookEvent>(event: E): Observable<E> {
    return this.options.notify === undefined ? of(event) : this.options.notify(event);
  }

  /** The error when the compressed request still counts `tokens`, more than `maxTokens`. */
  tooLarge(tokens: number): ContextWindowError {
    const { maxTokens } = this.options;
    return new ContextWindowError(
      `The request counts ${tokens} tokens even after compressing the ${this.plan.replaced.length} oldest messages, more than context.maxTokens ${maxTokens}; nothing was sent and memory is unchanged. Raise maxTokens, lower keepRecent (${this.settings.keepRecent}), or shorten the system prompt, tool schemas or the newest messages.`,
      tokens,
      maxTokens,
    );
  }
}

function accumulate(response: ChatResponseAccumulator, chunk: ChatChunk): ChatResponseAccumulator {
  response.add(chunk);
  return response;
}

function compressedTokens(summary: Msg): number {
  const info = summary.metadata['compressed'] as { tokensAfter?: unknown } | undefined;
  return typeof info?.tokensAfter === 'number' ? info.tokensAfter : 0;
}

function nothingToCompress(
  options: CompressContextOptions,
  tokens: number,
  settings: Settings,
): ContextWindowError {
  return new ContextWindowError(
    `The request counts ${tokens} tokens, more than context.maxTokens ${options.maxTokens}, and none of its ${options.messages.length} messages can be compressed (the call's input and keepRecent ${settings.keepRecent} keep them, or a tool call and its results span them); nothing was sent and memory is unchanged. Raise maxTokens, lower keepRecent, or shorten the system prompt, tool schemas or the newest messages.`,
    tokens,
    options.maxTokens,
  );
}
