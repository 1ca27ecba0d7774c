package redisstore

// The scripts' SHA-1s, by which EVALSHA calls them (the test checks
// them), so that retry needs no hash of its own.
const (
	windowSHA = "bb20bc17b3ed41e5331f9cb89feb3c249c06e9ac"
	slotSHA   = "d4be4f4a6f7fc33e4528a9c511a2802ea1131371"
)

// windowScript counts a budget's first attempts and retries over the last
// minute of the server's clock, in one hash of per-second counts:
// "f:SECOND" and "r:SECOND". KEYS[1] is the hash; ARGV is the operation
// ("first", "retry" or "peek"), the policy's floor and its ratio in
// thousandths, the window and the key's TTL in seconds. Counts older than
// the window, or as far ahead, are dropped. It returns {allowed, firsts,
// retries, allowance}, the counts including what it added: the rule is
// budget.Policy's, in the same integer arithmetic.
const windowScript = `
local now = tonumber(redis.call('TIME')[1])
local span = tonumber(ARGV[4])
local h = redis.call('HGETALL', KEYS[1])
local firsts, retries, stale = 0, 0, {}
for i = 1, #h, 2 do
  local kind, sec, n = string.sub(h[i], 1, 2), tonumber(string.sub(h[i], 3)), tonumber(h[i + 1])
  if sec == nil or n == nil or n < 0 or (kind ~= 'f:' and kind ~= 'r:') or sec <= now - span or sec >= now + span then
    stale[#stale + 1] = h[i]
  elseif kind == 'f:' then
    firsts = firsts + n
  else
    retries = retries + n
  end
end
for i = 1, #stale, 100 do
  redis.call('HDEL', KEYS[1], unpack(stale, i, math.min(i + 99, #stale)))
end
local floor, milli = tonumber(ARGV[2]), tonumber(ARGV[3])
local allowed, field = 1, nil
if ARGV[1] == 'first' then
  firsts = firsts + 1
  field = 'f:' .. now
elseif ARGV[1] == 'retry' then
  if retries + 1 <= math.floor((floor * 1000 + milli * firsts) / 1000) then
    retries = retries + 1
    field = 'r:' .. now
  else
    allowed = 0
  end
end
if field then
  redis.call('HINCRBY', KEYS[1], field, 1)
  redis.call('EXPIRE', KEYS[1], ARGV[5])
end
return {allowed, firsts, retries, math.floor((floor * 1000 + milli * firsts) / 1000)}
`

// slotScript keeps a budget's concurrency slots as leases in one sorted
// set: each member is a holder, its score the millisecond, on the server's
// clock, when its lease ends. KEYS[1] is the set; ARGV is the operation
// ("take", "renew" or "release"), the holder, the cap and the lease in
// milliseconds. Leases that have ended are dropped first, so a holder that
// died frees its slot when its lease runs out. "take" returns 1 when the
// holder has a slot (a new one, or the one it held), else 0; "renew"
// returns 1 when it still held it, and "release" 1 when it did.
const slotScript = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local op, holder = ARGV[1], ARGV[2]
if op == 'release' then
  return redis.call('ZREM', KEYS[1], holder)
end
local held = redis.call('ZSCORE', KEYS[1], holder)
if op == 'renew' and not held then
  return 0
end
if op == 'take' and not held and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  return 0
end
redis.call('ZADD', KEYS[1], now + lease, holder)
redis.call('PEXPIRE', KEYS[1], lease)
return 1
`
