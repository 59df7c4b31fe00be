#!/usr/bin/env bash
# kira serve under load on loopback, with wrk, beside its anchors in the same run: kira batch on the
# same poses, and headless Chromium screenshotting a CSS holographic card page (Benchmarks/holo-card)
# cold (one `chromium --headless --screenshot` per image) and warm (one browser, DevTools
# Page.captureScreenshot). Every frame is 800x1000. Prints one table (p50, p99, req/s); not a test.
#
#   swift build -c release && Benchmarks/serve-load.sh [seconds per wrk run]     (from the package's root)
#
# Needs wrk, curl, python3, chromium and chromium-driver with selenium (pip) for the warm browser.
set -euo pipefail
seconds="${1:-10}"
root="$(pwd)"
kira="$root/.build/release/kira"
[ -x "$kira" ] || { echo "build first: swift build -c release" >&2; exit 2; }
for tool in wrk curl python3; do
    command -v "$tool" > /dev/null || { echo "serve-load.sh: needs $tool (Debian: apt-get install $tool)" >&2; exit 2; }
done
work="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
cd "$work"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
row() { printf '%-58s %10s %10s %10s  %s\n' "$@"; }

# wrk scripts: distinct poses (every request a new frame, across wrk's threads), one pose, and a
# revalidation with the frame's ETag. Each prints "p50_ms p99_ms req_s statuses".
cat > distinct.lua <<'LUA'
-- `id` is each thread's global, set by setup (a local here would shadow it: every thread 0).
local threads, next_id = {}, 0
function setup(thread) next_id = next_id + 1; thread:set("id", next_id); table.insert(threads, thread) end
function init(args) extra = args[2] or ""; run = tonumber(args[1]) or 0; statuses = {}; n = 0 end
function request()
  n = n + 1
  -- A distinct k per request across threads and runs, and a distinct pose per k (k < 601 * 6001),
  -- tilts within ±30° as a page shows a card, both varying from one request to the next.
  local k = run * 300000 + id * 100000 + n
  local path = string.format("/v1/cards/sample/render.png?tilt_x=%.1f&tilt_y=%.2f&size=800x1000%s",
    (k % 601) / 10 - 30, (k * 7919 % 6001) / 100 - 30, extra)
  return wrk.format("GET", path)
end
function response(status) statuses[status] = (statuses[status] or 0) + 1 end
function done(summary, latency, requests)
  local counts = {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do counts[status] = (counts[status] or 0) + count end
  end
  local text = ""
  for status, count in pairs(counts) do text = text .. status .. ":" .. count .. " " end
  io.write(string.format("RESULT %.2f %.2f %.1f %s\n", latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.requests / (summary.duration / 1e6), text))
end
LUA
# One pose, without a Lua response() callback, which would cost wrk (on the same two cores) more
# than the server spends on a cached answer; statuses as wrk counts them.
cat > fixed.lua <<'LUA'
function request()
  return wrk.format("GET", "/v1/cards/sample/render.png?tilt_x=8&tilt_y=-14&size=800x1000", etag and { ["If-None-Match"] = etag } or nil)
end
function done(summary, latency, requests)
  io.write(string.format("RESULT %.2f %.2f %.1f non-2xx/3xx:%d errors:%d\n", latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.requests / (summary.duration / 1e6), summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
LUA
run_wrk() {  # run_wrk RUN CONNECTIONS SCRIPT URL [QUERY SUFFIX] -> RESULT line; each RUN number asks its own poses
    local threads=$(( $2 < 2 ? 1 : 2 ))
    wrk -t"$threads" -c"$2" -d"${seconds}s" --timeout 10s --latency -s "$3" "$4" -- "$1" "${5:-}" | sed -n 's/^RESULT //p'
}

sources() {  # sources: "miss:N hit:N joined:N" of the frames the current server logged so far
    for kind in miss hit joined; do printf '%s:%s ' "$kind" "$(grep -c " ms $kind\$" "$work/serve-$port.log" || true)"; done
}

start_server() {  # start_server ARGS... -> sets port, server_pid; prints start-up ms
    port="$(free_port)"
    local begin end
    begin="$(date +%s%N)"
    "$kira" serve --port "$port" "$@" 2> "$work/serve-$port.log" &
    server_pid=$!
    pids+=("$server_pid")
    until curl -s -o /dev/null "http://127.0.0.1:$port/healthz"; do
        kill -0 "$server_pid" 2>/dev/null || { echo "serve-load.sh: kira serve exited: $(tail -n 1 "$work/serve-$port.log")" >&2; exit 1; }
        sleep 0.005
    done
    end="$(date +%s%N)"
    startup_ms=$(( (end - begin) / 1000000 ))
}

echo "kira serve under load: $(nproc) cores, $(uptime | sed 's/.*load average/load average/'), wrk ${seconds} s per row"
echo "build: $("$kira" --version)"
row "case" "p50 ms" "p99 ms" "req/s" "statuses / notes"

# kira batch on 400 distinct poses, the frames/s the server's uncached rate is held against: the
# first 400 poses wrk's first thread asks for in run 1 (the same formula; the server's rows are
# runs 1 to 5, so no pose is asked twice).
python3 - > poses.csv <<'PY'
print("output,tilt_x,tilt_y,size")
for k in range(400001, 400401):
    print(f"out/{k}.png,{(k % 601) / 10 - 30:.1f},{(k * 7919 % 6001) / 100 - 30:.2f},800x1000")
PY
begin="$(date +%s%N)"; "$kira" batch poses.csv --quiet > /dev/null; end="$(date +%s%N)"
batch_rate="$(python3 -c "print(f'{400 / (($end - $begin) / 1e9):.1f}')")"
row "kira batch, 400 distinct poses (standard)" "-" "-" "$batch_rate" "frames/s, written to disk"

start_server --cache 256M
row "start-up to first answered request" "-" "-" "-" "${startup_ms} ms (sample card only)"
base="http://127.0.0.1:$port"
for c in 8 16; do
    read -r p50 p99 rate statuses <<< "$(run_wrk "$(( c / 8 + 1 ))" "$c" distinct.lua "$base")"
    row "uncached, distinct poses, standard, $c connections" "$p50" "$p99" "$rate" "$statuses $(python3 -c "print(f'{$rate / $batch_rate:.2f}x batch')")"
done
read -r p50 p99 fast_rate statuses <<< "$(run_wrk 4 2 distinct.lua "$base" "&compression=fast")"
row "uncached, distinct poses, compression=fast, 2 connections" "$p50" "$p99" "$fast_rate" "$statuses"
read -r p50 p99 single_rate statuses <<< "$(run_wrk 1 1 distinct.lua "$base")"
row "uncached, distinct poses, standard, 1 connection" "$p50" "$p99" "$single_rate" "$statuses"
row "  (frames the server logged in the uncached rows)" "-" "-" "-" "$(sources)"
uncached_rate="$single_rate"
curl -s -o /dev/null "$base/v1/cards/sample/render.png?tilt_x=8&tilt_y=-14&size=800x1000"
read -r p50 p99 cached_rate statuses <<< "$(run_wrk 0 8 fixed.lua "$base")"
row "cached, one pose (~$(curl -s "$base/v1/cards/sample/render.png?tilt_x=8&tilt_y=-14&size=800x1000" | wc -c) B), 8 connections" "$p50" "$p99" "$cached_rate" "$statuses $(python3 -c "print(f'{$cached_rate / $uncached_rate:.0f}x uncached (1 conn)')")"
etag="$(curl -s -D - -o /dev/null "$base/v1/cards/sample/render.png?tilt_x=8&tilt_y=-14&size=800x1000" | tr -d '\r' | sed -n 's/^[Ee][Tt]ag: //p')"
sed -i "1i etag = '$etag'" fixed.lua
read -r p50 p99 rate statuses <<< "$(run_wrk 0 64 fixed.lua "$base")"
row "If-None-Match revalidation (304), 64 connections" "$p50" "$p99" "$rate" "$statuses"
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true

# Overload: 256 connections asking distinct poses of a server with a 1 GiB budget; /healthz polled
# throughout; the accepted requests' latencies from the server's own log lines.
start_server --cache 256M --max-memory 1G
base="http://127.0.0.1:$port"
( while kill -0 "$server_pid" 2>/dev/null; do
      curl -s -o /dev/null -w '%{http_code} %{time_total}\n' --max-time 5 "$base/healthz" || echo "000 5"
      sleep 0.2
  done > health.log ) &
pids+=($!)
( peak=0; while kill -0 "$server_pid" 2>/dev/null; do
      rss="$(sed -n 's/^VmRSS:[^0-9]*\([0-9]*\).*/\1/p' "/proc/$server_pid/status" 2>/dev/null || echo 0)"
      [ "${rss:-0}" -gt "$peak" ] && peak="$rss" && echo "$peak" > rss.peak
      sleep 0.05
  done ) &
pids+=($!)
read -r p50 p99 rate statuses <<< "$(run_wrk 5 256 distinct.lua "$base")"
sleep 0.5
accepted_p99="$(grep -o '/render.png[^ ]* 200 [0-9.]* ms' "$work/serve-$port.log" | awk '{print $3}' | sort -n | awk '{v[NR]=$1} END {i=int(NR*0.99); if (i<1) i=1; print v[i]}')"
health="$(awk '{n++; if ($1 != 200) bad++; if ($2 > worst) worst = $2} END {printf "%d/%d healthz ok, slowest %.0f ms", n - bad, n, worst * 1000}' health.log)"
row "overload, 256 connections, distinct poses" "$p50" "$p99" "$rate" "$statuses"
row "  (accepted requests, from the server's log)" "-" "${accepted_p99:-?}" "-" "peak RSS $(( $(cat rss.peak 2>/dev/null || echo 0) / 1024 )) MiB of --max-memory 1024 MiB; $health"
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true

# The anchor: the same 800x1000 card in headless Chromium, from a CSS holographic card page.
mkdir -p page shots
cp "$root/Benchmarks/holo-card/index.html" page/
"$kira" textures --output-dir textures > /dev/null
cp textures/front.png page/card.png && cp textures/mask.png page/mask.png
page_port="$(free_port)"
(cd page && exec python3 -m http.server "$page_port" --bind 127.0.0.1 > /dev/null 2>&1) &
pids+=($!)
until curl -s -o /dev/null "http://127.0.0.1:$page_port/index.html"; do sleep 0.05; done
count=5
begin="$(date +%s%N)"
for i in $(seq $count); do
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=800,1000 --default-background-color=00000000 \
        --screenshot="shots/cold-$i.png" "http://127.0.0.1:$page_port/index.html?rx=$(( i * 3 - 8 ))&ry=$(( 14 - i * 5 ))" > /dev/null 2>&1
done
end="$(date +%s%N)"
cold_rate="$(python3 -c "print(f'{$count / (($end - $begin) / 1e9):.2f}')")"
cold_ms="$(python3 -c "print(f'{($end - $begin) / 1e6 / $count:.0f}')")"
row "Chromium cold, one screenshot per process, $count images" "$cold_ms" "-" "$cold_rate" "images/s; Kira uncached at 1 connection: $(python3 -c "print(f'{$uncached_rate / $cold_rate:.0f}x')")"
if python3 -c 'import selenium' 2>/dev/null && command -v chromedriver > /dev/null; then
    read -r _ images _ took <<< "$(python3 "$root/Benchmarks/holo-card/warm-screenshots.py" "http://127.0.0.1:$page_port/index.html" 20 shots 2>/dev/null | grep '^images' || true)"
    if [ -n "${took:-}" ]; then
        row "Chromium warm, DevTools Page.captureScreenshot, 20 images" "$(python3 -c "print(f'{$took * 1000 / $images:.0f}')")" "-" \
            "$(python3 -c "print(f'{$images / $took:.2f}')")" "images/s; Kira uncached at 1 connection: $(python3 -c "print(f'{$uncached_rate / ($images / $took):.1f}x')")"
    else
        row "Chromium warm" "-" "-" "-" "failed (run Benchmarks/holo-card/warm-screenshots.py by hand to see why)"
    fi
else
    row "Chromium warm" "-" "-" "-" "skipped: needs selenium (pip) and chromedriver"
fi
