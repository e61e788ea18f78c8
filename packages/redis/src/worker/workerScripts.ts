import { createHash } from 'node:crypto';
import { ErrorReply, type RedisArgument } from 'redis';
import type { RedisConnection } from '../connection/redisConnection.js';

/**
 * Submits a run: the thread's next position and the request entry in one step, so a thread's
 * requests stand in the stream in position order. KEYS: queue stream, thread `next`.
 * ARGV: run id, thread id, kind, input JSON, options JSON, max stream length.
 * Returns the position.
 */
const SUBMIT = `
local position = redis.call('INCR', KEYS[2])
redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[6], '*', 'v', '1', 'runId', ARGV[1], 'threadId', ARGV[2], 'position', position, 'kind', ARGV[3], 'input', ARGV[4], 'options', ARGV[5])
return position
`;

/**
 * Takes a thread for a position: when position - 1 is the last finished one and nobody (or
 * this worker) holds the thread. Positions of dead-lettered runs (the thread's `dead` set)
 * count as finished once every one before them is. KEYS: thread `done`, thread `lock`,
 * thread `run`, thread `dead`. ARGV: position, worker id, lease ms, run id. Returns 1
 * (taken), 0 (wait), -1 (that position already finished: a duplicate delivery).
 */
const ACQUIRE = `
local done = tonumber(redis.call('GET', KEYS[1]) or '0')
local skipped = done
while redis.call('SREM', KEYS[4], tostring(skipped + 1)) == 1 do skipped = skipped + 1 end
if skipped ~= done then
  done = skipped
  redis.call('SET', KEYS[1], done)
end
local position = tonumber(ARGV[1])
if position <= done then return -1 end
if position ~= done + 1 then return 0 end
local holder = redis.call('GET', KEYS[2])
if holder and holder ~= ARGV[2] then return 0 end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
redis.call('SET', KEYS[3], ARGV[4], 'PX', ARGV[3])
return 1
`;

/**
 * Keeps a request this worker owns from looking silent: XCLAIM (JUSTID, so no delivery is
 * counted) only while the entry is still pending with this worker. KEYS: queue stream.
 * ARGV: group, worker id, entry id. Returns 1, or 0 when another worker claimed it (or it
 * is no longer pending).
 */
const TOUCH = `
local pending = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[3], ARGV[3], 1)
if pending[1] == nil or pending[1][2] ~= ARGV[2] then return 0 end
redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, ARGV[3], 'JUSTID')
return 1
`;

/**
 * Claims requests whose worker went silent for the lease, counting deliveries: an entry
 * already delivered `maxDeliveries` times is not claimed again but dead-lettered, in one
 * step: its fields plus `deliveries` appended to the dead-letter stream, the entry
 * acknowledged and deleted, its run failed (a `failed` event after the run's last one, so
 * its caller errors) and its thread position given up (finished when it is next, else
 * remembered in the thread's `dead` set, so later requests on the thread still run).
 * KEYS: queue stream, dead-letter stream. ARGV: group, worker id, lease ms, count,
 * maxDeliveries, run TTL seconds, max run events. Returns the claimed entries as
 * `{ id, fields }` pairs (XRANGE shape).
 */
const CLAIM = `
local queue, group, me = KEYS[1], ARGV[1], ARGV[2]
local maxDeliveries = tonumber(ARGV[5])
local claimed = {}
local pending = redis.call('XPENDING', queue, group, 'IDLE', ARGV[3], '-', '+', ARGV[4])
for _, item in ipairs(pending) do
  local id, deliveries = item[1], tonumber(item[4])
  if deliveries < maxDeliveries then
    local got = redis.call('XCLAIM', queue, group, me, ARGV[3], id)
    for _, entry in ipairs(got) do
      if type(entry) == 'table' then claimed[#claimed + 1] = entry end
    end
  else
    local range = redis.call('XRANGE', queue, id, id)
    local fields = (range[1] and range[1][2]) or {}
    local copy, f = {}, {}
    for i = 1, #fields - 1, 2 do
      copy[#copy + 1] = fields[i]
      copy[#copy + 1] = fields[i + 1]
      f[fields[i]] = fields[i + 1]
    end
    copy[#copy + 1] = 'deliveries'
    copy[#copy + 1] = tostring(deliveries)
    redis.call('XADD', KEYS[2], '*', unpack(copy))
    redis.call('XACK', queue, group, id)
    redis.call('XDEL', queue, id)
    local runId, threadId, position = f['runId'], f['threadId'], tonumber(f['position'] or '')
    if runId and runId ~= '' then
      local run = queue .. ':run:' .. runId
      local seq = 0
      local last = redis.call('XREVRANGE', run, '+', '-', 'COUNT', 1)
      if last[1] then
        local lf = last[1][2]
        for i = 1, #lf - 1, 2 do
          if lf[i] == 'seq' then seq = (tonumber(lf[i + 1]) or -1) + 1 end
        end
      end
      local message = 'run ' .. runId .. ' was delivered ' .. deliveries .. ' times (maxDeliveries ' .. maxDeliveries .. ') and no worker finished it; its request is kept in the dead-letter stream ' .. KEYS[2]
      local event = cjson.encode({ type = 'failed', error = { name = 'DeliveryLimitError', message = message, code = 'REMOTE_RUN_FAILED', deliveries = deliveries } })
      redis.call('XADD', run, 'MAXLEN', '~', ARGV[7], '*', 'seq', seq, 'event', event)
      redis.call('EXPIRE', run, ARGV[6])
    end
    if threadId and threadId ~= '' and position then
      local thread = queue .. ':thread:' .. threadId
      local done = tonumber(redis.call('GET', thread .. ':done') or '0')
      if position == done + 1 then
        redis.call('SET', thread .. ':done', position)
      elseif position > done + 1 then
        redis.call('SADD', thread .. ':dead', position)
      end
      if runId and redis.call('GET', thread .. ':run') == runId then
        redis.call('DEL', thread .. ':lock', thread .. ':run')
      end
    end
  end
end
return claimed
`;

/**
 * Extends a thread's lease while this worker holds it. KEYS: thread `lock`, thread `run`.
 * ARGV: worker id, lease ms. Returns 1, or 0 when the thread is no longer this worker's.
 */
const RENEW = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return 1
`;

/**
 * Appends one event to a run's stream while this worker holds the thread (a fence against
 * a worker that lost its lease). KEYS: run stream, thread `lock`. ARGV: worker id, seq,
 * event JSON, max length, TTL seconds (0: none; set with the run's last event).
 * Returns 1, or 0 when the thread is no longer this worker's.
 */
const APPEND = `
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[4], '*', 'seq', ARGV[2], 'event', ARGV[3])
if tonumber(ARGV[5]) > 0 then redis.call('EXPIRE', KEYS[1], ARGV[5]) end
return 1
`;

/**
 * Finishes a position with the run's last event (its reply or error), in one step: the event
 * appended (the run stream then expires), the thread's `done` advanced, the lock and current
 * run released, the request acknowledged and deleted. KEYS: thread `done`, thread `lock`,
 * thread `run`, queue stream, run stream. ARGV: worker id, position, group, entry id, seq,
 * event JSON, max length, TTL seconds. Returns 1, or 0 when the thread is no longer this
 * worker's (nothing changed).
 */
const FINISH = `
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
redis.call('XADD', KEYS[5], 'MAXLEN', '~', ARGV[7], '*', 'seq', ARGV[5], 'event', ARGV[6])
redis.call('EXPIRE', KEYS[5], ARGV[8])
redis.call('SET', KEYS[1], ARGV[2])
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('XACK', KEYS[4], ARGV[3], ARGV[4])
redis.call('XDEL', KEYS[4], ARGV[4])
return 1
`;

/**
 * Hands a request back to the queue for another worker: the same fields (its position
 * included, so thread order holds) as a new entry, the old one acknowledged and deleted.
 * KEYS: queue stream. ARGV: group, entry id, then the entry's field/value pairs.
 */
const HAND_OVER = `
local fields = {}
for i = 3, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('XADD', KEYS[1], '*', unpack(fields))
redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
redis.call('XDEL', KEYS[1], ARGV[2])
return 1
`;

/** A Lua script run by hash, loaded on first use. */
class Script {
  readonly #sha: string;
  constructor(readonly source: string) {
    this.#sha = createHash('sha1').update(source).digest('hex');
  }

  /** Loads the script into Redis's cache, so the first runs keep their order. */
  async load(redis: RedisConnection): Promise<void> {
    await redis.command(['SCRIPT', 'LOAD', this.source], 'loading a script');
  }

  async run<T>(
    redis: RedisConnection,
    keys: readonly string[],
    args: readonly RedisArgument[],
    what: string,
  ): Promise<T> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await redis.command<T>(['EVALSHA', this.#sha, ...tail], what);
    } catch (error) {
      if (!(error instanceof ErrorReply) || !error.message.startsWith('NOSCRIPT')) throw error;
      return await redis.command<T>(['EVAL', this.source, ...tail], what);
    }
  }
}

/** The scripts of the worker protocol. Internal. */
export const workerScripts = {
  submit: new Script(SUBMIT),
  acquire: new Script(ACQUIRE),
  touch: new Script(TOUCH),
  claim: new Script(CLAIM),
  renew: new Script(RENEW),
  append: new Script(APPEND),
  finish: new Script(FINISH),
  handOver: new Script(HAND_OVER),
};
