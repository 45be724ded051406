-- wrk script for Benchmarks/serve.sh's warm runs: cycles through a list of paths for wrk's
-- whole duration.
--
--   wrk -t THREADS -c CONNECTIONS -d SECONDS --latency -s warm.lua http://127.0.0.1:PORT -- PATHS THREADS
--
-- PATHS is a file of request paths, one a line. Each thread sends them in order, round and
-- round, starting at its own place in the list (thread k of THREADS at k/THREADS of it), so that the
-- threads ask for different images at any moment. No response() function: wrk then neither
-- copies the bodies nor calls Lua per response, which keeps the client's cost per request as
-- low as a script that picks paths allows.
--
-- done() prints one line "serve-bench warm key=value ...": wrk's counts (complete responses,
-- bytes, socket errors by kind, responses with status > 399), its duration, and the latency
-- percentiles in microseconds.
local count = 0
function setup(thread)
  thread:set("id", count)
  count = count + 1
end

local requests = {}
local index = 0

function init(args)
  local list = assert(io.open(assert(args[1], "no path list given"), "r"))
  for line in list:lines() do
    if line ~= "" then table.insert(requests, wrk.format("GET", line)) end
  end
  list:close()
  assert(#requests > 0, "the path list is empty")
  index = math.floor((id or 0) * #requests / (tonumber(args[2]) or 1))
end

function request()
  index = index % #requests + 1
  return requests[index]
end

function done(summary, latency, requests_stats)
  local e = summary.errors
  io.write(string.format(
    "serve-bench warm requests=%d duration_us=%d bytes=%d connect=%d read=%d write=%d status=%d timeout=%d p50_us=%d p90_us=%d p99_us=%d max_us=%d mean_us=%.0f\n",
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
end
