#pragma once
// The synthetic shop behind generated recordings: a category tree, brands and a product
// catalogue drawn from a seed, with Zipf-distributed popularity.

#include "seededrandom.h"
#include <string>
#include <vector>

// Samples indexes 0..n-1 with weight 1/(rank+1)^exponent, where the rank order is the
// index order. Only sqrt is used, so results do not depend on the maths library.
class ZipfSampler {
public:
    ZipfSampler() = default;
    // exponent is 1.0 or 0.5.
    ZipfSampler(size_t count, bool squareRootWeights);
    size_t sample(SeededRandom &random) const { return sampleBelow(random, m_cumulative.size()); }
    // Samples among the first `limit` indexes only.
    size_t sampleBelow(SeededRandom &random, size_t limit) const;

private:
    std::vector<double> m_cumulative;
};

struct CatalogProduct {
    std::string id;
    std::string name;
    std::string brand;
    long long priceCents = 0;
    int category = 0;          // index into ShopCatalog::categories
};

struct CatalogCategory {
    std::string path;          // "Woman/Shoes/Sneakers"
    std::string urlPath;       // "woman/shoes/sneakers"
    std::vector<int> products; // most popular first
    ZipfSampler popularity;
};

class ShopCatalog {
public:
    explicit ShopCatalog(SeededRandom &random);

    const std::vector<CatalogCategory> &categories() const { return m_categories; }
    const std::vector<CatalogProduct> &products() const { return m_products; }
    // A category index drawn by shop-wide popularity.
    int popularCategory(SeededRandom &random) const;
    // A product of `category`, drawn by popularity within it.
    int popularProduct(SeededRandom &random, int category) const;

private:
    std::vector<CatalogCategory> m_categories;   // most popular first
    ZipfSampler m_categoryPopularity;
    std::vector<CatalogProduct> m_products;
};
