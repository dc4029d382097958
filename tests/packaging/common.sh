# Shared by the packaging tests (sourced). Each test defines fail() before using these.

# sim_url PID OUT ERR: the base URL kneepoint-sim (process PID, stdout in OUT, stderr in ERR) printed
# on its first line, waiting up to 10 s for it; fails when the simulator exits or prints none.
sim_url() {
    local pid=$1 out=$2 err=$3 url= _
    for _ in $(seq 100); do
        url=$(head -n1 "$out" | sed -n 's/^listening on //p')
        [ -n "$url" ] && break
        kill -0 "$pid" 2>/dev/null || { cat "$err" >&2; fail "kneepoint-sim exited"; }
        sleep 0.1
    done
    [ -n "$url" ] || fail "kneepoint-sim printed no base URL"
    echo "$url"
}
