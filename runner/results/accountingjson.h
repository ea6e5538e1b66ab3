#pragma once
// MemoryAccounting <-> the bundle's "accounting" member (docs/BUNDLE.md).

#include "jsonsupport.h"
#include "memoryaccounting.h"

#include <optional>

Json accountingToJson(const MemoryAccounting &accounting);
// Reads object["accounting"] when present. A size class must be a whole number of bytes from
// 1 to 2^40; anything else fails with its JSON path.
void readAccounting(const Json &object, std::optional<MemoryAccounting> &out);
