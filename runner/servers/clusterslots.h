#pragma once
// The cluster specification's key-to-slot mapping: HASH_SLOT = CRC16(key) mod 16384, where
// CRC16 is the XMODEM variant (polynomial 0x1021, initial value 0) and only the part inside a
// key's first non-empty hash tag ("{user:1}:cart" hashes "user:1") is hashed.

#include <cstdint>
#include <string_view>

constexpr int kClusterSlots = 16384;

std::uint16_t crc16Xmodem(std::string_view bytes);
// The slot of `key`, 0 … 16383.
int keyHashSlot(std::string_view key);
