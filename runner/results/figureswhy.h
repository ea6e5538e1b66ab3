#pragma once
// Inside the figures layer: the sentences of a memory explanation (figureswhysentence.cpp),
// written once its breakdowns are made (figureswhy.cpp).

#include "figures.h"
#include "memoryexplanation.h"

// Chooses the pair to compare and writes explanation.sentence, .allocations and
// .againstReference from the breakdowns already in `explanation`; `memory` is figures.memory(),
// built once by the caller.
void explainDifference(const Figures &figures, const FigureTable &memory, MemoryExplanation &explanation);
