/**
 * The Lua scripts of the Redis ServerStore. Each runs atomically, so a check and the writes it
 * guards (an id or title still free, a record unchanged since it was read) cannot be split by
 * another client. Every script checks the types of its keys before its first write: Redis does not
 * roll a script back when a command fails halfway.
 *
 * A record is a hash: `json` (the record as JSON text), `tenant`, and the fields lists filter on
 * without parsing JSON (`title_key` for agents; `agent_id`, `user_id`, `name_key` for session
 * records). Updates compare the `json` they read with the stored one (compare and set): the record
 * is merged in JavaScript, never re-encoded by Lua's cjson (which turns `[]` into `{}`).
 *
 * Replies are tables led by a status word; `{'wrongtype', key, type, expected}` names a key that
 * holds another Redis type than the store keeps there.
 */

/** `wrong(key, want)`: a refusal when the key holds another type than `want` (absent is fine). */
const HELPERS = `
local function wrong(key, want)
  local t = redis.call('TYPE', key)['ok']
  if t ~= 'none' and t ~= want then return {'wrongtype', key, t, want} end
  return nil
end
`;

/**
 * A new agent. KEYS[1] its hash, [2] the tenant's titles (hash title_key → id), [3] the tenant's
 * agents by create_time, [4] by update_time (sorted sets). ARGV: id, tenant, title_key, json,
 * create_time, update_time. → {'ok'} | {'id'} (in use) | {'title', holder id} | wrongtype.
 */
export const AGENT_CREATE = `${HELPERS}
local bad = wrong(KEYS[1], 'hash') or wrong(KEYS[2], 'hash') or wrong(KEYS[3], 'zset') or wrong(KEYS[4], 'zset')
if bad then return bad end
if redis.call('EXISTS', KEYS[1]) == 1 then return {'id'} end
local holder = redis.call('HGET', KEYS[2], ARGV[3])
if holder then return {'title', holder} end
redis.call('HSET', KEYS[2], ARGV[3], ARGV[1])
redis.call('HSET', KEYS[1], 'json', ARGV[4], 'tenant', ARGV[2], 'title_key', ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[5], ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[6], ARGV[1])
return {'ok'}
`;

/**
 * Replace an agent read as ARGV[1]. KEYS[1] its hash, [2] the titles, [3] by update_time. ARGV:
 * expected json, new json, old title_key, new title_key, id, update_time.
 * → {'ok'} | {'changed'} (read again) | {'title', holder id} | wrongtype.
 */
export const AGENT_UPDATE = `${HELPERS}
local bad = wrong(KEYS[1], 'hash') or wrong(KEYS[2], 'hash') or wrong(KEYS[3], 'zset')
if bad then return bad end
if redis.call('HGET', KEYS[1], 'json') ~= ARGV[1] then return {'changed'} end
if ARGV[3] ~= ARGV[4] then
  local holder = redis.call('HGET', KEYS[2], ARGV[4])
  if holder and holder ~= ARGV[5] then return {'title', holder} end
  redis.call('HSET', KEYS[2], ARGV[4], ARGV[5])
  if redis.call('HGET', KEYS[2], ARGV[3]) == ARGV[5] then redis.call('HDEL', KEYS[2], ARGV[3]) end
end
redis.call('HSET', KEYS[1], 'json', ARGV[2], 'title_key', ARGV[4])
redis.call('ZADD', KEYS[3], ARGV[6], ARGV[5])
return {'ok'}
`;

/**
 * Delete an agent read as ARGV[1], with its session records. KEYS[1] its hash, [2] the titles,
 * [3] and [4] the tenant's agents by create and update time, [5] and [6] the agent's session
 * records by create and update time. ARGV: expected json, id, title_key, the session record key
 * prefix. → {'ok', sessions deleted} | {'changed'} | wrongtype.
 */
export const AGENT_DELETE = `${HELPERS}
local bad = wrong(KEYS[1], 'hash') or wrong(KEYS[2], 'hash') or wrong(KEYS[3], 'zset') or wrong(KEYS[4], 'zset') or wrong(KEYS[5], 'zset') or wrong(KEYS[6], 'zset')
if bad then return bad end
if redis.call('HGET', KEYS[1], 'json') ~= ARGV[1] then return {'changed'} end
redis.call('DEL', KEYS[1])
if redis.call('HGET', KEYS[2], ARGV[3]) == ARGV[2] then redis.call('HDEL', KEYS[2], ARGV[3]) end
redis.call('ZREM', KEYS[3], ARGV[2])
redis.call('ZREM', KEYS[4], ARGV[2])
local sessions = redis.call('ZRANGE', KEYS[5], 0, -1)
for _, id in ipairs(sessions) do redis.call('DEL', ARGV[4] .. id) end
redis.call('DEL', KEYS[5], KEYS[6])
return {'ok', tostring(#sessions)}
`;

/**
 * A new session record. KEYS[1] its hash, [2] and [3] its agent's session records by create and
 * update time. ARGV: id, json, tenant, agent_id, user_id, name_key, create_time, update_time.
 * → {'ok'} | {'id'} | wrongtype.
 */
export const SESSION_CREATE = `${HELPERS}
local bad = wrong(KEYS[1], 'hash') or wrong(KEYS[2], 'zset') or wrong(KEYS[3], 'zset')
if bad then return bad end
if redis.call('EXISTS', KEYS[1]) == 1 then return {'id'} end
redis.call('HSET', KEYS[1], 'json', ARGV[2], 'tenant', ARGV[3], 'agent_id', ARGV[4], 'user_id', ARGV[5], 'name_key', ARGV[6])
redis.call('ZADD', KEYS[2], ARGV[7], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[8], ARGV[1])
return {'ok'}
`;

/**
 * Replace a session record read as ARGV[1]. KEYS[1] its hash, [2] its agent's records by update
 * time. ARGV: expected json, new json, name_key, id, update_time. → {'ok'} | {'changed'} | wrongtype.
 */
export const SESSION_UPDATE = `${HELPERS}
local bad = wrong(KEYS[1], 'hash') or wrong(KEYS[2], 'zset')
if bad then return bad end
if redis.call('HGET', KEYS[1], 'json') ~= ARGV[1] then return {'changed'} end
redis.call('HSET', KEYS[1], 'json', ARGV[2], 'name_key', ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[5], ARGV[4])
return {'ok'}
`;

/**
 * Delete a session record of tenant ARGV[1]. KEYS[1] its hash, [2] and [3] its agent's records by
 * create and update time. ARGV: tenant, id. → {'ok'} | {'absent'} | wrongtype.
 */
export const SESSION_DELETE = `${HELPERS}
local bad = wrong(KEYS[1], 'hash') or wrong(KEYS[2], 'zset') or wrong(KEYS[3], 'zset')
if bad then return bad end
if redis.call('HGET', KEYS[1], 'tenant') ~= ARGV[1] then return {'absent'} end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('ZREM', KEYS[3], ARGV[2])
return {'ok'}
`;

/**
 * One page of a sorted set's records, read at one moment. KEYS[1] the sorted set. ARGV: the
 * record key prefix, '1' for descending, offset, count, then the filters ('' = none): id, text
 * contains (lower case), text equals (lower case), '=' followed by the user_id; then the text field (title_key or
 * name_key). Without filters the page is cut from the set directly; with them every member's
 * filter fields are read (the set is one tenant's agents or one agent's sessions).
 * → {'ok', total, id1, json1 or false, tenant1 or false, id2, …} | wrongtype.
 */
export const LIST_PAGE = `${HELPERS}
local bad = wrong(KEYS[1], 'zset')
if bad then return bad end
local prefix, desc, offset, count = ARGV[1], ARGV[2] == '1', tonumber(ARGV[3]), tonumber(ARGV[4])
local onlyId, contains, equals, user, field = ARGV[5], ARGV[6], ARGV[7], ARGV[8], ARGV[9]
local function range(a, b)
  if desc then return redis.call('ZREVRANGE', KEYS[1], a, b) end
  return redis.call('ZRANGE', KEYS[1], a, b)
end
local total, page = 0, {}
if onlyId == '' and contains == '' and equals == '' and user == '' then
  total = redis.call('ZCARD', KEYS[1])
  if count > 0 then page = range(offset, offset + count - 1) end
else
  for _, id in ipairs(range(0, -1)) do
    local keep = onlyId == '' or id == onlyId
    if keep and (contains ~= '' or equals ~= '' or user ~= '') then
      local values = redis.call('HMGET', prefix .. id, field, 'user_id')
      local text = values[1] or ''
      keep = (contains == '' or string.find(text, contains, 1, true) ~= nil)
        and (equals == '' or text == equals)
        and (user == '' or values[2] == string.sub(user, 2))
    end
    if keep then
      total = total + 1
      if total > offset and #page < count then page[#page + 1] = id end
    end
  end
end
local reply = {'ok', tostring(total)}
for _, id in ipairs(page) do
  local values = redis.call('HMGET', prefix .. id, 'json', 'tenant')
  reply[#reply + 1] = id
  reply[#reply + 1] = values[1]
  reply[#reply + 1] = values[2]
end
return reply
`;

/**
 * A new API key. KEYS[1] `apikey:<sha256>` (a string: the record's JSON), [2] the key ids (hash
 * id → sha256). ARGV: id, sha256, json. → {'ok'} | {'id'} | {'hash'} | wrongtype.
 */
export const KEY_CREATE = `${HELPERS}
local bad = wrong(KEYS[1], 'string') or wrong(KEYS[2], 'hash')
if bad then return bad end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return {'id'} end
if redis.call('EXISTS', KEYS[1]) == 1 then return {'hash'} end
redis.call('SET', KEYS[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return {'ok'}
`;

/** Replace a string read as ARGV[1] with ARGV[2]. KEYS[1] the string. → {'ok'} | {'changed'} | wrongtype. */
export const STRING_SWAP = `${HELPERS}
local bad = wrong(KEYS[1], 'string')
if bad then return bad end
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {'changed'} end
redis.call('SET', KEYS[1], ARGV[2])
return {'ok'}
`;
