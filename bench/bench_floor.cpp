// The floor a streaming client cannot go below on this machine: N keep-alive connections to kneepoint-sim,
// each sending the stream scenario's request (bench_client --scenario stream: /v1/completions, 8 prompt
// words, max_tokens T, ignore_eos) as soon as its previous answer ended, read with one epoll set and recv()
// into one buffer whose bytes are discarded. What it costs per event is the kernel's (the recv, its ACK,
// the epoll pass) and a scan for the end of each answer; bench_client's CPU per event is read against it
// (run_all.sh, docs/BENCHMARKS.md). Plain C++ and Linux, no Qt: nothing of Kneepoint's is in the loop.
// Prints one JSON line in bench_client's shape, "client": "floor".

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

double processCpuS()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

struct Connection
{
    int fd = -1;
    char tail[8] = {}; // the last bytes read: an answer ends with the chunked terminator "0\r\n\r\n"
    std::size_t tailSize = 0;
    bool busy = false;
};

// The answer is over when the bytes read so far end with the last chunk: the server writes nothing more
// until the next request, so the terminator is always the end of a read.
bool endsAnswer(Connection& c, const char* data, std::size_t n)
{
    static constexpr std::string_view terminator("0\r\n\r\n");
    if (n >= sizeof c.tail) {
        std::memcpy(c.tail, data + n - sizeof c.tail, sizeof c.tail);
        c.tailSize = sizeof c.tail;
    } else {
        const std::size_t keep = std::min(c.tailSize, sizeof c.tail - n);
        std::memmove(c.tail, c.tail + c.tailSize - keep, keep);
        std::memcpy(c.tail + keep, data, n);
        c.tailSize = keep + n;
    }
    return c.tailSize >= terminator.size()
        && std::string_view(c.tail + c.tailSize - terminator.size(), terminator.size()) == terminator;
}

// Choices events in a read ("data: {" opens each; the rare one split between two reads is not counted).
long long countEvents(const char* data, std::size_t n)
{
    static constexpr std::string_view open("data: {");
    long long events = 0;
    std::string_view rest(data, n);
    for (std::size_t at = rest.find(open); at != std::string_view::npos; at = rest.find(open, at + open.size()))
        ++events;
    return events;
}

} // namespace

int main(int argc, char** argv)
{
    std::string host = "127.0.0.1";
    int port = 0;
    int users = 200;
    int tokens = 500;
    int prompts = 400;
    std::string model = "kneepoint-sim";
    std::string label = "saturating";
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string_view flag(argv[i]);
        const char* value = argv[i + 1];
        if (flag == "--host")
            host = value;
        else if (flag == "--port")
            port = std::atoi(value);
        else if (flag == "--users")
            users = std::atoi(value);
        else if (flag == "--tokens")
            tokens = std::atoi(value);
        else if (flag == "--prompts")
            prompts = std::atoi(value);
        else if (flag == "--model")
            model = value;
        else if (flag == "--label")
            label = value;
    }
    if (port <= 0 || users <= 0 || prompts <= 0) {
        std::fprintf(stderr,
            "usage: bench_floor --port P [--host H] [--users N] [--tokens T] [--prompts N] "
            "[--model M] [--label L]\n");
        return 2;
    }
    const std::string body = "{\"model\":\"" + model
        + "\",\"prompt\":\"one two three four five six seven eight\",\"max_tokens\":" + std::to_string(tokens)
        + ",\"stream\":true,\"ignore_eos\":true}";
    const std::string request = "POST /v1/completions HTTP/1.1\r\nHost: " + host + ":" + std::to_string(port)
        + "\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: "
        + std::to_string(body.size()) + "\r\n\r\n" + body;

    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    if (inet_pton(AF_INET, host.c_str(), &address.sin_addr) != 1) {
        std::fprintf(stderr, "bench_floor: %s is not an IPv4 address\n", host.c_str());
        return 2;
    }
    const int epoll = epoll_create1(0);
    const int connections = std::min(users, prompts);
    std::vector<Connection> conns(static_cast<std::size_t>(connections));
    const double cpuStart = processCpuS();
    const auto wallStart = std::chrono::steady_clock::now();
    int sent = 0;
    int done = 0;
    long long events = 0;
    const auto send = [&](Connection& c) {
        c.busy = true;
        c.tailSize = 0;
        ++sent;
        if (::send(c.fd, request.data(), request.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(request.size())) {
            std::perror("bench_floor: send");
            std::exit(1);
        }
    };
    for (std::size_t i = 0; i < conns.size(); ++i) {
        Connection& c = conns[i];
        c.fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        const int one = 1;
        setsockopt(c.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (::connect(c.fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
            std::perror("bench_floor: connect");
            return 1;
        }
        epoll_event ev {};
        ev.events = EPOLLIN;
        ev.data.u64 = i;
        epoll_ctl(epoll, EPOLL_CTL_ADD, c.fd, &ev);
        send(c);
    }
    std::vector<char> buffer(64 * 1024);
    std::vector<epoll_event> ready(static_cast<std::size_t>(connections));
    while (done < prompts) {
        const int n = epoll_wait(epoll, ready.data(), static_cast<int>(ready.size()), -1);
        for (int k = 0; k < n; ++k) {
            Connection& c = conns[ready[static_cast<std::size_t>(k)].data.u64];
            const ssize_t got = ::recv(c.fd, buffer.data(), buffer.size(), 0);
            if (got <= 0) {
                std::fprintf(stderr, "bench_floor: the server closed a connection\n");
                return 1;
            }
            events += countEvents(buffer.data(), static_cast<std::size_t>(got));
            if (!endsAnswer(c, buffer.data(), static_cast<std::size_t>(got)))
                continue;
            c.busy = false;
            ++done;
            if (sent < prompts)
                send(c);
        }
    }
    const double wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    const double cpuS = processCpuS() - cpuStart;
    for (Connection& c : conns)
        ::close(c.fd);
    std::printf("{\"scenario\":\"stream\",\"client\":\"floor\",\"load\":\"%s\",\"users\":%d,\"completed\":%d,"
                "\"events\":%lld,\"events_per_s\":%.1f,\"events_per_core_s\":%.1f,\"cpu_cores\":%.4f,"
                "\"cpu_per_event_us\":%.4f,\"cpu_per_request_us\":%.2f}\n",
        label.c_str(), users, done, events, double(events) / wallS, cpuS > 0 ? double(events) / cpuS : 0.0,
        cpuS / wallS, events > 0 ? cpuS * 1e6 / double(events) : 0.0, cpuS * 1e6 / double(done));
    return 0;
}
