#include "shopcatalog.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace {

struct LeafSpec {
    const char *path;
    int minEuros;
    int maxEuros;
};

const LeafSpec leaves[] = {
    {"Woman/Shoes/Sneakers", 45, 160}, {"Woman/Shoes/Boots", 70, 260}, {"Woman/Shoes/Sandals", 25, 110},
    {"Woman/Shoes/Heels", 50, 220}, {"Woman/Clothing/Dresses", 30, 180}, {"Woman/Clothing/Tops", 12, 60},
    {"Woman/Clothing/Jeans", 35, 120}, {"Woman/Clothing/Jackets", 60, 320}, {"Woman/Clothing/Knitwear", 30, 140},
    {"Woman/Accessories/Bags", 40, 400}, {"Woman/Accessories/Jewellery", 15, 250}, {"Woman/Accessories/Scarves", 15, 70},
    {"Man/Shoes/Sneakers", 50, 170}, {"Man/Shoes/Boots", 80, 280}, {"Man/Shoes/Loafers", 60, 200},
    {"Man/Clothing/Shirts", 25, 110}, {"Man/Clothing/T-Shirts", 10, 45}, {"Man/Clothing/Jeans", 40, 130},
    {"Man/Clothing/Jackets", 70, 350}, {"Man/Clothing/Suits", 180, 650}, {"Man/Accessories/Watches", 60, 900},
    {"Man/Accessories/Belts", 20, 90}, {"Man/Accessories/Wallets", 20, 120},
    {"Kids/Girls/Dresses", 15, 60}, {"Kids/Boys/T-Shirts", 8, 25}, {"Kids/Baby/Bodysuits", 8, 30},
    {"Kids/Shoes/Sneakers", 25, 70}, {"Kids/Toys/Puzzles", 8, 40},
    {"Home/Kitchen/Cookware", 25, 300}, {"Home/Kitchen/Knives", 20, 200}, {"Home/Kitchen/Coffee Makers", 40, 600},
    {"Home/Living/Lamps", 25, 250}, {"Home/Living/Cushions", 10, 50}, {"Home/Living/Rugs", 50, 500},
    {"Home/Bedroom/Bedding", 30, 200}, {"Home/Bedroom/Towels", 10, 60},
    {"Electronics/Audio/Headphones", 30, 450}, {"Electronics/Audio/Speakers", 40, 500},
    {"Electronics/Phones/Smartphones", 200, 1300}, {"Electronics/Phones/Cases", 10, 50},
    {"Electronics/Phones/Chargers", 15, 70}, {"Electronics/Computers/Laptops", 500, 2500},
    {"Electronics/Computers/Monitors", 150, 900}, {"Electronics/Computers/Keyboards", 30, 200},
    {"Sports/Running/Shoes", 60, 200}, {"Sports/Running/Apparel", 20, 90}, {"Sports/Outdoor/Tents", 80, 600},
    {"Sports/Outdoor/Backpacks", 40, 220}, {"Sports/Fitness/Yoga Mats", 20, 90}, {"Sports/Fitness/Dumbbells", 20, 160},
    {"Beauty/Skincare/Moisturisers", 12, 80}, {"Beauty/Skincare/Serums", 15, 120}, {"Beauty/Fragrance/Perfume", 35, 180},
};

const char *const brands[] = {
    "Northpeak", "Lumen & Co", "Atelier Sorel", "Brightfield", "Kestrel", "Marlowe", "Oakhaven", "Velora",
    "Tidewater", "Copperline", "Halcyon", "Fjordic", "Ironbark", "Solenne", "Quillon", "Ravenna",
    "Stonebridge", "Aurelio", "Wren & Finch", "Cobaltic", "Meridian", "Pinecrest", "Lindqvist", "Zephyra",
    "Blue Harbor", "Ardent", "Calloway", "Drift Supply", "Emberly", "Foxglove", "Greyson", "Hollis",
};

const char *const adjectives[] = {
    "Classic", "Essential", "Urban", "Alpine", "Coastal", "Everyday", "Studio", "Heritage", "Nova", "Aero",
    "Soft", "Premium", "Vintage", "Trail", "Metro", "Organic", "Compact", "Pro", "Light", "Signature",
};

const int productsPerCategory = 90;

std::string toUrlPath(const std::string &path)
{
    std::string url;
    for (char c : path) {
        if (c >= 'A' && c <= 'Z')
            url.push_back(char(c - 'A' + 'a'));
        else if (c == ' ' || c == '&')
            url.push_back('-');
        else
            url.push_back(c);
    }
    return url;
}

std::string leafName(const std::string &path)
{
    return path.substr(path.rfind('/') + 1);
}

template <typename T>
void shuffle(std::vector<T> &items, SeededRandom &random)
{
    for (size_t i = items.size(); i > 1; --i)
        std::swap(items[i - 1], items[random.below(i)]);
}

} // namespace

ZipfSampler::ZipfSampler(size_t count, bool squareRootWeights)
{
    m_cumulative.reserve(count);
    double total = 0;
    for (size_t i = 0; i < count; ++i) {
        const double rank = double(i + 1);
        total += squareRootWeights ? 1.0 / std::sqrt(rank) : 1.0 / rank;
        m_cumulative.push_back(total);
    }
}

size_t ZipfSampler::sampleBelow(SeededRandom &random, size_t limit) const
{
    limit = std::min(limit, m_cumulative.size());
    if (limit <= 1)
        return 0;
    const double target = random.unit() * m_cumulative[limit - 1];
    const auto it = std::upper_bound(m_cumulative.begin(), m_cumulative.begin() + long(limit), target);
    return std::min(size_t(it - m_cumulative.begin()), limit - 1);
}

ShopCatalog::ShopCatalog(SeededRandom &random)
{
    std::vector<int> order;
    for (size_t i = 0; i < sizeof leaves / sizeof leaves[0]; ++i)
        order.push_back(int(i));
    shuffle(order, random);

    const size_t brandCount = sizeof brands / sizeof brands[0];
    const size_t adjectiveCount = sizeof adjectives / sizeof adjectives[0];
    for (int leafIndex : order) {
        const LeafSpec &leaf = leaves[leafIndex];
        CatalogCategory category;
        category.path = leaf.path;
        category.urlPath = toUrlPath(category.path);
        const int categoryIndex = int(m_categories.size());
        // A category favours a handful of brands, as real assortments do.
        const size_t brandOffset = random.below(brandCount);
        for (int p = 0; p < productsPerCategory; ++p) {
            CatalogProduct product;
            char id[16];
            std::snprintf(id, sizeof id, "P%05d", int(m_products.size()) + 1);
            product.id = id;
            product.brand = brands[(brandOffset + random.below(8)) % brandCount];
            product.name = product.brand + " " + adjectives[random.below(adjectiveCount)] + " " + leafName(category.path);
            const long long euros = random.between(leaf.minEuros, leaf.maxEuros);
            product.priceCents = euros * 100 - (random.chance(0.7) ? 1 : 0);   // 49.99-style prices
            product.category = categoryIndex;
            category.products.push_back(int(m_products.size()));
            m_products.push_back(std::move(product));
        }
        category.popularity = ZipfSampler(category.products.size(), false);
        m_categories.push_back(std::move(category));
    }
    m_categoryPopularity = ZipfSampler(m_categories.size(), false);
}

int ShopCatalog::popularCategory(SeededRandom &random) const
{
    return int(m_categoryPopularity.sample(random));
}

int ShopCatalog::popularProduct(SeededRandom &random, int category) const
{
    const CatalogCategory &c = m_categories[size_t(category)];
    return c.products[c.popularity.sample(random)];
}
