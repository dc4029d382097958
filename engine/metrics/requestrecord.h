#pragma once

#include "metrics/chunktimes.h"

#include <QMetaType>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace kp {

// Why a request failed (METRICS.md, "Failure classes"). None means success.
enum class FailureClass {
    None,
    ConnectionRefused,
    HostNotFound,
    Tls,
    ConnectTimeout,
    FirstByteTimeout,
    IdleTimeout,
    TotalTimeout,
    HttpAuth, // 401/403
    HttpNotFound, // 404
    HttpRateLimited, // 429
    HttpServerError, // 5xx
    HttpOther, // any other non-200 status
    ErrorBody, // HTTP 200 whose body or an event is an error object
    MalformedStream, // not SSE, bad JSON in an event
    NoChoices, // a well-formed stream that never carried a choices event
    StreamCut, // the connection ended before [DONE]
    Network, // any other transport error
    ResponseTooLarge, // the response passed the client's size cap (a flood or a runaway body)
    Cancelled, // stopped by the user
};

// What a failed response said besides its status, taken from its headers and body: the facts the
// advice for it (failureHint) names. Server text here is already inert.
struct ResponseFacts
{
    QString location; // a redirect's Location header
    std::optional<double> retryAfterS; // Retry-After, in seconds (a date becomes the seconds from the answer)
    QString contentEncoding; // a Content-Encoding other than identity: a body the client does not decode
    bool contextExceeded = false; // the body says the request exceeds the model's maximum context length
    std::optional<qint64> contextLimit; // the maximum context length the body names, in tokens

    bool isEmpty() const
    {
        return location.isEmpty() && !retryAfterS && contentEncoding.isEmpty() && !contextExceeded && !contextLimit;
    }
    bool operator==(const ResponseFacts&) const = default;
};

// One request as the client saw it. Every time is in nanoseconds on the steady clock, relative to the
// start of the step it belongs to; -1 means "did not happen".
struct RequestRecord
{
    qint64 index = -1; // position in the step's prompt list
    QString requestId; // the x-request-id that was sent
    QString model; // the model name of a mix (workload.model_mix) it went to; empty without a mix
    int session = -1; // multi-turn: the session's number in the step (0-based, in start order); -1 single-turn
    int turn = -1; // multi-turn: the turn's number in its session, 1-based; -1 single-turn

    qint64 scheduledNs = -1; // intended send time from the arrival schedule
    qint64 sentNs = -1; // `st`: just before the POST was handed to the network (after the concurrency gate)
    qint64 firstByteNs = -1; // response headers received
    qint64 firstTokenNs = -1; // first data event whose choices array is non-empty (TTFT)
    qint64 firstContentNs = -1; // first event with non-empty answer text, reasoning aside (TTFC; SGLang's TTFT)
    qint64 lastTokenNs = -1; // the last choices event: E2EL's end (a trailing usage-only event is not one)
    qint64 endNs = -1; // the stream ended ([DONE], close, or failure)
    // Arrival of every choices event, first included (ITL = successive gaps): 32-bit offsets, exact (ChunkTimes).
    ChunkTimes chunkNs;
    // A duration, not a time: how long the new connection this request opened took to be ready (TCP
    // connect, plus the TLS handshake over https), part of its TTFT; -1 when it went out on a kept-alive
    // connection or the transport cannot tell (QNAM).
    qint64 connectNs = -1;

    // Times the request was sent: 2 when the socket transport sent it again on a fresh connection after
    // the kept-alive one it went out on closed before any answer. QNAM's own resend cannot be seen: 1 there.
    int attempts = 1;
    int httpStatus = 0;
    FailureClass failure = FailureClass::None;
    QString errorMessage; // names what failed (URL, status, timeout and its value, first bytes of the body)
    ResponseFacts response; // failures only

    int promptTokens = 0; // the dataset's count for the prompt
    int serverPromptTokens = -1; // usage.prompt_tokens, -1 when the server sent none
    int cachedTokens = -1; // usage.prompt_tokens_details.cached_tokens (prefix-cache hits), -1 when not sent
    int outputTokens = 0; // usage.completion_tokens, else counted from the text
    int reasoningTokens = -1; // of outputTokens, those spent reasoning (usage's details, else counted); -1 unknown
    int requestedOutputTokens = -1; // the max_tokens the request asked for; -1 when it set none
    bool outputTokensFromUsage = false;
    QString generatedText; // the answer; reasoning text is not kept
    // Types of Responses or Messages stream events the client does not know, each once, in order (inert);
    // the first kMaxUnknownEventTypes, then moreUnknownEvents says there were others.
    static constexpr std::size_t kMaxUnknownEventTypes = 16;
    std::vector<QString> unknownEvents;
    bool moreUnknownEvents = false;

    bool success() const { return failure == FailureClass::None; }
};

// The HTTP status that tells failures of one class apart (a 500 from a 503, a 413 from a 400) where
// failures are grouped with an example; 0 for the classes that are not about a status.
inline int failureGroupStatus(const RequestRecord& r)
{
    switch (r.failure) {
    case FailureClass::HttpAuth:
    case FailureClass::HttpNotFound:
    case FailureClass::HttpRateLimited:
    case FailureClass::HttpServerError:
    case FailureClass::HttpOther:
        return r.httpStatus;
    default:
        return 0;
    }
}

} // namespace kp

Q_DECLARE_METATYPE(kp::RequestRecord)
Q_DECLARE_METATYPE(kp::FailureClass)
