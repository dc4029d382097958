// Multi-turn sources: conversations of a custom JSONL file and synthetic sessions.

#include "dataset/dataset.h"
#include "dataset/dataset_p.h"

#include "metrics/phrase.h"

#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <random>

namespace kp {

namespace detail {

qint64 countTurns(const std::vector<Conversation>& sessions)
{
    qint64 turns = 0;
    for (const Conversation& c : sessions)
        turns += static_cast<qint64>(c.turns.size());
    return turns;
}

std::vector<Conversation> fillSessions(std::vector<Conversation> sessions, int numPrompts)
{
    const std::size_t available = sessions.size();
    qint64 turns = countTurns(sessions);
    if (available == 0 || turns == 0)
        return sessions;
    for (std::size_t i = 0; i < available; ++i) {
        if (sessions[i].id < 0)
            sessions[i].id = static_cast<int>(i);
    }
    for (std::size_t i = 0; turns < numPrompts; ++i) {
        const Conversation again = sessions[i % available];
        turns += static_cast<qint64>(again.turns.size());
        sessions.push_back(again);
    }
    return sessions;
}

} // namespace detail

namespace {

// One conversation of a custom JSONL line; an empty return means it is usable.
QString readConversation(
    const QJsonObject& obj, int defaultOutputTokens, int fixedOutputTokens, Conversation& conversation)
{
    const QJsonValue out = obj.value(QLatin1String("output_tokens"));
    if (!validOutputTokens(out))
        return phrase("Dataset", "\"output_tokens\" must be a whole number from 1 to %1").arg(kMaxDatasetOutputTokens);
    const int lastOutput = fixedOutputTokens > 0 ? fixedOutputTokens
        : out.isUndefined()                      ? defaultOutputTokens
                                                 : out.toInt();
    if (obj.contains(QLatin1String("prompt")) && obj.contains(QLatin1String("messages")))
        return phrase("Dataset", "has both \"prompt\" and \"messages\": keep one of them");
    if (obj.value(QLatin1String("prompt")).isString()) {
        Turn t;
        t.user = obj.value(QLatin1String("prompt")).toString();
        t.userTokens = countWords(t.user);
        t.outputTokens = lastOutput;
        if (t.userTokens == 0)
            return phrase("Dataset", "empty prompt");
        conversation.turns.push_back(std::move(t));
        return {};
    }
    if (!obj.value(QLatin1String("messages")).isArray())
        return phrase("Dataset", "needs a string \"prompt\" or a \"messages\" array");
    const QJsonArray messages = obj.value(QLatin1String("messages")).toArray();
    bool expectUser = true;
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const QJsonObject m = messages.at(i).toObject();
        const QString role = m.value(QLatin1String("role")).toString();
        if (!messages.at(i).isObject() || !m.value(QLatin1String("content")).isString())
            return phrase("Dataset", "messages[%1] needs a string \"role\" and a string \"content\"").arg(i);
        const QString content = m.value(QLatin1String("content")).toString();
        if (role == QLatin1String("system")) {
            if (i != 0)
                return phrase("Dataset", "messages[%1] is a system message after the start").arg(i);
            conversation.system = content;
            conversation.systemTokens = countWords(content);
        } else if (role == QLatin1String("user")) {
            if (!expectUser)
                return phrase("Dataset", "messages[%1] and messages[%2] are two user turns in a row").arg(i - 1).arg(i);
            Turn t;
            t.user = content;
            t.userTokens = countWords(content);
            if (t.userTokens == 0)
                return phrase("Dataset", "messages[%1] is an empty user turn").arg(i);
            t.outputTokens = lastOutput;
            conversation.turns.push_back(std::move(t));
            expectUser = false;
        } else if (role == QLatin1String("assistant")) {
            if (expectUser)
                return conversation.turns.empty()
                    ? phrase("Dataset", "messages[%1] is an answer before any user turn").arg(i)
                    : phrase("Dataset", "messages[%1] and messages[%2] are two answers in a row").arg(i - 1).arg(i);
            Turn& t = conversation.turns.back();
            t.answer = content;
            t.answerTokens = countWords(content);
            if (fixedOutputTokens <= 0 && t.answerTokens > 0)
                t.outputTokens = t.answerTokens;
            expectUser = true;
        } else {
            return phrase("Dataset", "messages[%1] has the unknown role \"%2\" (system, user or assistant)")
                .arg(i)
                .arg(role);
        }
    }
    if (conversation.turns.empty())
        return phrase("Dataset", "no user turn");
    return {};
}

} // namespace

DatasetResult loadJsonlConversations(const QString& path, int defaultOutputTokens, int fixedOutputTokens, bool strict)
{
    std::vector<Conversation> sessions;
    DatasetResult result = detail::readJsonLines(path, strict, 0, [&](const QJsonObject& obj, qsizetype lineNo) {
        Conversation c;
        QString problem = readConversation(obj, defaultOutputTokens, fixedOutputTokens, c);
        if (problem.isEmpty()) {
            c.origin = QStringLiteral("%1:%2").arg(path).arg(lineNo);
            sessions.push_back(std::move(c));
        }
        return problem;
    });
    if (!result.ok())
        return result;
    result.sessions = std::move(sessions);
    if (result.sessions.empty())
        result.error = phrase("Dataset", "%1: no usable conversations").arg(path);
    return result;
}

DatasetResult randomSessions(const RandomDatasetOptions& options, int turns, int systemPromptLen)
{
    DatasetResult result;
    if (options.numPrompts < 1 || options.inputLen < 1 || options.outputLen < 1 || turns < 1) {
        result.error = phrase("Dataset", "random sessions: num_prompts, input_len, output_len and turns must be >= 1");
        return result;
    }
    if (options.rangeRatio < 0.0 || options.rangeRatio >= 1.0 || systemPromptLen < 0) {
        result.error = phrase("Dataset", "random sessions: range_ratio must be in [0, 1), system_prompt_len >= 0");
        return result;
    }
    // The system prompt has a generator of its own, so that it is the same text for every session.
    std::mt19937_64 systemRng(options.seed ^ 0x73797374656dULL);
    const QString system = systemPromptLen > 0 ? detail::randomWords(systemRng, systemPromptLen) : QString();
    std::mt19937_64 rng(options.seed);
    const int sessions = (options.numPrompts + turns - 1) / turns;
    result.sessions.reserve(static_cast<std::size_t>(sessions));
    for (int s = 0; s < sessions; ++s) {
        Conversation c;
        c.system = system;
        c.systemTokens = systemPromptLen;
        c.origin = phrase("Dataset", "random session %1").arg(s);
        c.synthetic = true;
        c.turns.reserve(static_cast<std::size_t>(turns));
        for (int k = 0; k < turns; ++k) {
            Turn t;
            t.userTokens = detail::drawLength(rng, options.inputLen, options.rangeRatio);
            t.answerTokens = detail::drawLength(rng, options.outputLen, options.rangeRatio);
            t.outputTokens = t.answerTokens;
            t.user = detail::randomWords(rng, t.userTokens);
            t.answer = detail::randomWords(rng, t.answerTokens);
            c.turns.push_back(std::move(t));
        }
        result.sessions.push_back(std::move(c));
    }
    return result;
}

std::vector<Conversation> sampleSessions(const std::vector<Conversation>& source, int numPrompts, quint64 seed)
{
    if (source.empty() || numPrompts < 1)
        return {};
    std::vector<std::size_t> order(source.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::mt19937_64 rng(seed);
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<Conversation> out;
    qint64 turns = 0;
    for (std::size_t i = 0; i < order.size() && turns < numPrompts; ++i) {
        out.push_back(source[order[i]]);
        if (out.back().id < 0)
            out.back().id = static_cast<int>(order[i]);
        turns += static_cast<qint64>(out.back().turns.size());
    }
    return detail::fillSessions(std::move(out), numPrompts);
}

} // namespace kp
