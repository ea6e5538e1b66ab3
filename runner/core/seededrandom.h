#pragma once
// A seeded pseudo-random generator with a fixed algorithm (xoshiro256** seeded through
// splitmix64), so a seed yields the same numbers with every compiler and standard library.
// The standard distributions are avoided on purpose: their output is implementation-defined.

#include <cstdint>

class SeededRandom {
public:
    explicit SeededRandom(std::uint64_t seed)
    {
        std::uint64_t x = seed;
        for (std::uint64_t &word : m_state)
            word = splitmix64(x);
    }

    std::uint64_t nextU64()
    {
        const std::uint64_t result = rotl(m_state[1] * 5, 7) * 9;
        const std::uint64_t t = m_state[1] << 17;
        m_state[2] ^= m_state[0];
        m_state[3] ^= m_state[1];
        m_state[1] ^= m_state[2];
        m_state[0] ^= m_state[3];
        m_state[2] ^= t;
        m_state[3] = rotl(m_state[3], 45);
        return result;
    }

    // Uniform in [0, 1) with 53 bits of precision.
    double unit() { return double(nextU64() >> 11) * (1.0 / 9007199254740992.0); }

    // Uniform integer in [0, bound); bound > 0. Lemire's multiply-shift with rejection.
    std::uint64_t below(std::uint64_t bound)
    {
        const std::uint64_t threshold = (0 - bound) % bound;
        for (;;) {
            const unsigned __int128 product = (unsigned __int128)nextU64() * bound;
            if (std::uint64_t(product) >= threshold)
                return std::uint64_t(product >> 64);
        }
    }

    // Uniform integer in [low, high].
    long long between(long long low, long long high)
    {
        return low + (long long)below(std::uint64_t(high - low) + 1);
    }

    bool chance(double probability) { return unit() < probability; }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    static std::uint64_t splitmix64(std::uint64_t &x)
    {
        std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

    std::uint64_t m_state[4];
};
