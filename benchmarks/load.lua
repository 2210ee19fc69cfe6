-- wrk script for benchmarks/load.py: spread the connections over several servers and
-- report what wrk's own summary lacks (dense latency quantiles, every status code) as one
-- JSON line.
--
-- BENCH_PORTS="8201 8202" names the servers on wrk's host; wrk thread i talks to port
-- i mod n, so with -t2 each gunicorn instance gets half the connections, the way a
-- round-robin balancer would share them. One wrk process keeps one latency histogram, so
-- the quantiles are over the requests to both servers.

local threads = {}
local addrs = nil

function setup(thread)
  if addrs == nil then
    addrs = {}
    for port in string.gmatch(os.getenv("BENCH_PORTS") or "", "%d+") do
      table.insert(addrs, wrk.lookup(wrk.host, port)[1])
    end
    if #addrs == 0 then
      addrs = { thread.addr }
    end
  end
  table.insert(threads, thread)
  thread.addr = addrs[(#threads - 1) % #addrs + 1]
end

function init(args)
  statuses = {}
end

-- wrk counts 3xx as success; counting every code lets load.py tell a 304 from a redirect.
function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local codes = {}
  for _, thread in ipairs(threads) do
    for code, count in pairs(thread:get("statuses") or {}) do
      codes[code] = (codes[code] or 0) + count
    end
  end
  local parts = {}
  for code, count in pairs(codes) do
    table.insert(parts, string.format('"%d": %d', code, count))
  end
  -- Latency at dense quantiles (every 0.5 % up to 90, then every 0.1 %), so that load.py
  -- can pool several runs into one distribution; wrk exposes no raw histogram to Lua.
  local quantiles = {}
  for tenth = 5, 1000 do
    if tenth > 900 or tenth % 5 == 0 then
      local q = tenth / 10
      table.insert(quantiles, string.format("[%.1f, %d]", q, latency:percentile(q)))
    end
  end
  local e = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests": %d, "duration_us": %d, "bytes": %d, '
      .. '"errors": {"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d}, '
      .. '"statuses": {%s}, "quantiles": [%s]}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    table.concat(parts, ", "), table.concat(quantiles, ", ")
  ))
end
