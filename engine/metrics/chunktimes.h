#pragma once

#include <QtGlobal>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <vector>

namespace kp {

// A request's chunk arrival times in 4 bytes each instead of 8, every one exact to the nanosecond: 32-bit
// nanosecond offsets from a base, the first chunk's time. A time more than 2^32 - 1 ns (4.29 s) past the
// base of its run, or before it, starts a new run with a 64-bit base of its own (16 bytes more), so a
// request of any length, and times in any order, are kept whole: a stream whose chunks span T seconds
// costs 4 bytes a chunk and 16 bytes per 4.29 s of T beyond the first. Reads like a std::vector<qint64>
// of values; there are no references into it (shift() moves every time at once).
class ChunkTimes
{
public:
    using value_type = qint64;
    using size_type = std::size_t;

    class const_iterator
    {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using iterator_concept = std::random_access_iterator_tag;
        using value_type = qint64;
        using difference_type = std::ptrdiff_t;
        using reference = qint64;
        using pointer = void;

        const_iterator() = default;
        const_iterator(const ChunkTimes* times, std::size_t i)
            : m_times(times)
            , m_i(i)
        { }
        qint64 operator*() const { return (*m_times)[m_i]; }
        qint64 operator[](difference_type n) const { return (*m_times)[std::size_t(difference_type(m_i) + n)]; }
        const_iterator& operator++()
        {
            ++m_i;
            return *this;
        }
        const_iterator operator++(int)
        {
            const_iterator old = *this;
            ++m_i;
            return old;
        }
        const_iterator& operator--()
        {
            --m_i;
            return *this;
        }
        const_iterator operator--(int)
        {
            const_iterator old = *this;
            --m_i;
            return old;
        }
        const_iterator& operator+=(difference_type n)
        {
            m_i = std::size_t(difference_type(m_i) + n);
            return *this;
        }
        const_iterator& operator-=(difference_type n) { return *this += -n; }
        friend const_iterator operator+(const_iterator it, difference_type n) { return it += n; }
        friend const_iterator operator+(difference_type n, const_iterator it) { return it += n; }
        friend const_iterator operator-(const_iterator it, difference_type n) { return it -= n; }
        friend difference_type operator-(const const_iterator& a, const const_iterator& b)
        {
            return difference_type(a.m_i) - difference_type(b.m_i);
        }
        friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.m_i == b.m_i; }
        friend auto operator<=>(const const_iterator& a, const const_iterator& b) { return a.m_i <=> b.m_i; }

    private:
        const ChunkTimes* m_times = nullptr;
        std::size_t m_i = 0;
    };
    using iterator = const_iterator;

    ChunkTimes() = default;
    ChunkTimes(std::initializer_list<qint64> times)
    {
        reserve(times.size());
        for (qint64 t : times)
            push_back(t);
    }
    ChunkTimes& operator=(std::initializer_list<qint64> times)
    {
        clear();
        reserve(times.size());
        for (qint64 t : times)
            push_back(t);
        return *this;
    }

    void push_back(qint64 ns)
    {
        if (m_offsets.empty()) {
            m_base = ns;
            m_runs.clear();
            m_offsets.push_back(0);
            return;
        }
        const qint64 base = m_runs.empty() ? m_base : m_runs.back().baseNs;
        // Unsigned: the difference of two times far apart does not overflow.
        if (ns >= base && quint64(ns) - quint64(base) <= kMaxOffset) {
            m_offsets.push_back(quint32(quint64(ns) - quint64(base)));
            return;
        }
        m_runs.push_back(Run { m_offsets.size(), ns });
        m_offsets.push_back(0);
    }

    qint64 operator[](std::size_t i) const
    {
        if (m_runs.empty() || i < m_runs.front().from)
            return m_base + qint64(m_offsets[i]);
        const auto run = std::upper_bound(m_runs.begin(), m_runs.end(), i, [](std::size_t at, const Run& r) {
            return at < r.from;
        }) - 1;
        return run->baseNs + qint64(m_offsets[i]);
    }
    qint64 front() const { return (*this)[0]; }
    qint64 back() const { return (*this)[m_offsets.size() - 1]; }
    std::size_t size() const { return m_offsets.size(); }
    bool empty() const { return m_offsets.empty(); }
    const_iterator begin() const { return { this, 0 }; }
    const_iterator end() const { return { this, m_offsets.size() }; }

    void reserve(std::size_t n) { m_offsets.reserve(n); }
    void shrink_to_fit()
    {
        m_offsets.shrink_to_fit();
        m_runs.shrink_to_fit();
    }
    void clear()
    {
        m_offsets.clear();
        m_runs.clear();
        m_base = 0;
    }
    // Every time moved by deltaNs (onto another clock's zero).
    void shift(qint64 deltaNs)
    {
        m_base += deltaNs;
        for (Run& r : m_runs)
            r.baseNs += deltaNs;
    }
    // Bytes held on the heap (capacity, not size): what a record's chunk times cost beyond sizeof.
    std::size_t heapBytes() const { return m_offsets.capacity() * sizeof(quint32) + m_runs.capacity() * sizeof(Run); }
    // The runs past the first: times that did not fit 32 bits from the previous base.
    std::size_t extraRuns() const { return m_runs.size(); }

    friend bool operator==(const ChunkTimes& a, const ChunkTimes& b) { return std::ranges::equal(a, b); }
    friend bool operator==(const ChunkTimes& a, const std::vector<qint64>& b) { return std::ranges::equal(a, b); }

    static constexpr quint64 kMaxOffset = std::numeric_limits<quint32>::max();

private:
    struct Run
    {
        std::size_t from; // the index of its first time
        qint64 baseNs;
    };
    qint64 m_base = 0; // the first run's base, the first time
    std::vector<quint32> m_offsets; // from the base of the run each time is in
    std::vector<Run> m_runs; // the runs after the first, by index
};

} // namespace kp
