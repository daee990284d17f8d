/**
 * The Lua scripts of the Redis session store. Each runs atomically in Redis in one round trip, so
 * a check and the writes it guards (lock, version, checkpoint seq, event order) can never be split
 * by another client. A script checks everything (key types included) before its first write:
 * Redis does not roll a script back when a command fails halfway, so nothing may fail after it
 * has begun writing.
 *
 * Keys, in this order wherever a script takes them: KEYS[1] the session hash (fields `snapshot`,
 * `version`), KEYS[2] the session's lock (a string), KEYS[3] the checkpoints (a list of delta JSON
 * texts, seq = position + 1), KEYS[4] the event log (a stream, ids `<run>-<n>`).
 *
 * Replies are tables led by a status word; `{'wrongtype', role, type}` means the key in that role
 * (session, lock, checkpoints, events) holds another Redis type.
 */

/** `kind(key)`: the Redis type of a key ('none' when absent). `newer(a, b)`: whether stream id a comes after b. */
const HELPERS = `
local function kind(key) return redis.call('TYPE', key)['ok'] end
local function newer(a, b)
  local ar, an = string.match(a, '^(%d+)-(%d+)$')
  local br, bn = string.match(b, '^(%d+)-(%d+)$')
  ar, an, br, bn = tonumber(ar), tonumber(an), tonumber(br), tonumber(bn)
  return ar > br or (ar == br and an > bn)
end
`;

/**
 * The lock check, with `lock` the caller's lock value ('' none) and `required` whether the write
 * needs one. Another holder's lock refuses a caller without one; a caller's lock must still be there.
 */
const LOCK_CHECK = `
local lockType = kind(KEYS[2])
if lockType ~= 'none' and lockType ~= 'string' then return {'wrongtype', 'lock', lockType} end
local holder = redis.call('GET', KEYS[2])
if lock == '' then
  if holder then return {'locked', holder} end
elseif holder ~= lock then
  return {'lost', holder or ''}
end
`;

/** The session hash's version, checked: returns early with a refusal when the hash is not a session. */
const READ_VERSION = `
local sessionType = kind(KEYS[1])
if sessionType ~= 'none' and sessionType ~= 'hash' then return {'wrongtype', 'session', sessionType} end
local current = redis.call('HGET', KEYS[1], 'version')
if not current then
  if sessionType == 'hash' then return {'corrupt', 'the hash has no version field'} end
  current = ''
elseif not string.match(current, '^%d+$') then
  return {'corrupt', 'its version field is not a counter: ' .. current}
end
local checkpointsType = kind(KEYS[3])
if checkpointsType ~= 'none' and checkpointsType ~= 'list' then return {'wrongtype', 'checkpoints', checkpointsType} end
`;

/**
 * A new base. KEYS 1-3. ARGV[1] snapshot JSON, ARGV[2] 'any' | 'absent' | 'version', ARGV[3] the
 * expected version, ARGV[4] expiry in ms ('0': none), ARGV[5] the lock value. Drops the
 * checkpoints; the event log stays. → {'saved', version} | {'conflict', current or ''} | refusals.
 */
export const SAVE_SCRIPT = `${HELPERS}
local lock = ARGV[5]
${LOCK_CHECK}
${READ_VERSION}
if (ARGV[2] == 'absent' and current ~= '') or (ARGV[2] == 'version' and current ~= ARGV[3]) then
  return {'conflict', current}
end
local version = redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('HSET', KEYS[1], 'snapshot', ARGV[1])
redis.call('DEL', KEYS[3])
if ARGV[4] ~= '0' then
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
else
  redis.call('PERSIST', KEYS[1])
end
return {'saved', tostring(version)}
`;

/**
 * The event-log part of a write, with `first` the ARGV index of the first event id (then id, JSON
 * pairs to the end), `cap` the log's cap and `ttl` its expiry in ms ('0': none). EVENTS_CHECK
 * refuses, before anything is written, events whose first does not come after the last one logged;
 * EVENTS_WRITE adds them, trims the log and sets its expiry.
 */
const EVENTS_CHECK = `
local events = (#ARGV - first + 1) / 2
if events > 0 then
  local eventsType = kind(KEYS[4])
  if eventsType ~= 'none' and eventsType ~= 'stream' then return {'wrongtype', 'events', eventsType} end
  local last = '0-0'
  if eventsType == 'stream' then
    local info = redis.call('XINFO', 'STREAM', KEYS[4])
    for i = 1, #info, 2 do
      if info[i] == 'last-generated-id' then last = info[i + 1] end
    end
  end
  if not newer(ARGV[first], last) then return {'order', last} end
end
`;

const EVENTS_WRITE = `
for i = first, #ARGV, 2 do
  redis.call('XADD', KEYS[4], ARGV[i], 'event', ARGV[i + 1])
end
if events > 0 then
  redis.call('XTRIM', KEYS[4], 'MAXLEN', '~', cap)
  if ttl ~= '0' then redis.call('PEXPIRE', KEYS[4], ttl) end
end
`;

/**
 * A checkpoint. KEYS 1-4. ARGV[1] the lock value (required), ARGV[2] seq, ARGV[3] the delta JSON,
 * ARGV[4] the event log's cap, ARGV[5] the event log's expiry in ms ('0': none), then id, JSON
 * pairs of the events (ids in order, checked by the caller). The checkpoints expire with the
 * session hash. → {'appended', version} | {'nobase'} | {'conflict', next seq}
 * | {'order', last logged id} | refusals.
 */
export const APPEND_SCRIPT = `${HELPERS}
local lock = ARGV[1]
if lock == '' then return {'lost', ''} end
${LOCK_CHECK}
${READ_VERSION}
if current == '' then return {'nobase'} end
local count = redis.call('LLEN', KEYS[3])
if tonumber(ARGV[2]) ~= count + 1 then return {'conflict', tostring(count + 1)} end
local first, cap, ttl = 6, ARGV[4], ARGV[5]
${EVENTS_CHECK}
redis.call('RPUSH', KEYS[3], ARGV[3])
${EVENTS_WRITE}
local sessionTtl = redis.call('PTTL', KEYS[1])
if sessionTtl > 0 then redis.call('PEXPIRE', KEYS[3], sessionTtl) end
return {'appended', tostring(redis.call('HINCRBY', KEYS[1], 'version', 1))}
`;

/**
 * Events logged ahead of their checkpoint (a live log). KEYS 1-4. ARGV[1] the lock value
 * (required), ARGV[2] the log's cap, ARGV[3] its expiry in ms ('0': none), then id, JSON pairs.
 * The session's version does not change: its state did not. → {'logged'} | {'nobase'}
 * | {'order', last logged id} | refusals.
 */
export const LOG_EVENTS_SCRIPT = `${HELPERS}
local lock = ARGV[1]
if lock == '' then return {'lost', ''} end
${LOCK_CHECK}
${READ_VERSION}
if current == '' then return {'nobase'} end
local first, cap, ttl = 4, ARGV[2], ARGV[3]
${EVENTS_CHECK}
${EVENTS_WRITE}
return {'logged'}
`;

/** The last logged event's id. KEYS[1] the stream. → {'last', id or ''} | {'wrongtype', 'events', type}. */
export const LAST_EVENT_SCRIPT = `${HELPERS}
local eventsType = kind(KEYS[1])
if eventsType == 'none' then return {'last', ''} end
if eventsType ~= 'stream' then return {'wrongtype', 'events', eventsType} end
local entries = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #entries == 0 then return {'last', ''} end
return {'last', entries[1][1]}
`;

/**
 * The base and its checkpoints, read together. KEYS[1], KEYS[3]. → {'none'} | {'found', snapshot
 * or nil, version or nil, {deltas}} | {'wrongtype', role, type}.
 */
export const LOAD_SCRIPT = `${HELPERS}
local sessionType = kind(KEYS[1])
if sessionType == 'none' then return {'none'} end
if sessionType ~= 'hash' then return {'wrongtype', 'session', sessionType} end
local checkpointsType = kind(KEYS[3])
if checkpointsType ~= 'none' and checkpointsType ~= 'list' then return {'wrongtype', 'checkpoints', checkpointsType} end
local fields = redis.call('HMGET', KEYS[1], 'snapshot', 'version')
return {'found', fields[1], fields[2], redis.call('LRANGE', KEYS[3], 0, -1)}
`;

/**
 * A page of the event log. KEYS[1] the stream. ARGV[1] the id to read after ('' from the oldest),
 * ARGV[2] how many ('0': all), ARGV[3] the cap. Appends trim the stream approximately (`MAXLEN ~`,
 * whole nodes at a time), so it may hold a few more than the cap: those oldest are skipped here.
 * → {'events', entries} | {'wrongtype', 'events', type}.
 */
export const EVENTS_SCRIPT = `${HELPERS}
local eventsType = kind(KEYS[1])
if eventsType == 'none' then return {'events', {}} end
if eventsType ~= 'stream' then return {'wrongtype', 'events', eventsType} end
local start = '-'
if ARGV[1] ~= '' then start = '(' .. ARGV[1] end
local cap = tonumber(ARGV[3])
local length = redis.call('XLEN', KEYS[1])
if length > cap then
  local over = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', length - cap + 1)
  local oldest = over[#over][1]
  if ARGV[1] == '' or newer(oldest, ARGV[1]) then start = oldest end
end
if ARGV[2] == '0' then return {'events', redis.call('XRANGE', KEYS[1], start, '+')} end
return {'events', redis.call('XRANGE', KEYS[1], start, '+', 'COUNT', ARGV[2])}
`;

/** Remove a session: KEYS 1-4, ARGV[1] the lock value. → {'deleted', whether the hash existed} | refusals. */
export const DELETE_SCRIPT = `${HELPERS}
local lock = ARGV[1]
${LOCK_CHECK}
local existed = redis.call('DEL', KEYS[1])
redis.call('DEL', KEYS[3], KEYS[4])
return {'deleted', tostring(existed)}
`;

/**
 * Take a free lock. KEYS[1] the lock; ARGV[1] the value, ARGV[2] the lease in ms.
 * → {'taken'} | {'held', holder, ttl ms} | {'wrongtype', 'lock', type}.
 */
export const ACQUIRE_SCRIPT = `${HELPERS}
local lockType = kind(KEYS[1])
if lockType ~= 'none' and lockType ~= 'string' then return {'wrongtype', 'lock', lockType} end
if redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return {'taken'} end
return {'held', redis.call('GET', KEYS[1]), tostring(redis.call('PTTL', KEYS[1]))}
`;

/** Take over a dead holder's lock: only if it still holds the value judged dead. KEYS[1] the lock; ARGV[1] that value, ARGV[2] ours, ARGV[3] the lease. 1 taken, 0 not. */
export const TAKEOVER_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
`;

/** KEYS[1] the lock; ARGV[1] the lock value, ARGV[2] the lease in ms. 1 renewed, 0 not ours. */
export const RENEW_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`;

/** KEYS[1] the lock; ARGV[1] the lock value. Deletes it only if it is still ours. */
export const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;
