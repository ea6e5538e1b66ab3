#include "clusterslots.h"

#include <array>

namespace {

// One table entry per byte value: the CRC of that byte shifted through the polynomial.
constexpr std::array<std::uint16_t, 256> makeTable()
{
    std::array<std::uint16_t, 256> table{};
    for (unsigned byte = 0; byte < 256; ++byte) {
        std::uint16_t crc = std::uint16_t(byte << 8);
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc & 0x8000) ? std::uint16_t((crc << 1) ^ 0x1021) : std::uint16_t(crc << 1);
        table[byte] = crc;
    }
    return table;
}

constexpr std::array<std::uint16_t, 256> kTable = makeTable();

} // namespace

std::uint16_t crc16Xmodem(std::string_view bytes)
{
    std::uint16_t crc = 0;
    for (const char c : bytes)
        crc = std::uint16_t((crc << 8) ^ kTable[((crc >> 8) ^ static_cast<unsigned char>(c)) & 0xff]);
    return crc;
}

int keyHashSlot(std::string_view key)
{
    const size_t open = key.find('{');
    if (open != std::string_view::npos) {
        const size_t close = key.find('}', open + 1);
        // "{}" or no closing brace: the whole key is hashed.
        if (close != std::string_view::npos && close > open + 1)
            key = key.substr(open + 1, close - open - 1);
    }
    return crc16Xmodem(key) & (kClusterSlots - 1);
}
