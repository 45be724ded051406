-- wrk script for Benchmarks/serve.sh's cold runs: requests every path of a list exactly once,
-- then stops (run it with -t 1):
--
--   wrk -t 1 -c CONNECTIONS -d LIMIT --latency -s cold.lua http://127.0.0.1:PORT -- PATHS DONE
--
-- PATHS is a file of request paths, one a line, each requested once, in order, over all the
-- connections (a connection sends its next path when its last response has come). When
-- every path has had its response, the script writes DONE (a file) and stops the thread;
-- serve.sh, which waits for DONE, then sends wrk SIGINT, so that it reports at once instead of
-- at the end of LIMIT. Connections left without a path wait (delay()) and send nothing more.
--
-- done() prints one line "serve-bench cold key=value ...": the responses counted by status
-- (ok = 200, other = anything else), the paths sent, the time from the first request to the
-- last response (monotonic clock, via LuaJIT's ffi), and wrk's own counts and percentiles.
local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } serve_bench_timespec;
  int clock_gettime(int clock, serve_bench_timespec *t);
]]
local clock = ffi.new("serve_bench_timespec")
local function now()
  ffi.C.clock_gettime(1, clock) -- CLOCK_MONOTONIC
  return tonumber(clock.tv_sec) + tonumber(clock.tv_nsec) / 1e9
end

local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

local requests, done_file = {}, nil
local reserved = 0 -- paths handed to connections by delay()
sent, ok, other, first, last = 0, 0, 0, 0, 0

function init(args)
  local list = assert(io.open(assert(args[1], "no path list given"), "r"))
  for line in list:lines() do
    if line ~= "" then table.insert(requests, wrk.format("GET", line)) end
  end
  list:close()
  done_file = args[2]
  assert(#requests > 0, "the path list is empty")
end

-- Called before each request a connection would send: 0 (send now) while paths remain, else
-- an hour (the connection idles until the thread stops).
function delay()
  if reserved < #requests then
    reserved = reserved + 1
    return 0
  end
  return 3600000
end

function request()
  -- wrk calls request() once before the threads start, to check it (no delay() before it):
  -- that call gets the first path and counts for nothing.
  if sent >= reserved then return requests[1] end
  sent = sent + 1
  if first == 0 then first = now() end
  return requests[sent]
end

function response(status, headers, body)
  if status == 200 then ok = ok + 1 else other = other + 1 end
  last = now()
  if ok + other == #requests then
    if done_file then
      local f = io.open(done_file, "w")
      if f then f:write(ok, " ", other, "\n"); f:close() end
    end
    wrk.thread:stop()
  end
end

function done(summary, latency, requests_stats)
  local total = { sent = 0, ok = 0, other = 0, first = math.huge, last = 0 }
  for _, thread in ipairs(threads) do
    total.sent = total.sent + thread:get("sent")
    total.ok = total.ok + thread:get("ok")
    total.other = total.other + thread:get("other")
    local f, l = thread:get("first"), thread:get("last")
    if f > 0 and f < total.first then total.first = f end
    if l > total.last then total.last = l end
  end
  local span = total.last > 0 and total.last - total.first or 0
  local e = summary.errors
  io.write(string.format(
    "serve-bench cold sent=%d ok=%d other=%d span_s=%.3f requests=%d bytes=%d connect=%d read=%d write=%d status=%d timeout=%d p50_us=%d p90_us=%d p99_us=%d max_us=%d\n",
    total.sent, total.ok, total.other, span, summary.requests, summary.bytes, e.connect, e.read, e.write, e.status,
    e.timeout, latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
