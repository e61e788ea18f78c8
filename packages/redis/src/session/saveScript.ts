/**
 * The compare-and-set save, run atomically by Redis. KEYS[1] is the session hash; ARGV is
 * the state JSON, the expected version ('' for an unconditional save) and the TTL in seconds
 * ('0' for none). The hash holds `format` (1), `version` (1 after the first save) and
 * `state`. Returns `{1, newVersion}` or `{0, currentVersion}` on a conflict; a key of another
 * type fails the script, which the caller reports as a corrupt value.
 */
export const SAVE_SCRIPT = `
local current = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if current == nil then return redis.error_reply('BADVERSION') end
if ARGV[2] ~= '' and tonumber(ARGV[2]) ~= current then return {0, current} end
local nextVersion = current + 1
redis.call('HSET', KEYS[1], 'format', '1', 'version', nextVersion, 'state', ARGV[1])
if tonumber(ARGV[3]) > 0 then redis.call('EXPIRE', KEYS[1], ARGV[3]) else redis.call('PERSIST', KEYS[1]) end
return {1, nextVersion}
`;
