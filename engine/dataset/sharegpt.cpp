// ShareGPT JSON, read streaming: nlohmann's SAX parser over a buffered file, so that memory holds the
// prompts being kept (numPrompts of them) and a read buffer, whatever the size of the file.

#include "dataset/dataset.h"
#include "metrics/phrase.h"

#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <iterator>
#include <memory>
#include <queue>
#include <random>

namespace kp {

namespace {

constexpr std::size_t kBufferBytes = 1 << 20;
constexpr qint64 kProgressEveryBytes = 8 << 20;

// A file read in large blocks, one byte at a time; counts what it handed out.
class ByteSource
{
public:
    explicit ByteSource(std::FILE* file)
        : m_file(file)
        , m_buffer(kBufferBytes)
    { }

    int peek()
    {
        if (m_pos == m_len && !refill())
            return -1;
        return static_cast<unsigned char>(m_buffer[m_pos]);
    }
    void advance()
    {
        ++m_pos;
        ++m_consumed;
    }
    qint64 consumed() const { return m_consumed; }
    bool failed() const { return m_failed; }

private:
    bool refill()
    {
        if (m_eof)
            return false;
        m_len = std::fread(m_buffer.data(), 1, m_buffer.size(), m_file);
        m_pos = 0;
        if (m_len < m_buffer.size()) {
            m_eof = true;
            m_failed = std::ferror(m_file) != 0;
        }
        return m_len > 0;
    }

    std::FILE* m_file;
    std::vector<char> m_buffer;
    std::size_t m_pos = 0;
    std::size_t m_len = 0;
    qint64 m_consumed = 0;
    bool m_eof = false;
    bool m_failed = false;
};

// An input iterator over a ByteSource for nlohmann's iterator input adapter; a null source is the end.
struct ByteIterator
{
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = char;

    ByteSource* source = nullptr;

    char operator*() const { return static_cast<char>(source->peek()); }
    ByteIterator& operator++()
    {
        source->advance();
        return *this;
    }
    ByteIterator operator++(int)
    {
        ByteIterator before = *this;
        source->advance();
        return before;
    }
    bool atEnd() const { return !source || source->peek() < 0; }
    bool operator==(const ByteIterator& other) const { return atEnd() == other.atEnd(); }
};

// splitmix64: the shuffle key of conversation i, so that the order does not depend on reading order.
quint64 shuffleKey(quint64 seed, quint64 index)
{
    quint64 z = seed + 0x9e3779b97f4a7c15ULL * (index + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

struct Candidate
{
    quint64 key = 0;
    Prompt prompt;
    bool operator<(const Candidate& other) const { return key < other.key; }
};

struct SessionCandidate
{
    quint64 key = 0;
    Conversation conversation;
    bool operator<(const SessionCandidate& other) const { return key < other.key; }
};

// Empties a heap of kept candidates (largest key on top) into their payloads, smallest key first.
template <typename Kept, typename Payload>
std::vector<Payload> takeInShuffleOrder(std::priority_queue<Kept>& heap, Payload Kept::*payload)
{
    std::vector<Kept> kept;
    kept.reserve(heap.size());
    while (!heap.empty()) {
        kept.push_back(std::move(const_cast<Kept&>(heap.top())));
        heap.pop();
    }
    std::vector<Payload> out;
    out.reserve(kept.size());
    for (auto it = kept.rbegin(); it != kept.rend(); ++it)
        out.push_back(std::move((*it).*payload));
    return out;
}

enum class Speaker { User, Answer, System, Unknown };

Speaker speakerOf(const std::string& from)
{
    if (from == "human" || from == "user")
        return Speaker::User;
    if (from == "gpt" || from == "assistant" || from == "chatgpt" || from == "bard" || from == "model")
        return Speaker::Answer;
    if (from == "system")
        return Speaker::System;
    return Speaker::Unknown;
}

struct Message
{
    std::string from;
    std::string value;
};

class ShareGptSax
{
public:
    using Json = nlohmann::json;

    ShareGptSax(const ShareGptOptions& options, ByteSource& source, qint64 totalBytes, const QString& path)
        : m_options(options)
        , m_source(source)
        , m_total(totalBytes)
        , m_path(path)
    { }

    // nlohmann::json_sax interface.
    bool null() { return scalar("null"); }
    bool boolean(bool) { return scalar("a boolean"); }
    bool number_integer(Json::number_integer_t) { return scalar("a number"); }
    bool number_unsigned(Json::number_unsigned_t) { return scalar("a number"); }
    bool number_float(Json::number_float_t, const Json::string_t&) { return scalar("a number"); }
    bool binary(Json::binary_t&) { return scalar("binary data"); }

    bool string(Json::string_t& value)
    {
        const Role role = valueRole();
        if (role == Role::TurnValue && m_options.multiTurn) {
            m_value = std::move(value);
            return true;
        }
        if (role == Role::TurnFrom) {
            m_from = std::move(value);
            return true;
        }
        if (role == Role::TurnValue) {
            if (m_turn == 0)
                m_promptText = std::move(value);
            else if (m_turn == 1)
                m_outputWords = countWordsUtf8(value);
            return true;
        }
        return role == Role::Skip || role == Role::Other ? true : fail(role, "a string");
    }

    bool start_object(std::size_t)
    {
        const Role role = valueRole();
        switch (role) {
        case Role::Entry:
            m_entryProblem.clear();
            m_hasTurns = false;
            m_turns = 0;
            m_promptText.clear();
            m_outputWords = -1;
            m_messages.clear();
            m_stack.push_back(Role::Entry);
            return true;
        case Role::Turn:
            m_turn = m_turns++;
            m_from.clear();
            m_value.clear();
            m_stack.push_back(Role::Turn);
            return true;
        default:
            return skipOrFail(role, "an object");
        }
    }

    bool key(Json::string_t& key)
    {
        m_key = std::move(key);
        return true;
    }

    bool end_object()
    {
        const Role role = m_stack.back();
        m_stack.pop_back();
        if (role == Role::Entry && !m_entryProblem.isEmpty())
            return badSession(static_cast<quint64>(m_stats.conversations++), std::exchange(m_entryProblem, {}));
        if (role == Role::Turn && m_options.multiTurn)
            m_messages.push_back({ std::move(m_from), std::move(m_value) });
        if (role == Role::Entry && m_options.multiTurn)
            return endSession();
        if (role == Role::Entry)
            endConversation();
        return true;
    }

    bool start_array(std::size_t)
    {
        const Role role = valueRole();
        switch (role) {
        case Role::Root:
            m_stack.push_back(Role::Entries);
            return true;
        case Role::Turns:
            m_hasTurns = true;
            m_stack.push_back(Role::Turns);
            return true;
        default:
            return skipOrFail(role, "an array");
        }
    }

    bool end_array()
    {
        m_stack.pop_back();
        return true;
    }

    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex)
    {
        std::string what = ex.what();
        // "[json.exception.parse_error.101] parse error at line 1, column 2: ..." → "parse error at ..."
        if (const auto bracket = what.find("] "); what.starts_with("[json.exception") && bracket != std::string::npos)
            what.erase(0, bracket + 2);
        m_error = QStringLiteral("byte %1: %2").arg(position).arg(QString::fromStdString(what));
        return false;
    }

    const QString& error() const { return m_error; }
    const QStringList& problems() const { return m_problems; }
    const ShareGptStats& stats() const { return m_stats; }

    // The kept prompts in shuffle order.
    std::vector<Prompt> takePrompts() { return takeInShuffleOrder(m_kept, &Candidate::prompt); }

    // The kept sessions in shuffle order.
    std::vector<Conversation> takeSessions()
    {
        return takeInShuffleOrder(m_keptSessions, &SessionCandidate::conversation);
    }

private:
    enum class Role {
        Root, // the document
        Entries, // the top-level array
        Entry, // one conversation object
        Turns, // its "conversations" array
        Turn, // one turn object
        TurnValue, // a turn's "value"
        TurnFrom, // a turn's "from" (multi-turn only)
        Other, // any other member of an entry or turn: ignored
        Skip, // inside an ignored value
    };

    // What the value about to start is, from its container and key.
    Role valueRole() const
    {
        if (m_stack.empty())
            return Role::Root;
        switch (m_stack.back()) {
        case Role::Entries:
            return Role::Entry;
        case Role::Entry:
            return m_key == "conversations" ? Role::Turns : Role::Other;
        case Role::Turns:
            return Role::Turn;
        case Role::Turn:
            if (m_key == "from" && m_options.multiTurn)
                return Role::TurnFrom;
            return m_key == "value" ? Role::TurnValue : Role::Other;
        default:
            return Role::Skip;
        }
    }

    bool scalar(const char* what)
    {
        const Role role = valueRole();
        return role == Role::Skip || role == Role::Other ? true : fail(role, what);
    }

    // A value of the wrong type. Inside a conversation (or a conversation that is not an object), unless
    // strict: the conversation is malformed, counted and named once it ends, the value skipped; anywhere
    // else, or strict: the end of the read.
    // A container where nothing is read (or inside one) is skipped whole; anywhere else it is an error.
    bool skipOrFail(Role role, const char* found)
    {
        if (role == Role::Skip || role == Role::Other) {
            m_stack.push_back(Role::Skip);
            return true;
        }
        return fail(role, found, true);
    }

    bool fail(Role role, const char* found, bool container = false)
    {
        const bool inEntry = role == Role::Entry || role == Role::Turns || role == Role::Turn || role == Role::TurnValue
            || role == Role::TurnFrom;
        if (inEntry && !m_options.strict) {
            const QString problem
                = phrase("ShareGpt", "expected %1, found %2").arg(expected(role), QLatin1String(found));
            if (container)
                m_stack.push_back(Role::Skip);
            if (role == Role::Entry) // not an object: it ends here
                return badSession(static_cast<quint64>(m_stats.conversations++), problem);
            if (m_entryProblem.isEmpty())
                m_entryProblem = problem;
            return true;
        }
        m_error = phrase("ShareGpt", "byte %1: expected %2, found %3")
                      .arg(m_source.consumed())
                      .arg(expected(role), QLatin1String(found));
        return false;
    }

    QString expected(Role role) const
    {
        QString out;
        switch (role) {
        case Role::Root:
            out = phrase("ShareGpt", "a JSON array of conversations");
            break;
        case Role::Entry:
            out = phrase("ShareGpt", "conversation %1 to be an object").arg(m_stats.conversations);
            break;
        case Role::Turns:
            out = phrase("ShareGpt", "\"conversations\" of conversation %1 to be an array").arg(m_stats.conversations);
            break;
        case Role::Turn:
            out = phrase("ShareGpt", "turn %1 of conversation %2 to be an object")
                      .arg(m_turns)
                      .arg(m_stats.conversations);
            break;
        case Role::TurnValue:
            out = phrase("ShareGpt", "\"value\" of turn %1 of conversation %2 to be a string")
                      .arg(m_turn)
                      .arg(m_stats.conversations);
            break;
        case Role::TurnFrom:
            out = phrase("ShareGpt", "\"from\" of turn %1 of conversation %2 to be a string")
                      .arg(m_turn)
                      .arg(m_stats.conversations);
            break;
        default:
            out = phrase("ShareGpt", "something else");
            break;
        }
        return out;
    }

    // Counts the conversation that just ended and reports progress now and then; its index.
    quint64 countConversation()
    {
        const quint64 index = static_cast<quint64>(m_stats.conversations++);
        if (m_options.progress && m_source.consumed() >= m_nextProgress) {
            m_options.progress(m_source.consumed(), m_total);
            m_nextProgress = m_source.consumed() + kProgressEveryBytes;
        }
        return index;
    }

    // The reference's length filter (when enabled) on a first prompt and its output; what it refuses is counted.
    bool passesLengthFilter(int promptTokens, int outputTokens, bool fixedOutput)
    {
        const LengthFilter& f = m_options.filter;
        if (promptTokens < f.minLen) {
            ++m_stats.promptTooShort;
            return false;
        }
        if (!fixedOutput && outputTokens < f.minLen) {
            ++m_stats.outputTooShort;
            return false;
        }
        if (promptTokens > f.maxPromptLen) {
            ++m_stats.promptTooLong;
            return false;
        }
        if (promptTokens + outputTokens > f.maxTotalLen) {
            ++m_stats.totalTooLong;
            return false;
        }
        return true;
    }

    void endConversation()
    {
        const quint64 index = countConversation();
        if (!m_hasTurns || m_turns < 2) {
            ++m_stats.tooFewTurns;
            return;
        }
        // The key is drawn for every conversation with two turns, as the reference shuffles them all.
        const quint64 key = shuffleKey(m_options.seed, index);
        const int promptTokens = countWordsUtf8(m_promptText);
        const int completionTokens = std::max(0, m_outputWords);
        const bool fixedOutput = m_options.fixedOutputTokens > 0;
        const int outputTokens = fixedOutput ? m_options.fixedOutputTokens : completionTokens;
        if (m_options.filter.enabled) {
            if (!passesLengthFilter(promptTokens, outputTokens, fixedOutput))
                return;
        } else if (promptTokens < 1 || outputTokens < 1) {
            ++m_stats.promptTooShort;
            return;
        }
        ++m_stats.usable;
        const std::size_t limit = static_cast<std::size_t>(std::max(1, m_options.numPrompts));
        if (m_kept.size() >= limit && !(key < m_kept.top().key))
            return;
        Candidate c;
        c.key = key;
        c.prompt.text = QString::fromStdString(m_promptText);
        c.prompt.promptTokens = promptTokens;
        c.prompt.outputTokens = outputTokens;
        m_kept.push(std::move(c));
        if (m_kept.size() > limit)
            m_kept.pop();
    }

    // A malformed conversation: counted and named, or the end of the read when strict.
    bool badSession(quint64 index, const QString& problem)
    {
        ++m_stats.badConversations;
        const QString message = phrase("ShareGpt", "%1: conversation %2 (ending at byte %3): %4")
                                    .arg(m_path)
                                    .arg(index)
                                    .arg(m_source.consumed())
                                    .arg(problem);
        if (m_options.strict) {
            m_error = phrase("ShareGpt", "conversation %1 (ending at byte %2): %3")
                          .arg(index)
                          .arg(m_source.consumed())
                          .arg(problem);
            return false;
        }
        if (m_stats.badConversations <= 20)
            m_problems << message;
        return true;
    }

    bool endSession()
    {
        const quint64 index = countConversation();
        if (!m_hasTurns || m_messages.size() < 2) {
            ++m_stats.tooFewTurns;
            return true;
        }
        // Roles in order: an optional system turn, then user and answer in turn.
        std::size_t pos = 0;
        const Message* system = nullptr;
        if (speakerOf(m_messages[0].from) == Speaker::System)
            system = &m_messages[pos++];
        struct Pair
        {
            const Message* user;
            const Message* answer;
        };
        std::vector<Pair> pairs;
        for (std::size_t i = pos; i < m_messages.size(); ++i) {
            const Speaker speaker = speakerOf(m_messages[i].from);
            const bool wantUser = (i - pos) % 2 == 0;
            if (speaker == Speaker::Unknown)
                return badSession(index,
                    phrase("ShareGpt", "turn %1 has the unknown role \"%2\"")
                        .arg(i)
                        .arg(QString::fromStdString(m_messages[i].from)));
            if (speaker == Speaker::System)
                return badSession(index, phrase("ShareGpt", "turn %1 is a system turn after the start").arg(i));
            if (wantUser && speaker != Speaker::User)
                return badSession(index,
                    i == pos ? phrase("ShareGpt", "turn %1 is an answer before any user turn").arg(i)
                             : phrase("ShareGpt", "turns %1 and %2 are two answers in a row").arg(i - 1).arg(i));
            if (!wantUser && speaker != Speaker::Answer)
                return badSession(
                    index, phrase("ShareGpt", "turns %1 and %2 are two user turns in a row").arg(i - 1).arg(i));
            if (wantUser)
                pairs.push_back({ &m_messages[i], nullptr });
            else
                pairs.back().answer = &m_messages[i];
        }
        if (pairs.empty())
            return badSession(index, phrase("ShareGpt", "no user turn"));
        if (!pairs.back().answer)
            pairs.pop_back(); // a last question without an answer has no output length
        if (pairs.empty()) {
            ++m_stats.tooFewTurns;
            return true;
        }
        const quint64 key = shuffleKey(m_options.seed, index);
        const std::size_t limit = static_cast<std::size_t>(std::max(1, m_options.numPrompts));
        const bool fixedOutput = m_options.fixedOutputTokens > 0;
        const LengthFilter& f = m_options.filter;
        const int systemTokens = system ? countWordsUtf8(system->value) : 0;
        std::vector<std::array<int, 3>> lengths; // user, answer, max_tokens
        int history = systemTokens;
        for (std::size_t k = 0; k < pairs.size(); ++k) {
            const int user = countWordsUtf8(pairs[k].user->value);
            const int answer = countWordsUtf8(pairs[k].answer->value);
            const int output = fixedOutput ? m_options.fixedOutputTokens : answer;
            const int prompt = history + user;
            if (k == 0) {
                if (f.enabled) {
                    if (!passesLengthFilter(prompt, output, fixedOutput))
                        return true;
                } else if (user < 1 || output < 1) {
                    ++m_stats.promptTooShort;
                    return true;
                }
            } else if (user < 1 || output < 1) {
                break;
            } else if (f.enabled && (prompt > f.maxPromptLen || prompt + output > f.maxTotalLen)) {
                if (m_stats.cutByFilters++ == 0) {
                    m_stats.firstCut = static_cast<qint64>(index);
                    m_stats.firstCutKept = static_cast<int>(k);
                    m_stats.firstCutTurns = static_cast<int>(pairs.size());
                }
                m_stats.turnsCut += static_cast<qint64>(pairs.size() - k);
                break;
            }
            lengths.push_back({ user, answer, output });
            history = prompt + answer;
        }
        ++m_stats.usable;
        if (m_keptTurns >= limit && !(key < m_keptSessions.top().key))
            return true;
        SessionCandidate c;
        c.key = key;
        c.conversation.origin = phrase("ShareGpt", "%1: conversation %2").arg(m_path).arg(index);
        if (system) {
            c.conversation.system = QString::fromStdString(system->value);
            c.conversation.systemTokens = systemTokens;
        }
        c.conversation.turns.reserve(lengths.size());
        for (std::size_t k = 0; k < lengths.size(); ++k) {
            Turn t;
            t.user = QString::fromStdString(pairs[k].user->value);
            t.userTokens = lengths[k][0];
            t.answer = QString::fromStdString(pairs[k].answer->value);
            t.answerTokens = lengths[k][1];
            t.outputTokens = lengths[k][2];
            c.conversation.turns.push_back(std::move(t));
        }
        m_keptTurns += c.conversation.turns.size();
        m_keptSessions.push(std::move(c));
        // Drop the sessions of the largest keys while the others still cover numPrompts turns.
        while (m_keptSessions.size() > 1 && m_keptTurns - m_keptSessions.top().conversation.turns.size() >= limit) {
            m_keptTurns -= m_keptSessions.top().conversation.turns.size();
            m_keptSessions.pop();
        }
        return true;
    }

    const ShareGptOptions& m_options;
    ByteSource& m_source;
    qint64 m_total;
    QString m_path;
    qint64 m_nextProgress = kProgressEveryBytes;
    std::vector<Role> m_stack;
    std::string m_key;
    bool m_hasTurns = false;
    int m_turns = 0;
    int m_turn = 0;
    std::string m_promptText;
    int m_outputWords = -1;
    ShareGptStats m_stats;
    std::priority_queue<Candidate> m_kept; // the smallest keys, largest on top
    // multi-turn: the turns of the conversation being read, and the sessions kept
    std::string m_from;
    std::string m_value;
    std::vector<Message> m_messages;
    std::priority_queue<SessionCandidate> m_keptSessions;
    std::size_t m_keptTurns = 0;
    QStringList m_problems;
    QString m_entryProblem; // the conversation being read has a value of the wrong type
    QString m_error;
};

} // namespace

DatasetResult loadShareGpt(const QString& path, const ShareGptOptions& options)
{
    DatasetResult result;
    const QByteArray nativePath = QFile::encodeName(path);
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(nativePath.constData(), "rb"), &std::fclose);
    if (!file) {
        QFile probe(path);
        probe.open(QIODevice::ReadOnly);
        result.error = phrase("ShareGpt", "%1: cannot open: %2").arg(path, probe.errorString());
        return result;
    }
    const qint64 total = QFileInfo(path).size();
    ByteSource source(file.get());
    ShareGptSax sax(options, source, total, path);
    bool parsed = false;
    try {
        parsed = nlohmann::json::sax_parse(ByteIterator { &source }, ByteIterator {}, &sax);
    } catch (const std::exception& e) {
        result.error
            = QStringLiteral("%1: byte %2: %3").arg(path).arg(source.consumed()).arg(QString::fromUtf8(e.what()));
        return result;
    }
    if (source.failed()) {
        result.error = phrase("ShareGpt", "%1: read error at byte %2").arg(path).arg(source.consumed());
        return result;
    }
    if (!parsed) {
        result.error = path + QStringLiteral(": ") + sax.error();
        return result;
    }
    result.shareGpt = sax.stats();
    result.shareGpt.bytes = source.consumed();
    if (options.progress)
        options.progress(source.consumed(), total);
    const ShareGptStats& s = result.shareGpt;
    const qint64 dropped = s.conversations - s.usable;
    if (dropped > 0)
        result.warnings << QStringLiteral(
            "%1: %2 of %3 conversations dropped: %4 with fewer than two turns, %5 prompts "
            "too short, %6 outputs too short, %7 prompts too long, %8 too long in total")
                               .arg(path)
                               .arg(dropped)
                               .arg(s.conversations)
                               .arg(s.tooFewTurns)
                               .arg(s.promptTooShort)
                               .arg(s.outputTooShort)
                               .arg(s.promptTooLong)
                               .arg(s.totalTooLong);
    result.warnings << sax.problems();
    result.badLines = s.badConversations;
    if (s.badConversations > 20)
        result.warnings
            << phrase("ShareGpt", "%1: %2 more malformed conversations skipped").arg(path).arg(s.badConversations - 20);
    if (s.cutByFilters > 0)
        result.warnings << phrase("ShareGpt",
            "%1: the length filters cut %2 conversations short, leaving out %3 turns (conversation %4 kept %5 of "
            "its %6 turns): a turn's prompt carries the history before it, which counts toward max_prompt_len "
            "(%7) and max_total_len (%8); raise them or set filter_lengths to false to keep more turns")
                               .arg(path)
                               .arg(s.cutByFilters)
                               .arg(s.turnsCut)
                               .arg(s.firstCut)
                               .arg(s.firstCutKept)
                               .arg(s.firstCutTurns)
                               .arg(options.filter.maxPromptLen)
                               .arg(options.filter.maxTotalLen);
    if (options.multiTurn) {
        result.sessions = sax.takeSessions();
        if (result.sessions.empty())
            result.error = phrase("ShareGpt", "%1: no usable conversations (%2 read)").arg(path).arg(s.conversations);
        return result;
    }
    std::vector<Prompt> kept = sax.takePrompts();
    if (kept.empty()) {
        result.error = phrase("ShareGpt", "%1: no usable conversations (%2 read)").arg(path).arg(s.conversations);
        return result;
    }
    const std::size_t want = static_cast<std::size_t>(std::max(1, options.numPrompts));
    if (kept.size() < want) {
        // As the reference's oversampling: seeded picks with replacement among the usable ones.
        result.warnings << phrase("ShareGpt", "%1: %2 usable conversations for %3 requests: oversampled")
                               .arg(path)
                               .arg(kept.size())
                               .arg(want);
        std::mt19937_64 rng(options.seed);
        const std::size_t usable = kept.size();
        for (std::size_t i = 0; i < usable; ++i)
            kept[i].id = static_cast<int>(i);
        kept.reserve(want);
        while (kept.size() < want)
            kept.push_back(kept[static_cast<std::size_t>(rng() % usable)]);
    }
    result.prompts = std::move(kept);
    return result;
}

} // namespace kp
