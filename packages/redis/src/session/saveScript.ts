/**
 * The compare-and-set save, run atomically by Redis. KEYS[1] is the session hash; ARGV is
 * the state JSON, the expected version ('' for an unconditional save) and the TTL in seconds
 * ('0' for none). The hash holds exactly `format` (1), `version` (1 after the first save)
 * and `state`. Returns `{1, newVersion}` or `{0, currentVersion}` on a conflict. A key of
 * another type fails the script (WRONGTYPE), and so does a hash that is not a session of
 * format 1 (FOREIGN: other fields, or missing ones) or whose version is not a number
 * (BADVERSION), so nothing is ever written into another program's hash; the caller
 * reports each as a corrupt value.
 */
export const SAVE_SCRIPT = `
local fieldCount = redis.call('HLEN', KEYS[1])
local current = 0
if fieldCount > 0 then
  local stored = redis.call('HMGET', KEYS[1], 'format', 'version', 'state')
  if fieldCount ~= 3 or stored[1] ~= '1' or not stored[2] or not stored[3] then
    return redis.error_reply('FOREIGN the key is a hash but not an rxagent session of format 1')
  end
  current = tonumber(stored[2])
  if current == nil then return redis.error_reply('BADVERSION') end
end
if ARGV[2] ~= '' and tonumber(ARGV[2]) ~= current then return {0, current} end
local nextVersion = current + 1
redis.call('HSET', KEYS[1], 'format', '1', 'version', nextVersion, 'state', ARGV[1])
if tonumber(ARGV[3]) > 0 then redis.call('EXPIRE', KEYS[1], ARGV[3]) else redis.call('PERSIST', KEYS[1]) end
return {1, nextVersion}
`;

/**
 * The load, run atomically by Redis: `{fieldCount, {format, version, state}}` of the hash
 * KEYS[1] (`{0, {nil, nil, nil}}` when there is no such key), so a reader tells a session
 * from another program's hash without a second round trip. A key of another type fails
 * the script (WRONGTYPE).
 */
export const LOAD_SCRIPT = `
return {redis.call('HLEN', KEYS[1]), redis.call('HMGET', KEYS[1], 'format', 'version', 'state')}
`;
